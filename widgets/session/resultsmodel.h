// SPDX-License-Identifier: MIT
#pragma once
// Finished runs as rows. Names are editable; everything else is the run's immutable snapshot.
#include "widgets/session/types.h"

#include <QAbstractTableModel>

namespace sl::gui {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Name,
        Method,
        Graph,
        Devices,
        Makespan,
        BoundGap,
        StepPeak,
        TimePeak,
        Cost,
        TargetSpeedup,
        Evaluations,
        Seconds,
        Seed,
        ColumnCount
    };
    /// GraphRole: the row's graph fingerprint as text, the same in every column (the "This graph" filter).
    enum Role { RecordIdRole = Qt::UserRole + 1, SortRole, GraphRole };

    using QAbstractTableModel::QAbstractTableModel;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

    void add(const RunRecord& r);
    /// Replaces the row of `r.id` by `r` (a hand-edited result after another edit, an undo or a redo).
    void replace(const RunRecord& r);
    void clear();
    const RunRecord& record(int row) const { return m_rows[static_cast<size_t>(row)]; }
    int rowOfId(int id) const;
    /// Distinct graphs among the rows.
    int graphCount() const;

private:
    /// The best bound any row proved for a problem goes to every row of that problem.
    void shareBound(std::size_t row);
    void shareBound(std::size_t row, double RunRecord::*bound, QString RunRecord::*source);

    std::vector<RunRecord> m_rows;
    std::vector<std::uint64_t> m_problemKeys;   ///< per row: graph, platform and objective
};

/// The text GraphRole carries for a fingerprint.
QString graphKey(std::uint64_t fingerprint);

QString formatBytes(double bytes);
/// "+10.9 %", or "0 % (optimal)" when the makespan meets the bound (a proof of optimality).
QString boundGapText(double makespan, double bound);
/// A cost in its unit: a duration in the graph's `unit` for the makespan objective, bytes for the
/// memory objective, a plain number for the weighted objective (dimensionless).
QString formatCost(double cost, Objective objective, TimeUnit unit = TimeUnit::Abstract);
/// What a hand edit changes, to the unit: "makespan 61 units → 58 units (−3 units, −4.9 %)", then
/// " · peak memory …" in bytes when either schedule holds memory (the drag's read-out, the status bar).
QString editChangeText(const Schedule& before, const Schedule& after, TimeUnit unit);

}   // namespace sl::gui

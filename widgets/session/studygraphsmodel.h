// SPDX-License-Identifier: MIT
#pragma once
// The Study tab's per-graph table as a model over the study's summary: a row per graph (its file
// name, then each method's mean cost over the seeds; "failed" for a run that failed or is
// missing). A reload swaps the summary in O(1) and the view asks only for the cells it paints, so
// re-reading a running study of 1,000 graphs makes no 6,000 items each half second (docs/studies.md).
#include "core/study/studysummary.h"

#include <QAbstractTableModel>

#include <memory>

namespace sl::gui {

class StudyGraphsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    /// Shows `summary` (null: nothing). Same graphs and methods: the cells change in place (the
    /// selection and the scroll stay); else the model is reset.
    void setSummary(std::shared_ptr<const StudySummary> summary);
    /// The graph file of `row`, the method label of `column` (column 0 is the graph's).
    const std::string& graphAt(int row) const { return m_summary->graphs[static_cast<std::size_t>(row)]; }
    const std::string& methodAt(int column) const { return m_summary->methods[static_cast<std::size_t>(column - 1)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const StudySummary> m_summary;
    std::vector<const std::vector<double>*> m_costs;   // per method column: its costs by graph
};

}   // namespace sl::gui

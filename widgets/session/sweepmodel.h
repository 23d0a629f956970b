// SPDX-License-Identifier: MIT
#pragma once
// A sweep's temperatures as table rows (read-only): σ, the proxy speedup statistics, distinct
// schedules, the top-k diversity, best-of-k per target and the best makespan. Units in headers.
#include "core/sweep/sweep.h"

#include <QAbstractTableModel>

#include <memory>

namespace sl::gui {

class SweepModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Sigma, Mean, Std, Top1, TopKMean, Distinct, Relabelled, Ged, DInv, DSen, BestMakespan, FirstTarget };
    enum Role { SortRole = Qt::UserRole + 1 };
    using QAbstractTableModel::QAbstractTableModel;
    void setSweep(std::shared_ptr<const Sweep> s);
    const Sweep* sweep() const { return m_sweep.get(); }
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const Sweep> m_sweep;
};

}   // namespace sl::gui

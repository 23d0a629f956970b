// SPDX-License-Identifier: MIT
#include "widgets/session/sweepmodel.h"

#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"

namespace sl::gui {

void SweepModel::setSweep(std::shared_ptr<const Sweep> s) {
    beginResetModel();
    m_sweep = std::move(s);
    endResetModel();
}

int SweepModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_sweep ? 0 : static_cast<int>(m_sweep->points.size());
}

int SweepModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : FirstTarget + (m_sweep ? static_cast<int>(m_sweep->options.targets.size()) : 0);
}

QVariant SweepModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_sweep) return {};
    const SweepPoint& p = m_sweep->points[static_cast<size_t>(index.row())];
    const int c = index.column();
    double value = 0;
    switch (c) {
    case Sigma: value = p.temperature; break;
    case Mean: value = p.proxyMean; break;
    case Std: value = p.proxyStd; break;
    case Top1: value = p.proxyTop1; break;
    case TopKMean: value = p.proxyTopKMean; break;
    case Distinct: value = p.distinct.exact; break;
    case Relabelled: value = p.distinct.upToRelabelling; break;
    case Ged: value = p.topK.ged; break;
    case DInv: value = p.topK.dInv; break;
    case DSen: value = p.topK.dSen; break;
    case BestMakespan: value = p.bestMakespan; break;
    default: value = p.targets[static_cast<size_t>(c - FirstTarget)].bestOfK; break;
    }
    if (role == SortRole) return value;
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == Distinct)
        return tr("%1 of %2 samples are different schedules").arg(p.distinct.exact).arg(p.samples);
    if (role != Qt::DisplayRole) return {};
    switch (c) {
    case Sigma: return QString::number(value, 'g', 3);
    case Distinct:
    case Relabelled: return QString::number(static_cast<int>(value));
    case Ged: return QString::number(value, 'f', 1);
    case DInv:
    case DSen:
    case BestMakespan: return formatDuration(value, m_sweep->timeUnit);
    default: return QString::number(value, 'f', 3);
    }
}

QVariant SweepModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    static const char* names[] = {"σ",          "mean U (×)", "std U", "top-1 U (×)", "top-k mean (×)", "distinct",
                                  "relabelled", "GED (%)",    "d_inv", "d_sen",       "best makespan"};
    static const char* tips[] = {"Reward temperature (unit-less)",
                                 "Mean proxy speedup over the N samples: total work / makespan on the proxy",
                                 "Standard deviation of the proxy speedup over the N samples",
                                 "Best proxy speedup of the N samples",
                                 "Mean proxy speedup of the top k samples",
                                 "Different schedules among the N samples (same chains on the same devices = same)",
                                 "Different schedules up to device relabelling",
                                 "Mean pairwise graph edit distance of the top k's chain graphs, % of their edges",
                                 "Mean pairwise L2 distance of start times over the top k (in the graph's time unit)",
                                 "d_inv with the device placement (in the graph's time unit)",
                                 "Proxy makespan of the best sample (in the graph's time unit)"};
    if (section >= FirstTarget) {
        if (!m_sweep) return {};
        const QString target =
            QString::fromStdString(toString(m_sweep->options.targets[static_cast<size_t>(section - FirstTarget)]));
        if (role == Qt::DisplayRole) return tr("%1 best-of-k (×)").arg(target);
        if (role == Qt::ToolTipRole) return tr("Best target speedup of the top k on the %1 target model").arg(target);
        return {};
    }
    if (role == Qt::DisplayRole) return QString::fromUtf8(names[section]);
    if (role == Qt::ToolTipRole) return tr(tips[section]);
    return {};
}

}   // namespace sl::gui

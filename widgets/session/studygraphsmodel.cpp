// SPDX-License-Identifier: MIT
#include "widgets/session/studygraphsmodel.h"

#include <QFileInfo>

#include <cmath>

namespace sl::gui {

void StudyGraphsModel::setSummary(std::shared_ptr<const StudySummary> summary) {
    const bool sameShape =
        m_summary && summary && m_summary->graphs == summary->graphs && m_summary->methods == summary->methods;
    if (!sameShape) beginResetModel();
    m_summary = std::move(summary);
    m_costs.clear();
    if (m_summary)
        for (const std::string& m : m_summary->methods) m_costs.push_back(&m_summary->cost.at(m));
    if (!sameShape) return endResetModel();
    if (rowCount() > 0) Q_EMIT dataChanged(index(0, 1), index(rowCount() - 1, columnCount() - 1), {Qt::DisplayRole});
}

int StudyGraphsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_summary ? 0 : static_cast<int>(m_summary->graphs.size());
}

int StudyGraphsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() || !m_summary ? 0 : static_cast<int>(m_summary->methods.size()) + 1;
}

QVariant StudyGraphsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !m_summary) return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment(index.column() == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole) return {};
    if (index.column() == 0) return QFileInfo(QString::fromStdString(graphAt(index.row()))).fileName();
    const double c = (*m_costs[static_cast<std::size_t>(index.column() - 1)])[static_cast<std::size_t>(index.row())];
    return std::isnan(c) ? tr("failed") : QString::number(c, 'g', 8);
}

QVariant StudyGraphsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_summary)
        return QAbstractTableModel::headerData(section, orientation, role);
    return section == 0 ? tr("Graph") : QString::fromStdString(methodAt(section));
}

}   // namespace sl::gui

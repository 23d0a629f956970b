// SPDX-License-Identifier: MIT
#include "widgets/session/resultsmodel.h"

#include "widgets/session/schedulerecord.h"
#include "widgets/session/units.h"

#include "core/analysis/bounds.h"

#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/util/fnv.h"

#include <QLocale>

#include <cmath>
#include <set>

namespace sl::gui {

QString graphKey(std::uint64_t fingerprint) { return QString::fromStdString(fingerprintText(fingerprint)); }

QString formatBytes(double bytes) {
    if (!std::isfinite(bytes)) return QStringLiteral("∞");
    return QLocale::c().formattedDataSize(static_cast<qint64>(bytes), 1, QLocale::DataSizeIecFormat);
}

QString boundGapText(double makespan, double bound) {
    const double gap = gapToBound(makespan, bound);
    if (!std::isfinite(gap)) return QStringLiteral("–");
    if (gap <= 0) return QObject::tr("0 % (optimal)");
    return QStringLiteral("+%1 %").arg(100 * gap, 0, 'f', gap < 0.001 ? 3 : gap < 0.1 ? 2 : 1);
}

namespace {

/// What the "Gap to bound" column measures: the peak memory on the problem's clock for a memory
/// objective, else the makespan; with its bound (0: none yet).
struct Bounded {
    double value = 0, bound = 0;
    bool memory = false;
};

Bounded bounded(const RunRecord& r) {
    const Schedule& s = r.result->schedule;
    if (r.problem && r.problem->objective.kind == Objective::Memory) return {s.peakMemory(), r.memoryBound, true};
    return {s.makespan, r.makespanBound, false};
}

}   // namespace

QString formatCost(double cost, Objective objective, TimeUnit unit) {
    switch (objective) {
    case Objective::Makespan: return formatDuration(cost, unit);
    case Objective::Memory: return formatBytes(cost);
    case Objective::Weighted: break;
    }
    return formatPlain(cost);
}

QString editChangeText(const Schedule& before, const Schedule& after, TimeUnit unit) {
    QString text = QObject::tr("makespan %1").arg(formatDurationChange(before.makespan, after.makespan, unit));
    if (before.peakMemory() > 0 || after.peakMemory() > 0)
        text += QObject::tr(" · peak memory %1").arg(formatBytesChange(before.peakMemory(), after.peakMemory()));
    return text;
}

namespace {

/// A result made by a hand edit (editedRecord's note): its makespan reads to the unit.
bool editedByHand(const RunResult& r) { return r.note == kEditedByHandNote; }

/// Same graph, same platform, same objective: the same optimum, so the same bounds.
std::uint64_t problemKey(const RunRecord& r) {
    if (!r.problem) return 0;
    return fnv1a64(platformToJson(r.problem->platform) + toString(r.problem->objective.kind) +
                       toString(r.problem->objective.memoryClock),
                   r.graphFingerprint);
}

}   // namespace

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const RunRecord& r = m_rows[static_cast<size_t>(index.row())];
    const RunResult& res = *r.result;
    if (role == RecordIdRole) return r.id;
    if (role == GraphRole) return graphKey(r.graphFingerprint);
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Devices ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == SortRole) {
        switch (index.column()) {
        case Devices: return r.problem ? r.problem->platform.deviceCount() : 0;
        case Makespan: return res.schedule.makespan;
        case BoundGap: {
            const Bounded b = bounded(r);
            return b.bound > 0 ? gapToBound(b.value, b.bound) : QVariant();
        }
        case StepPeak: return res.schedule.stepMemory.peak;
        case TimePeak: return res.schedule.timeMemory.peak;
        case Cost: return res.cost;
        case TargetSpeedup: return r.targetSpeedup;
        case Evaluations: return static_cast<qlonglong>(res.evaluations);
        case Seconds: return res.seconds;
        case Seed: return static_cast<qulonglong>(r.options.seed);
        default: break;
        }
        role = Qt::DisplayRole;
    }
    if (role == Qt::ToolTipRole && index.column() == Cost && r.problem)
        return tr("%1 objective, peak memory on the %2 clock")
            .arg(QString::fromStdString(toString(r.problem->objective.kind)),
                 QString::fromStdString(toString(r.problem->objective.memoryClock)));
    if (role == Qt::ToolTipRole && index.column() == TargetSpeedup)
        return tr("Speedup (total work / makespan) of the schedule's placement and per-device order re-timed on the %1 target model")
            .arg(QString::fromStdString(toString(r.target.model)));
    if (role == Qt::ToolTipRole && index.column() == Graph && r.problem)
        return tr("%1: %2 ops, fingerprint %3")
            .arg(r.graphTitle)
            .arg(r.problem->graph->opCount())
            .arg(graphKey(r.graphFingerprint));
    if (role == Qt::ToolTipRole && index.column() == Devices && r.problem) {
        QStringList names;
        for (const Device& d : r.problem->platform.devices) names << QString::fromStdString(d.name);
        return names.join(QStringLiteral(", "));
    }
    if (role == Qt::ToolTipRole && !res.note.empty()) return QString::fromStdString(res.note);
    if (role == Qt::ToolTipRole && index.column() == Makespan &&
        r.problem)   // the exact value, in the graph's own unit
        return formatExact(res.schedule.makespan, r.problem->g().timeUnit());
    if (role == Qt::ToolTipRole && index.column() == Seconds) return tr("Wall-clock time of the run");
    if (const Bounded b = bounded(r);
        role == Qt::ToolTipRole && index.column() == BoundGap && b.bound > 0 && r.problem) {
        if (b.memory)
            return tr("The peak memory %1 (%2 clock) is at most %3 above the optimum: no schedule peaks below %4 (%5)")
                .arg(formatBytes(b.value), QString::fromStdString(toString(r.problem->objective.memoryClock)),
                     boundGapText(b.value, b.bound), formatBytes(b.bound), r.memoryBoundSource);
        const TimeUnit unit = r.problem->g().timeUnit();
        return tr("The makespan %1 is at most %2 above the optimum: no schedule finishes before %3 (the %4 bound)")
            .arg(formatDuration(b.value, unit), boundGapText(b.value, b.bound), formatDuration(b.bound, unit),
                 r.makespanBoundSource);
    }
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    switch (index.column()) {
    case Name: return r.name;
    case Method: return r.method;
    case Graph: return r.graphTitle;
    case Devices: return r.problem ? QString::number(r.problem->platform.deviceCount()) : QStringLiteral("–");
    case Makespan: {
        const TimeUnit unit = r.problem ? r.problem->g().timeUnit() : TimeUnit::Abstract;
        const double makespan = res.schedule.makespan;
        return editedByHand(res) ? formatDurationExact(makespan, unit) : formatDuration(makespan, unit);
    }
    case BoundGap: {
        const Bounded b = bounded(r);
        return b.bound > 0 ? boundGapText(b.value, b.bound) : QStringLiteral("–");
    }
    case StepPeak: return formatBytes(res.schedule.stepMemory.peak);
    case TimePeak: return formatBytes(res.schedule.timeMemory.peak);
    case Cost:
        return formatCost(res.cost, r.problem ? r.problem->objective.kind : Objective::Makespan,
                          r.problem ? r.problem->g().timeUnit() : TimeUnit::Abstract);
    case TargetSpeedup:
        return r.targetSpeedup > 0 ? QStringLiteral("%1× %2")
                                         .arg(r.targetSpeedup, 0, 'f', 3)
                                         .arg(QString::fromStdString(toString(r.target.model)))
                                   : QStringLiteral("–");
    case Evaluations: return formatCount(res.evaluations);
    case Seconds: return formatDuration(res.seconds, TimeUnit::Seconds);   // wall time
    case Seed: return QString::number(r.options.seed);
    default: return {};
    }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case StepPeak:
            return tr("Peak memory on the step clock: one op or transfer per step of the order (the papers')");
        case TimePeak:
            return tr("Peak memory on the time clock: memory over time of the timed schedule (the memory view)");
        case Cost:
            return tr("The one scalar cost every method minimises; its memory term reads the problem's memory clock");
        case TargetSpeedup:
            return tr("Speedup on the target chosen in the Platform panel (Score on): total work / makespan there");
        case Graph: return tr("The graph the schedule was made for (Results ▸ Show: This graph / All graphs)");
        case Devices: return tr("Devices of the platform the schedule was made on");
        case BoundGap:
            return tr(
                "How far the run can at most be from the optimum: (value − lower bound) / lower bound. The makespan "
                "against the best of the critical-path, work and machine bounds; for a peak-memory objective, the "
                "peak against the tensors that must be resident at some op");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    switch (section) {
    case Name: return tr("Run");
    case Method: return tr("Method");
    case Graph: return tr("Graph");
    case Devices: return tr("Devices");
    case Makespan: return tr("Makespan");
    case BoundGap: return tr("Gap to bound");
    case StepPeak: return tr("Peak (step)");
    case TimePeak: return tr("Peak (time)");
    case Cost: return tr("Cost");
    case TargetSpeedup: return tr("Speedup (×)");
    case Evaluations: return tr("Evals");
    case Seconds: return tr("Seconds");
    case Seed: return tr("Seed");
    default: return {};
    }
}

Qt::ItemFlags ResultsModel::flags(const QModelIndex& index) const {
    auto f = QAbstractTableModel::flags(index);
    if (index.isValid() && index.column() == Name) f |= Qt::ItemIsEditable;
    return f;
}

bool ResultsModel::setData(const QModelIndex& index, const QVariant& value, int role) {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || index.column() != Name || role != Qt::EditRole)
        return false;
    const QString name = value.toString().trimmed();
    if (name.isEmpty()) return false;
    m_rows[static_cast<size_t>(index.row())].name = name;
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    return true;
}

bool ResultsModel::removeRows(int row, int count, const QModelIndex& parent) {
    if (parent.isValid() || row < 0 || count <= 0 || row + count > rowCount()) return false;
    beginRemoveRows({}, row, row + count - 1);
    m_rows.erase(m_rows.begin() + row, m_rows.begin() + row + count);
    m_problemKeys.erase(m_problemKeys.begin() + row, m_problemKeys.begin() + row + count);
    endRemoveRows();
    return true;
}

void ResultsModel::add(const RunRecord& r) {
    const int row = rowCount();
    beginInsertRows({}, row, row);
    m_rows.push_back(r);
    m_problemKeys.push_back(problemKey(r));
    if (m_rows.back().makespanBound <= 0) attachBound(m_rows.back());   // a record made without one
    endInsertRows();
    shareBound(m_rows.size() - 1);
}

void ResultsModel::replace(const RunRecord& r) {
    const int row = rowOfId(r.id);
    if (row < 0) return;
    m_rows[static_cast<size_t>(row)] = r;
    m_problemKeys[static_cast<size_t>(row)] = problemKey(r);
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void ResultsModel::clear() {
    beginResetModel();
    m_rows.clear();
    m_problemKeys.clear();
    endResetModel();
}

void ResultsModel::shareBound(std::size_t row) {
    shareBound(row, &RunRecord::makespanBound, &RunRecord::makespanBoundSource);
    shareBound(row, &RunRecord::memoryBound, &RunRecord::memoryBoundSource);
}

/// A bound one run proved holds for every schedule of its problem: every row of that problem
/// gets the largest one known.
void ResultsModel::shareBound(std::size_t row, double RunRecord::*bound, QString RunRecord::*source) {
    const std::uint64_t key = m_problemKeys[row];
    std::size_t best = row;
    for (std::size_t i = 0; i < m_rows.size(); ++i)
        if (m_problemKeys[i] == key && m_rows[i].*bound > m_rows[best].*bound) best = i;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (i == best || m_problemKeys[i] != key || m_rows[i].*bound >= m_rows[best].*bound) continue;
        m_rows[i].*bound = m_rows[best].*bound;
        m_rows[i].*source = m_rows[best].*source;
        const QModelIndex cell = index(static_cast<int>(i), BoundGap);
        Q_EMIT dataChanged(cell, cell);
    }
}

int ResultsModel::graphCount() const {
    std::set<std::uint64_t> graphs;
    for (const RunRecord& r : m_rows) graphs.insert(r.graphFingerprint);
    return static_cast<int>(graphs.size());
}

int ResultsModel::rowOfId(int id) const {
    for (size_t i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].id == id) return static_cast<int>(i);
    return -1;
}

}   // namespace sl::gui

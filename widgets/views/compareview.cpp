// SPDX-License-Identifier: MIT
#include "widgets/views/compareview.h"

#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/chartutil.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/palette.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QCoreApplication>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

namespace sl::gui {
namespace {

QLabel* titleLabel(QWidget* parent) {
    auto* l = new QLabel(parent);
    l->setStyleSheet(QStringLiteral("font-weight: 600; padding: 2px 4px"));
    return l;
}

/// B − A with a sign and the relative change; `format` prints a magnitude in the measure's unit.
template <typename Format>
QString delta(double a, double b, Format format) {
    const double d = b - a;
    if (d == 0) return QCoreApplication::translate("CompareView", "same");
    const QString pct = a != 0
        ? QStringLiteral(" (%1%2%)").arg(d >= 0 ? QStringLiteral("+") : QString()).arg(100 * d / a, 0, 'f', 1)
        : QString();
    return (d >= 0 ? QStringLiteral("+") : QStringLiteral("−")) + format(std::abs(d)) + pct;
}

}   // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(2);
    m_titleA = titleLabel(left);
    m_titleB = titleLabel(left);
    m_ganttA = new GanttView(left);
    m_ganttB = new GanttView(left);
    m_memory = new QChart;
    m_memory->setMargins(QMargins(4, 4, 4, 4));
    m_memory->legend()->setAlignment(Qt::AlignTop);   // the chart is narrow: the plot keeps the width
    auto* memoryView = new QChartView(m_memory, left);
    memoryView->setRenderHint(QPainter::Antialiasing);
    memoryView->setMinimumHeight(160);
    memoryView->setFrameShape(QFrame::NoFrame);
    leftLayout->addWidget(m_titleA);
    leftLayout->addWidget(m_ganttA, 3);
    leftLayout->addWidget(m_titleB);
    leftLayout->addWidget(m_ganttB, 3);
    leftLayout->addWidget(memoryView, 2);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setColumnCount(4);
    m_table->setHorizontalHeaderLabels({tr("Measure"), tr("A"), tr("B"), tr("B − A")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideRight);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // the measure column is sized by fitTableWidth(): the moved ops' names (a row spanning every
    // column) must not widen it and push the values out of view
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    auto* split = new QSplitter(this);
    split->addWidget(left);
    split->addWidget(m_table);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    m_table->setMinimumWidth(340);
    split->setSizes({1000, 400});
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("compareNotice"));
    m_notice->setAlignment(Qt::AlignCenter);
    m_notice->setWordWrap(true);
    m_notice->setStyleSheet(QStringLiteral("font-size: 13pt; padding: 10px; background: palette(alternate-base)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_notice);
    layout->addWidget(split);
    connect(m_ganttA, &GanttView::timeRangeChanged, this, &CompareView::syncRange);
    connect(m_ganttB, &GanttView::timeRangeChanged, this, &CompareView::syncRange);
    setRecords(std::nullopt, std::nullopt);
}

void CompareView::setSelection(OpSelection* s) {
    m_ganttA->setSelection(s);
    m_ganttB->setSelection(s);
}

void CompareView::setRecords(const std::optional<RunRecord>& a, const std::optional<RunRecord>& b) {
    m_a = a;
    m_b = b;
    m_ganttA->setRecord(a);
    m_ganttB->setRecord(b);
    m_titleA->setText(a ? tr("A: %1").arg(a->name) : tr("A: —"));
    m_titleB->setText(b ? tr("B: %1").arg(b->name) : tr("B: —"));
    setNotice(a && b ? QString() : tr("Select two results (Ctrl+click) to compare them."));
    if (a && b) {
        const double end = std::max(a->schedule().makespan, b->schedule().makespan) * 1.02;
        m_ganttA->setTimeRange(0, end);
        m_ganttB->setTimeRange(0, end);
    }
    rebuildMemory();
    rebuildTable();
}

void CompareView::setNotice(const QString& text) {
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

QString CompareView::notice() const { return m_notice->text(); }

namespace {
constexpr int kMemoryTicks = 5;         ///< the half-width chart has room for five time labels
constexpr int kMaxMeasureWidth = 220;   ///< px: a long measure label elides rather than push the values away
constexpr int kMovedNamesShown = 12;    ///< names in the moved-ops row (all of them up to kMovedNamesTip on hover)
constexpr int kMovedNamesTip = 60;
}   // namespace

void CompareView::syncRange(double t0, double t1) {
    if (m_syncing) return;
    m_syncing = true;
    m_ganttA->setTimeRange(t0, t1);
    m_ganttB->setTimeRange(t0, t1);
    for (auto* axis : m_memory->axes(Qt::Horizontal))
        if (m_a) setTimeRange(static_cast<QCategoryAxis*>(axis), t0, t1, m_a->problem->g().timeUnit(), kMemoryTicks);
    m_syncing = false;
}

void CompareView::rebuildMemory() {
    m_memory->removeAllSeries();
    for (auto* axis : m_memory->axes()) {
        m_memory->removeAxis(axis);
        delete axis;
    }
    if (!comparing()) {
        m_memory->setTitle({});
        return;
    }
    const double peak = std::max(m_a->memory->peak, m_b->memory->peak);
    m_memory->setTitle(peak > 0 ? tr("Memory of each schedule's peak device")
                                : tr("Memory: this graph's tensors have no bytes"));
    const auto [divisor, unit] = byteUnit(peak);
    auto* x = new QCategoryAxis;
    const double end = std::max(m_a->schedule().makespan, m_b->schedule().makespan) * 1.02;
    setTimeRange(x, 0, end, m_a->problem->g().timeUnit(), kMemoryTicks);
    auto* y = new QValueAxis;
    y->setTitleText(unit);                                   // the chart is small: the unit alone fits
    y->setRange(0, peak > 0 ? peak / divisor * 1.1 : 1.0);   // a graph without tensor bytes: a plain 0-1 axis
    y->applyNiceNumbers();
    setPlainLabels(y);
    m_memory->addAxis(x, Qt::AlignBottom);
    m_memory->addAxis(y, Qt::AlignLeft);
    int i = 0;
    for (const auto* r : {&*m_a, &*m_b}) {
        auto* s = new QLineSeries;
        const int d = r->memory->peakDevice;
        s->setName(QStringLiteral("%1 (%2)").arg(
            i == 0 ? QStringLiteral("A") : QStringLiteral("B"),
            QString::fromStdString(r->problem->platform.devices[static_cast<size_t>(d)].name)));
        s->replace(stepPoints(r->memory->curves[static_cast<size_t>(d)], r->schedule().makespan, divisor));
        s->setPen(QPen(i == 0 ? palette::category(0) : palette::category(1), 1.8));
        m_memory->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
        ++i;
    }
}

void CompareView::fitTableWidth() {
    // the measure column as wide as its labels, within kMaxMeasureWidth; the values as wide as they
    // ask; the table as wide as all of them: the splitter gives the rest to the charts
    m_table->resizeColumnsToContents();
    m_table->setColumnWidth(0, std::min(m_table->columnWidth(0), kMaxMeasureWidth));
    int width = 2 * m_table->frameWidth() + m_table->verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < m_table->columnCount(); ++c) width += m_table->horizontalHeader()->sectionSize(c);
    m_table->setMinimumWidth(std::max(340, width));
}

void CompareView::rebuildTable() {
    m_table->setRowCount(0);
    m_moved = 0;
    if (!comparing()) return;
    const Schedule& a = m_a->schedule();
    const Schedule& b = m_b->schedule();
    auto addRow = [this](const QString& what, const QString& va, const QString& vb, const QString& d) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(what));
        for (int c = 1; c <= 3; ++c) {
            auto* item = new QTableWidgetItem(c == 1 ? va : c == 2 ? vb : d);
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(row, c, item);
        }
    };
    const TimeUnit unit = m_a->problem->g().timeUnit();
    const auto time = [unit](double v) { return formatDuration(v, unit); };
    const auto bytes = [](double v) { return formatBytes(v); };
    const Objective kindA = m_a->problem->objective.kind, kindB = m_b->problem->objective.kind;
    const auto cost = [&](double v) { return kindA == kindB ? formatCost(v, kindA, unit) : formatPlain(v); };
    addRow(tr("Method"), m_a->method, m_b->method, {});
    addRow(tr("Makespan"), time(a.makespan), time(b.makespan), delta(a.makespan, b.makespan, time));
    addRow(tr("Peak memory (step)"), bytes(a.stepMemory.peak), bytes(b.stepMemory.peak),
           delta(a.stepMemory.peak, b.stepMemory.peak, bytes));
    addRow(tr("Peak memory (time)"), bytes(a.timeMemory.peak), bytes(b.timeMemory.peak),
           delta(a.timeMemory.peak, b.timeMemory.peak, bytes));
    addRow(tr("Cost"), formatCost(m_a->result->cost, kindA, unit), formatCost(m_b->result->cost, kindB, unit),
           delta(m_a->result->cost, m_b->result->cost, cost));
    const auto transfersA = static_cast<long long>(a.transfers.size()),
               transfersB = static_cast<long long>(b.transfers.size());
    addRow(tr("Transfers"), formatCount(transfersA), formatCount(transfersB),
           transfersB == transfersA ? tr("same")
                                    : (transfersB > transfersA ? QStringLiteral("+") : QStringLiteral("−")) +
                   formatCount(std::abs(transfersB - transfersA)));
    const bool sameGraph = m_a->problem->graph == m_b->problem->graph && a.ops.size() == b.ops.size();
    if (!sameGraph) {
        addRow(tr("Graphs differ"), {}, {}, {});
        fitTableWidth();
        return;
    }
    const int devices = std::max(m_a->problem->platform.deviceCount(), m_b->problem->platform.deviceCount());
    std::vector<double> loadA(static_cast<size_t>(devices)), loadB(static_cast<size_t>(devices));
    QStringList moved;
    const Graph& g = m_a->problem->g();
    for (size_t v = 0; v < a.ops.size(); ++v) {
        loadA[static_cast<size_t>(a.ops[v].device)] += a.ops[v].end - a.ops[v].start;
        loadB[static_cast<size_t>(b.ops[v].device)] += b.ops[v].end - b.ops[v].start;
        if (a.ops[v].device != b.ops[v].device) {
            ++m_moved;
            if (moved.size() < kMovedNamesTip) moved << QString::fromStdString(g.op(static_cast<OpId>(v)).name);
        }
    }
    for (int d = 0; d < devices; ++d) {
        const double la = loadA[static_cast<size_t>(d)], lb = loadB[static_cast<size_t>(d)];
        addRow(tr("Busy time, device %1").arg(d), time(la), time(lb), delta(la, lb, time));
    }
    addRow(tr("Ops that moved device"), {}, {}, formatCount(m_moved));
    fitTableWidth();
    if (!moved.isEmpty()) addMovedNamesRow(moved);
}

void CompareView::addMovedNamesRow(const QStringList& names) {
    // one row across every column, cut to its width; the hover shows the names in full
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    const QStringList shown = names.mid(0, kMovedNamesShown);
    auto* item = new QTableWidgetItem(shown.join(QStringLiteral(", ")) +
                                      (m_moved > shown.size() ? QStringLiteral(", …") : QString()));
    const int more = m_moved - static_cast<int>(names.size());
    const QString all =
        names.join(QStringLiteral(", ")) + (more > 0 ? tr(" and %1 more").arg(formatCount(more)) : QString());
    item->setToolTip(
        QStringLiteral("<p>%1</p>")
            .arg(tr("%1 ops moved device: %2").arg(formatCount(m_moved), all.toHtmlEscaped())));   // rich text: wraps
    m_table->setItem(row, 0, item);
    m_table->setSpan(row, 0, 1, m_table->columnCount());
}

}   // namespace sl::gui

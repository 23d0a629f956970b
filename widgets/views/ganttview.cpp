// SPDX-License-Identifier: MIT
#include "widgets/views/ganttview.h"

#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleedits.h"
#include "widgets/session/units.h"
#include "widgets/views/opselection.h"
#include "widgets/views/palette.h"
#include "widgets/views/pinglyph.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace sl::gui {
namespace {
constexpr int kLabelWidth = 96;
constexpr int kAxisHeight = 26;
constexpr double kMaxLaneHeight = 80;
}   // namespace

GanttView::GanttView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setToolTip({});
}

void GanttView::setRecord(const std::optional<RunRecord>& r) {
    // Another schedule of the same graph while zoomed in (an edit, say): the view stays where it is.
    const bool keepView =
        !m_fitted && m_record && r && m_record->problem && r->problem && m_record->problem->graph == r->problem->graph;
    m_record = r;
    rebuild();
    if (keepView)
        update();
    else
        fit();
}

void GanttView::setSelection(OpSelection* selection) {
    if (m_selection) disconnect(m_selection, nullptr, this, nullptr);
    m_selection = selection;
    if (selection) {
        connect(selection, &OpSelection::currentChanged, this, qOverload<>(&QWidget::update));
        connect(selection, &OpSelection::hoveredChanged, this, qOverload<>(&QWidget::update));
    }
}

void GanttView::setColourBy(ColourBy c) {
    m_colourBy = c;
    update();
}

GanttView::ColourBy GanttView::shownColouring() const {
    if (m_colourBy == ColourBy::Auto)
        return isJobShop() ? ColourBy::Job : ColourBy::Device;   // a lane already says its device
    if (m_colourBy == ColourBy::Job && !isJobShop()) return ColourBy::Device;
    return m_colourBy;
}

void GanttView::setShowTransfers(bool on) {
    m_showTransfers = on;
    update();
}

void GanttView::rebuild() {
    m_lanes.clear();
    m_laneOf.clear();
    m_subOf.clear();
    m_critical.clear();
    m_jobSteps.clear();
    m_jobs = 0;
    if (!m_record || !m_record->result) return;
    m_jobSteps = jobStepsOf(m_record->problem->g());
    for (const JobStep& s : m_jobSteps) m_jobs = std::max(m_jobs, s.job + 1);
    const Schedule& s = m_record->schedule();
    const int devices = m_record->problem->platform.deviceCount();
    m_lanes.resize(static_cast<size_t>(std::max(1, devices)));
    const int n = static_cast<int>(s.ops.size());
    m_laneOf.assign(static_cast<size_t>(n), 0);
    m_subOf.assign(static_cast<size_t>(n), 0);
    for (OpId v = 0; v < n; ++v) {
        const auto& so = s.ops[static_cast<size_t>(v)];
        const int d = std::clamp(so.device, 0, static_cast<int>(m_lanes.size()) - 1);
        m_laneOf[static_cast<size_t>(v)] = d;
        m_lanes[static_cast<size_t>(d)].bars.push_back({v, so.start, so.end, 0});
    }
    for (auto& lane : m_lanes) {
        std::sort(lane.bars.begin(), lane.bars.end(),
                  [](const Bar& a, const Bar& b) { return a.start < b.start || (a.start == b.start && a.op < b.op); });
        // greedy interval colouring: a multi-slot device gets as many sub-rows as ops overlap
        std::vector<double> rowEnd;
        for (auto& b : lane.bars) {
            int row = -1;
            for (size_t i = 0; i < rowEnd.size(); ++i)
                if (rowEnd[i] <= b.start + 1e-12) {
                    row = static_cast<int>(i);
                    break;
                }
            if (row < 0) {
                row = static_cast<int>(rowEnd.size());
                rowEnd.push_back(0);
            }
            rowEnd[static_cast<size_t>(row)] = b.end;
            b.sub = row;
            m_subOf[static_cast<size_t>(b.op)] = row;
            lane.longest = std::max(lane.longest, b.end - b.start);
            lane.busy += b.end - b.start;
        }
        lane.subRows = std::max<int>(1, static_cast<int>(rowEnd.size()));
    }
    m_critical.assign(static_cast<size_t>(n), 0);
    for (OpId v : m_record->criticalPath) m_critical[static_cast<size_t>(v)] = 1;
}

int GanttView::barCount() const {
    int n = 0;
    for (const auto& l : m_lanes) n += static_cast<int>(l.bars.size());
    return n;
}

void GanttView::fit() {
    const double end = m_record && m_record->result ? std::max(1e-9, m_record->schedule().makespan) : 1.0;
    m_fitted = true;
    m_map.t0 = 0;
    m_map.t1 = end * 1.02;
    updatePlotGeometry();
    update();
    emitRange();
}

void GanttView::setTimeRange(double t0, double t1) {
    if (!(t1 > t0)) return;
    m_fitted = false;
    m_map.t0 = t0;
    m_map.t1 = t1;
    update();
}

void GanttView::emitRange() { Q_EMIT timeRangeChanged(m_map.t0, m_map.t1); }

void GanttView::updatePlotGeometry() {
    m_map.x0 = kLabelWidth;
    m_map.width = std::max(10, width() - kLabelWidth - 8);
}

void GanttView::resizeEvent(QResizeEvent*) { updatePlotGeometry(); }

QRectF GanttView::laneRect(int lane) const {
    // lanes share the height in proportion to their sub-rows, up to a comfortable maximum
    double total = 0;
    for (const auto& l : m_lanes) total += l.subRows;
    const double unit = std::min(kMaxLaneHeight, (height() - kAxisHeight - 4) / std::max(1.0, total));
    double y = kAxisHeight;
    for (int i = 0; i < lane; ++i) y += unit * m_lanes[static_cast<size_t>(i)].subRows;
    const int rows = m_lanes.empty() ? 1 : m_lanes[static_cast<size_t>(lane)].subRows;
    return {0, y, static_cast<double>(width()), unit * rows};
}

QColor GanttView::barColour(OpId v) const {
    switch (shownColouring()) {
    case ColourBy::OpType: return palette::forName(QString::fromStdString(m_record->problem->g().op(v).type));
    case ColourBy::Job: return palette::distinct(m_jobSteps[static_cast<size_t>(v)].job, m_jobs);
    default: return palette::category(m_laneOf[static_cast<size_t>(v)]);
    }
}

QString GanttView::barText(OpId v) const {
    // a job-shop op's type is its machine, which the lane already says: the bar says job and step
    if (isJobShop()) return jobStepLabel(m_jobSteps[static_cast<size_t>(v)]);
    return barLabel(m_record->problem->g().op(v));
}

QString GanttView::jobStepLabel(JobStep s) { return QStringLiteral("J%1·%2").arg(s.job).arg(s.step); }

QRectF GanttView::barRect(OpId v) const {
    if (!m_record || v < 0 || v >= static_cast<int>(m_laneOf.size())) return {};
    const auto& so = m_record->schedule().ops[static_cast<size_t>(v)];
    const int lane = m_laneOf[static_cast<size_t>(v)];
    const QRectF lr = laneRect(lane);
    const double rowH = lr.height() / m_lanes[static_cast<size_t>(lane)].subRows;
    const double x0 = m_map.toX(so.start), x1 = std::max(x0 + 1, m_map.toX(so.end));
    return {x0, lr.top() + rowH * m_subOf[static_cast<size_t>(v)] + 3, x1 - x0, std::max(2.0, rowH - 6)};
}

OpId GanttView::opAt(QPointF pos) const {
    if (!m_record || pos.x() < kLabelWidth) return kNoOp;
    for (size_t lane = 0; lane < m_lanes.size(); ++lane) {
        const QRectF lr = laneRect(static_cast<int>(lane));
        if (pos.y() < lr.top() || pos.y() >= lr.bottom()) continue;
        const double t = m_map.toTime(pos.x());
        const double slop = 2 / m_map.scale();   // 2 px of grace for thin bars
        const auto& bars = m_lanes[lane].bars;
        auto it = std::lower_bound(bars.begin(), bars.end(), t - m_lanes[lane].longest - slop,
                                   [](const Bar& b, double x) { return b.start < x; });
        for (; it != bars.end() && it->start <= t + slop; ++it)
            if (it->end >= t - slop && barRect(it->op).adjusted(-2, 0, 2, 0).contains(pos)) return it->op;
    }
    return kNoOp;
}

void GanttView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_record) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Run an optimizer, or select a result, to see its schedule"));
        return;
    }
    const Axis ax = axis();
    m_drawnLabels.clear();
    for (size_t lane = 0; lane < m_lanes.size(); ++lane) paintLane(p, static_cast<int>(lane), ax);
    if (m_showTransfers) paintTransfers(p);
    paintAxis(p, ax);
    paintDrop(p);
    // selected op: a guide line through all lanes at its start
    const OpId sel = m_selection ? m_selection->current() : kNoOp;
    if (sel >= 0 && sel < static_cast<int>(m_laneOf.size())) {
        const QRectF r = barRect(sel);
        p.setPen(QPen(palette::accent(), 1, Qt::DashLine));
        p.drawLine(QPointF(r.left(), kAxisHeight), QPointF(r.left(), height()));
        p.setPen(QPen(palette::accent(), 2.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r.adjusted(-1.5, -1.5, 1.5, 1.5));
    }
}

TimeUnit GanttView::timeUnit() const {
    return m_record && m_record->problem ? m_record->problem->g().timeUnit() : TimeUnit::Abstract;
}

GanttView::Axis GanttView::axis() const {
    // one scale for the whole axis, picked by the larger end; as many ticks as labels of that width fit
    Axis a;
    a.scale = timeScaleFor(std::max(std::abs(m_map.t0), std::abs(m_map.t1)), timeUnit());
    const QFontMetrics fm(font());
    int labelWidth = fm.horizontalAdvance(QStringLiteral("00 ") + a.scale.suffix);
    for (int pass = 0; pass < 2; ++pass) {   // the second pass sizes by the real labels' decimals
        a.ticks = niceTicks(m_map.t0, m_map.t1, std::max(2, static_cast<int>(m_map.width / (labelWidth + 24))));
        a.step = a.ticks.size() >= 2 ? a.ticks[1] - a.ticks[0] : m_map.t1 - m_map.t0;
        labelWidth = fm.horizontalAdvance(formatTick(m_map.t1, a.scale, a.step));
    }
    return a;
}

QString GanttView::tickLabel(double t) const {
    const Axis a = axis();
    return formatTick(t, a.scale, a.step);
}

QString GanttView::barLabel(const Op& op) {
    const QString type = QString::fromStdString(op.type), name = QString::fromStdString(op.name);
    if (type.isEmpty() || name == type) return name;
    if (name.isEmpty() || name.startsWith(type + QLatin1Char('_')))
        return type;   // "Conv_6": the importer's name for an unnamed node
    return type + QLatin1Char(' ') + name;
}

void GanttView::paintAxis(QPainter& p, const Axis& axis) {
    m_drawnTicks.clear();
    p.fillRect(QRectF(0, 0, width(), kAxisHeight), palette().window());
    p.setPen(palette().color(QPalette::Mid));
    p.drawLine(QPointF(0, kAxisHeight - 0.5), QPointF(width(), kAxisHeight - 0.5));
    const QFontMetrics fm(font());
    p.setPen(palette().color(QPalette::Text));
    const double legendLeft =
        m_record->criticalPath.empty() ? width() : width() - fm.horizontalAdvance(tr("critical path")) - 34;
    double lastRight = -1e9;   // a label that would touch the previous one is left out: ticks never collide
    for (double t : axis.ticks) {
        const double x = m_map.toX(t);
        const QString label = formatTick(t, axis.scale, axis.step);
        if (x < kLabelWidth - 1 || x + fm.horizontalAdvance(label) / 2.0 + 4 > legendLeft) continue;
        p.drawLine(QPointF(x, kAxisHeight - 6), QPointF(x, kAxisHeight - 1));
        const double half = fm.horizontalAdvance(label) / 2.0 + 2;
        const double left = std::max<double>(kLabelWidth + 2, x - half);   // never under the label column
        if (left < lastRight + 6) continue;
        p.drawText(QRectF(left, 2, 2 * half, kAxisHeight - 8), Qt::AlignHCenter | Qt::AlignVCenter, label);
        lastRight = left + 2 * half;
        m_drawnTicks.push_back({left, lastRight});
    }
    p.fillRect(QRectF(0, 0, kLabelWidth, kAxisHeight), palette().window());
    p.drawText(QRectF(6, 2, kLabelWidth - 8, kAxisHeight - 6), Qt::AlignLeft | Qt::AlignVCenter, tr("time"));
    if (!m_record->criticalPath.empty()) {   // legend for the red stripe, in the axis' top-right corner
        const QString legend = tr("critical path");
        const double w = fm.horizontalAdvance(legend) + 26;
        const QRectF box(width() - w - 8, 0, w + 8, kAxisHeight - 1);
        p.fillRect(box, palette().window());
        p.fillRect(QRectF(box.left() + 4, kAxisHeight / 2.0 - 2, 14, 4), palette::accent());
        p.drawText(box.adjusted(22, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, legend);
    }
}

namespace {

/// A run of bars thinner than a pixel, painted as one rectangle (zoomed out, 100k bars become a few
/// hundred bands). It never reaches past its last bar's end, so the chart ends at the makespan.
struct Band {
    double x0 = 0, x1 = -1;
    QColor colour;
    bool open() const { return x1 >= x0; }
};

}   // namespace

void GanttView::paintLane(QPainter& p, int laneIndex, const Axis& axis) {
    const Lane& lane = m_lanes[static_cast<size_t>(laneIndex)];
    const QRectF lr = laneRect(laneIndex);
    p.fillRect(lr, palette::laneBackground(laneIndex));
    // vertical grid under the bars
    p.setPen(palette::gridLine());
    const QFontMetrics fm(font());
    for (double t : axis.ticks) {
        const double x = m_map.toX(t);
        if (x >= kLabelWidth) p.drawLine(QPointF(x, lr.top()), QPointF(x, lr.bottom()));
    }
    const double rowH = lr.height() / lane.subRows;
    const double barH = std::max(2.0, rowH - 6);
    const double tMin = m_map.toTime(kLabelWidth), tMax = m_map.toTime(width());
    auto it = std::lower_bound(lane.bars.begin(), lane.bars.end(), tMin - lane.longest,
                               [](const Bar& b, double x) { return b.start < x; });
    std::vector<Band> bands(static_cast<size_t>(lane.subRows)), criticalBands(static_cast<size_t>(lane.subRows));
    auto top = [&](int sub) { return lr.top() + rowH * sub + 3; };
    auto flush = [&](Band& b, int sub) {
        if (b.open()) p.fillRect(QRectF(b.x0, top(sub), std::max(1.0, b.x1 - b.x0), barH), b.colour);
        b.x1 = b.x0 - 1;
    };
    auto flushStripe = [&](Band& b, int sub) {
        if (b.open()) p.fillRect(QRectF(b.x0, top(sub) + barH - 4, std::max(1.0, b.x1 - b.x0), 4), palette::accent());
        b.x1 = b.x0 - 1;
    };
    // extends the band with [x0, x1] when it touches (within a pixel), else paints it and starts anew
    auto extend = [](Band& b, double x0, double x1, auto&& flushIt, auto&& colour) {
        if (b.open() && x0 <= b.x1 + 1) {
            b.x1 = std::max(b.x1, x1);
            return;
        }
        flushIt();
        b = {x0, x1, colour()};
    };
    const OpId hovered = m_selection ? m_selection->hovered() : kNoOp;
    p.save();
    p.setClipRect(QRectF(kLabelWidth, lr.top(), width() - kLabelWidth, lr.height()));
    for (; it != lane.bars.end() && it->start <= tMax; ++it) {
        if (it->end < tMin) continue;
        const double x0 = m_map.toX(it->start), x1 = m_map.toX(it->end);
        Band& band = bands[static_cast<size_t>(it->sub)];
        const bool critical = m_critical[static_cast<size_t>(it->op)];
        if (x1 - x0 < 1) {   // thinner than a pixel: part of a band
            extend(
                band, x0, x1, [&] { flush(band, it->sub); }, [&] { return barColour(it->op); });
            if (critical) {
                Band& stripe = criticalBands[static_cast<size_t>(it->sub)];
                extend(
                    stripe, x0, x1, [&] { flushStripe(stripe, it->sub); }, [] { return QColor(); });
            }
            continue;
        }
        flush(band, it->sub);
        const QRectF r(x0, top(it->sub), x1 - x0, barH);
        QColor fill = barColour(it->op);
        if (it->op == hovered) fill = fill.lighter(120);
        p.fillRect(r, fill);
        if (critical) p.fillRect(QRectF(r.left(), r.bottom() - 4, r.width(), 4), palette::accent());
        if (r.width() > 8) {
            p.setPen(fill.darker(135));
            p.drawRect(r.adjusted(0, 0, -1, -1));
        }
        if (r.width() > 40 && r.height() >= fm.height()) {
            m_drawnLabels.push_back(barText(it->op));
            p.setPen(palette::textOn(fill));
            p.drawText(r.adjusted(4, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       fm.elidedText(m_drawnLabels.back(), Qt::ElideRight, static_cast<int>(r.width() - 7)));
        }
        if (m_edits && m_edits->pins().pinned(it->op))
            paintPin(p, r.topLeft() + QPointF(5, 5), 3.5, m_edits->pins().of(it->op));
    }
    for (int sub = 0; sub < lane.subRows; ++sub) {
        flush(bands[static_cast<size_t>(sub)], sub);
        flushStripe(criticalBands[static_cast<size_t>(sub)], sub);
    }
    p.restore();
    paintLaneLabel(p, laneIndex, lr);
    p.setPen(palette::gridLine());
    p.drawLine(QPointF(0, lr.bottom() - 0.5), QPointF(width(), lr.bottom() - 0.5));
}

void GanttView::paintLaneLabel(QPainter& p, int laneIndex, const QRectF& lr) {
    const QRectF label(0, lr.top(), kLabelWidth, lr.height());
    p.fillRect(label, palette().window());
    // the device's colour key, unless bars are coloured by job: then it would read as a job's
    const QColor key =
        shownColouring() == ColourBy::Job ? palette().color(QPalette::Mid) : palette::category(laneIndex);
    p.fillRect(QRectF(0, lr.top() + 2, 4, lr.height() - 4), key);
    p.setPen(palette().color(QPalette::WindowText));
    const auto& devices = m_record->problem->platform.devices;
    const QString name = laneIndex < static_cast<int>(devices.size())
        ? QString::fromStdString(devices[static_cast<size_t>(laneIndex)].name)
        : QString::number(laneIndex);
    p.drawText(label.adjusted(10, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft,
               QFontMetrics(font()).elidedText(name, Qt::ElideRight, kLabelWidth - 14));
}

void GanttView::paintTransfers(QPainter& p) {
    const auto& transfers = m_record->schedule().transfers;
    if (transfers.empty() || transfers.size() > 5000) return;
    p.save();
    p.setClipRect(QRectF(kLabelWidth, kAxisHeight, width() - kLabelWidth, height() - kAxisHeight));
    p.setRenderHint(QPainter::Antialiasing);
    p.setPen(QPen(QColor(60, 60, 60, 110), 1));
    const double tMin = m_map.toTime(kLabelWidth), tMax = m_map.toTime(width());
    for (const auto& t : transfers) {
        if (t.end <= t.start || t.end < tMin || t.start > tMax) continue;   // free links: nothing to show
        if (t.from < 0 || t.to < 0 || t.from >= static_cast<int>(m_lanes.size()) ||
            t.to >= static_cast<int>(m_lanes.size()))
            continue;
        const QRectF a = laneRect(t.from), b = laneRect(t.to);
        const QPointF from(m_map.toX(t.start), t.from < t.to ? a.bottom() - 2 : a.top() + 2);
        const QPointF to(m_map.toX(t.end), t.from < t.to ? b.top() + 2 : b.bottom() - 2);
        p.drawLine(from, to);
    }
    p.restore();
}

void GanttView::wheelEvent(QWheelEvent* e) {
    if (!m_record) return;
    const double steps = e->angleDelta().y() / 120.0;
    if (e->modifiers() & Qt::ShiftModifier) {
        m_map.panPixels(steps * 60);
    } else {
        m_map.zoomAt(std::max<double>(kLabelWidth, e->position().x()), std::pow(1.25, steps));
    }
    m_fitted = false;
    update();
    emitRange();
    e->accept();
}

void GanttView::mousePressEvent(QMouseEvent* e) {
    const OpId v = e->button() == Qt::LeftButton && m_edits ? opAt(e->position()) : kNoOp;
    if (v != kNoOp) {   // a bar: dragging it moves the op (ganttedit.cpp)
        m_opDrag = OpDrag{.op = v, .from = e->position(), .at = e->position()};
        return;
    }
    m_dragFrom = e->position();
    m_dragged = false;
}

void GanttView::mouseMoveEvent(QMouseEvent* e) {
    if (m_opDrag && (e->buttons() & Qt::LeftButton)) {
        dragOpTo(e->position());
        return;
    }
    if (m_dragFrom && (e->buttons() & Qt::LeftButton)) {
        const double dx = e->position().x() - m_dragFrom->x();
        if (std::abs(dx) > 2 || m_dragged) {
            m_dragged = true;
            m_map.panPixels(dx);
            m_dragFrom = e->position();
            m_fitted = false;
            update();
            emitRange();
        }
        return;
    }
    const OpId v = opAt(e->position());
    if (m_selection) m_selection->setHovered(v);
    if (v == kNoOp) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(e->globalPosition().toPoint(), tooltipFor(v), this);
}

QString GanttView::tooltipFor(OpId v) const {
    const Op& op = m_record->problem->g().op(v);
    const auto& so = m_record->schedule().ops[static_cast<size_t>(v)];
    const TimeScale scale = timeScaleFor(so.end, timeUnit());   // start and end read in one scale
    const auto& devices = m_record->problem->platform.devices;
    const QString device = so.device >= 0 && so.device < static_cast<int>(devices.size())
        ? QString::fromStdString(devices[static_cast<size_t>(so.device)].name)
        : QString::number(so.device);
    return tr("<b>%1</b><br>type %2<br>device %3<br>start %4, end %5 (duration %6)<br>outputs %7%8")
        .arg(QString::fromStdString(op.name).toHtmlEscaped(), QString::fromStdString(op.type).toHtmlEscaped(),
             device.toHtmlEscaped())
        .arg(formatScaled(so.start, scale), formatScaled(so.end, scale), formatDuration(so.end - so.start, timeUnit()),
             formatBytes(m_record->problem->g().outputBytes(v)),
             m_critical[static_cast<size_t>(v)] ? tr("<br><i>on the critical path</i>") : QString());
}

void GanttView::mouseReleaseEvent(QMouseEvent* e) {
    if (m_opDrag) {
        const bool moved = m_opDrag->moving;
        if (moved)
            dropOp();
        else if (m_selection)
            m_selection->setCurrent(m_opDrag->op);
        m_opDrag.reset();
        unsetCursor();
        update();
        return;
    }
    if (!m_dragged && m_selection) m_selection->setCurrent(opAt(e->position()));
    m_dragFrom.reset();
    m_dragged = false;
}

void GanttView::mouseDoubleClickEvent(QMouseEvent*) { fit(); }

void GanttView::leaveEvent(QEvent*) {
    if (m_selection) m_selection->setHovered(kNoOp);
}

void GanttView::observe(const Document* doc) {
    connect(doc, &Document::shownChanged, this, [this, doc] { setRecord(doc->shown()); });
    connect(doc, &Document::pinsChanged, this, qOverload<>(&QWidget::update));
}

}   // namespace sl::gui

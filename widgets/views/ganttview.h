// SPDX-License-Identifier: MIT
#pragma once
// The hand-painted Gantt chart: one lane per device (split into sub-rows where ops overlap on a
// multi-slot device), ops as bars coloured by device or op type, transfers, the critical path, a
// time axis with zoom (wheel) and pan (drag), hover details. Paints only what is visible, and
// merges bars thinner than a pixel into bands, so 100k bars stay fluid.
#include "widgets/session/timemapping.h"
#include "widgets/session/types.h"
#include "widgets/session/units.h"

#include "core/edit/scheduleeditor.h"
#include "core/graph/jobshopnames.h"

#include <QPointer>
#include <QWidget>

#include <optional>

namespace sl::gui {

class Document;

class OpSelection;
class ScheduleEdits;

class GanttView : public QWidget {
    Q_OBJECT
public:
    /// Auto: by job on a job-shop (every op named j<job>_o<k>), else by device. Job on another
    /// graph colours by device.
    enum class ColourBy { Auto, Device, OpType, Job };
    explicit GanttView(QWidget* parent = nullptr);

    void setRecord(const std::optional<RunRecord>& r);
    /// Draws `doc`'s schedule on show, following its changes.
    void observe(const Document* doc);
    const std::optional<RunRecord>& record() const { return m_record; }
    void setSelection(OpSelection* selection);
    /// Dragging a bar moves its op (through `edits`: a preview while dragging, the edit on the
    /// drop); without it, or on the background, a drag pans.
    void setEdits(ScheduleEdits* edits);
    /// Where dropping op `v` at `pos` puts it: the lane under the cursor and, in it, after the ops
    /// whose middle is left of the cursor. Empty outside the lanes.
    std::optional<OpPlace> placeAt(OpId v, QPointF pos) const;
    /// A point where dropping op `v` gives `to` (inverse of placeAt): on the lane, between the
    /// ops that will run before and after it. For tests and scripted screenshots.
    QPointF dropPoint(OpId v, OpPlace to) const;
    /// What the last refused drop said (empty after an accepted one).
    const QString& lastRefusal() const { return m_lastRefusal; }
    /// The drag's read-out while an op is dragged: "makespan 61 units → 58 units (−3 units,
    /// −4.9 %) · peak …", or why the drop would be refused. Empty when no op is dragged.
    QString dragText() const;
    void setColourBy(ColourBy c);
    ColourBy shownColouring() const;   ///< what the bars are coloured by now (never Auto)
    bool isJobShop() const { return !m_jobSteps.empty(); }
    void setShowTransfers(bool on);
    /// Fixes the visible time range (the compare view puts two charts on one axis).
    void setTimeRange(double t0, double t1);
    void fit();
    const TimeMapping& mapping() const { return m_map; }

    int barCount() const;
    /// Where op `v` is painted (widget coordinates), empty if not shown.
    QRectF barRect(OpId v) const;
    OpId opAt(QPointF pos) const;
    /// The hover text of op `v`: start, end and duration in the graph's time unit.
    QString tooltipFor(OpId v) const;
    /// Op `v`'s fill and its text: "J3·2" (job, step) on a job-shop, else barLabel().
    QColor barColour(OpId v) const;
    QString barText(OpId v) const;
    /// A job-shop bar's text for job `s.job`, step `s.step`: "J3·2".
    static QString jobStepLabel(JobStep s);
    /// The bar texts of the last paint, before eliding (tests: what the bars say).
    const std::vector<QString>& drawnLabels() const { return m_drawnLabels; }
    /// The axis label at time `t`, as painted ("10 ms").
    QString tickLabel(double t) const;
    /// The time labels of the last paint, as [left, right] in pixels, left to right (tests: they never overlap).
    const std::vector<std::pair<double, double>>& drawnTicks() const { return m_drawnTicks; }
    /// A bar's text: the op type, then its name when it has one of its own ("Conv conv1/7x7_s2"),
    /// so that an unnamed node still says what it is.
    static QString barLabel(const Op& op);

    QSize sizeHint() const override { return {800, 300}; }
    QSize minimumSizeHint() const override { return {200, 80}; }

Q_SIGNALS:
    void timeRangeChanged(double t0, double t1);

protected:
    void paintEvent(QPaintEvent*) override;
    void resizeEvent(QResizeEvent*) override;
    void wheelEvent(QWheelEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mouseReleaseEvent(QMouseEvent*) override;
    void mouseDoubleClickEvent(QMouseEvent*) override;
    void leaveEvent(QEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    void contextMenuEvent(QContextMenuEvent*) override;

private:
    struct Bar {
        OpId op;
        double start, end;
        int sub;
    };
    struct Lane {
        std::vector<Bar> bars;   // by start
        int subRows = 1;
        double longest = 0;
        double busy = 0;
    };
    struct Axis {
        TimeScale scale;
        std::vector<double> ticks;
        double step = 1;
    };
    void rebuild();
    TimeUnit timeUnit() const;
    Axis axis() const;
    void updatePlotGeometry();
    QRectF laneRect(int lane) const;
    void paintAxis(QPainter& p, const Axis& axis);
    std::vector<std::pair<double, double>> m_drawnTicks;
    void paintLane(QPainter& p, int lane, const Axis& axis);
    void paintLaneLabel(QPainter& p, int lane, const QRectF& laneRect);
    std::vector<QString> m_drawnLabels;
    void paintTransfers(QPainter& p);
    void paintDrop(QPainter& p);
    void dragOpTo(QPointF pos);
    void dropOp();
    void emitRange();

    std::optional<RunRecord> m_record;
    QPointer<OpSelection> m_selection;
    std::vector<Lane> m_lanes;
    std::vector<int> m_laneOf;         // per op
    std::vector<int> m_subOf;          // per op
    std::vector<char> m_critical;      // per op
    std::vector<JobStep> m_jobSteps;   // per op on a job-shop, else empty
    int m_jobs = 0;
    TimeMapping m_map;
    ColourBy m_colourBy = ColourBy::Auto;
    bool m_showTransfers = true;
    bool m_fitted = true;
    std::optional<QPointF> m_dragFrom;
    bool m_dragged = false;
    /// An op being dragged to another place (ScheduleEdits): its preview at the place under the cursor.
    struct OpDrag {
        OpId op = kNoOp;
        QPointF from, at;
        bool moving = false;
        std::optional<OpPlace> place;
        EditOutcome outcome;
    };
    QPointer<ScheduleEdits> m_edits;
    std::optional<OpDrag> m_opDrag;
    QString m_lastRefusal;
};

}   // namespace sl::gui

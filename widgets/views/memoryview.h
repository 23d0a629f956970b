// SPDX-License-Identifier: MIT
#pragma once
// Memory over time per device (Qt Charts), the peak marked, the capacity line, and the tensors
// live at the peak listed beside the chart (click one to select its producer). The time axis zooms
// and pans like the Gantt chart; hovering reads out the time and each device's memory.
#include "widgets/session/types.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QChart;
class QComboBox;
class QLineSeries;
class QListWidget;
class QLabel;

namespace sl::gui {

class Document;
class ScheduleEdits;

class OpSelection;
class TimeChartView;

class MemoryView : public QWidget {
    Q_OBJECT
public:
    explicit MemoryView(QWidget* parent = nullptr);
    void setRecord(const std::optional<RunRecord>& r);
    /// Draws the memory of `doc`'s schedule on show, following its changes.
    void observe(const Document* doc);
    void setSelection(OpSelection* s);
    int seriesCount() const;
    int liveAtPeakCount() const;
    QWidget* canvas() const;
    TimeChartView* chartView() const { return m_chartView; }
    /// What the read-out above the chart says (the time under the mouse, memory per device).
    QString readout() const;

    /// false: time clock per device; true: the papers' step clock of the order on one device
    void setStepClock(bool on);
    /// On the step clock of a one-device schedule, dragging along the curve moves the op of the
    /// step pressed to the step released (through `edits`: the curve after the move is previewed
    /// dashed, then the edit is made; memorydrag.cpp).
    void setEdits(ScheduleEdits* edits);
    /// The op at step `step` of the shown order moved to step `to` (what a drag does).
    bool moveStep(int step, int to);
    /// The step under a viewport point of the chart (clamped to the order), or -1.
    int stepAt(QPoint viewportPos) const;
    /// A viewport point over step `step` (for tests).
    QPoint stepPoint(int step) const;
    int previewPointCount() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void rebuildSteps();
    void resetChart();
    void markSelected(OpId v);
    void showWindow(double t0, double t1);
    void showReadout(double t);
    bool stepDragAllowed() const;
    void previewStep(int to);
    QList<QPointF> stepCurve(const std::vector<OpId>& order) const;

    std::optional<RunRecord> m_record;
    QPointer<OpSelection> m_selection;
    QChart* m_chart;
    TimeChartView* m_chartView;
    QLabel* m_readout;
    QLineSeries* m_marker = nullptr;
    QListWidget* m_live;
    QLabel* m_liveTitle;
    QComboBox* m_clock;
    QPointer<ScheduleEdits> m_edits;
    QLineSeries* m_stepPreview = nullptr;   // the step curve after the dragged move (dashed)
    struct StepDrag {
        int from = 0, to = 0;
    };
    std::optional<StepDrag> m_stepDrag;
    double m_divisor = 1;
    double m_yMax = 1;
};

}   // namespace sl::gui

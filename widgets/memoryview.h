// SPDX-License-Identifier: MIT
#pragma once
// Memory over time per device (Qt Charts), the peak marked, the capacity line, and the tensors
// live at the peak listed beside the chart (click one to select its producer). The time axis zooms
// and pans like the Gantt chart; hovering reads out the time and each device's memory.
#include "widgets/types.h"

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

private:
    void rebuild();
    void rebuildSteps();
    void resetChart();
    void markSelected(OpId v);
    void showWindow(double t0, double t1);
    void showReadout(double t);

    std::optional<RunRecord> m_record;
    QPointer<OpSelection> m_selection;
    QChart* m_chart;
    TimeChartView* m_chartView;
    QLabel* m_readout;
    QLineSeries* m_marker = nullptr;
    QListWidget* m_live;
    QLabel* m_liveTitle;
    QComboBox* m_clock;
    double m_divisor = 1;
    double m_yMax = 1;
};

} // namespace sl::gui

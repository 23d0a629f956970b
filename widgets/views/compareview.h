// SPDX-License-Identifier: MIT
#pragma once
// Two schedules side by side: both Gantt charts and their memory on one time axis (zooming one
// zooms all), and a table of differences (makespan, peak, per-device load, ops that moved device).
#include "widgets/session/types.h"

#include <QWidget>

#include <optional>

class QChart;
class QLabel;
class QTableWidget;

namespace sl::gui {

class GanttView;
class OpSelection;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget* parent = nullptr);
    void setRecords(const std::optional<RunRecord>& a, const std::optional<RunRecord>& b);
    void setSelection(OpSelection* s);
    /// A sentence in place of the comparison: why nothing is compared (one result selected, two of
    /// different graphs). Empty hides it. setRecords() resets it to the plain hint.
    void setNotice(const QString& text);
    QString notice() const;
    bool comparing() const { return m_a.has_value() && m_b.has_value(); }
    int movedOps() const { return m_moved; }
    QTableWidget* table() const { return m_table; }

private:
    void rebuildTable();
    void fitTableWidth();
    void addMovedNamesRow(const QStringList& names);   ///< the first names of the moved ops, the rest on hover
    void rebuildMemory();
    void syncRange(double t0, double t1);

    std::optional<RunRecord> m_a, m_b;
    GanttView* m_ganttA;
    GanttView* m_ganttB;
    QLabel* m_titleA;
    QLabel* m_titleB;
    QLabel* m_notice;
    QChart* m_memory;
    QTableWidget* m_table;
    int m_moved = 0;
    bool m_syncing = false;
};

}   // namespace sl::gui

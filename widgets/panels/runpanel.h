// SPDX-License-Identifier: MIT
#pragma once
// Method choice with option widgets generated from the method's OptionSpecs, Run / Cancel, and one
// progress row per active run (best cost so far, time left). Methods not built for the objective
// (set from the Platform panel) stay listed but disabled.
#include "core/optimizer/optimizer.h"

#include <QWidget>

#include <map>

class QComboBox;
class QFormLayout;
class QLineEdit;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace sl::gui {

class Document;

class RunJob;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);
    void reloadMethods();   ///< re-reads the optimizer registry
    QString method() const;
    bool setMethod(const QString& name);
    /// The objective chosen in the Platform panel: only the methods that declare it can run.
    void setObjective(Objective objective);
    /// The platform's device count: a method whose shipped weights need another count cannot run.
    void setDeviceCount(int devices);
    /// Run stays disabled (its tooltip says why) until a graph is open.
    void setGraphOpen(bool open);
    /// Follows `doc`: runs need an open graph, and their options depend on its objective.
    void observe(const Document* doc);
    /// Empty when method `name` is registered, declares the current objective and fits the
    /// platform's device count, else a sentence saying why it cannot run and what to change.
    QString unavailableReason(const QString& name) const;
    /// Current values of the generic and the method's own options.
    RunOptions options() const;
    /// Sets an option by its CLI key ("seed", "budget", "population", ...); false if unknown.
    bool setOption(const QString& key, const QString& value);
    /// A progress row for `job`; its best cost reads in the unit of the job's objective and graph.
    void addJob(RunJob* job);
    int activeJobs() const;
    void saveSettings() const;
    void restoreSettings();

Q_SIGNALS:
    void runRequested();
    void cancelRequested();

private:
    void rebuildOptions();
    void addWeightsRow(const QString& kept);
    void updateButtons();
    void updateAvailability();
    bool m_graphOpen = false;

    QComboBox* m_method;
    QLabel* m_summary;
    QFormLayout* m_form;
    QLineEdit* m_weights = nullptr;   // neural methods: a weight file instead of the shipped one
    QWidget* m_formHost;
    std::map<std::string, QWidget*> m_fields;   // by option key
    QPushButton* m_run;
    QPushButton* m_cancel;
    QVBoxLayout* m_jobs;
    QLabel* m_idle;
    Objective m_objective = Objective::Makespan;
    int m_deviceCount = 0;     // 0: not known yet (no machine set)
    QString m_pendingMethod;   // remembered, not registered yet (a neural method): chosen once it is
};

}   // namespace sl::gui

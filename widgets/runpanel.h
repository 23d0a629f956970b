// SPDX-License-Identifier: MIT
#pragma once
// Method choice with option widgets generated from the method's OptionSpecs, Run / Cancel, and one
// progress row per active run (best cost so far, time left).
#include "core/optimizer/optimizer.h"

#include <QWidget>

#include <map>

class QComboBox;
class QFormLayout;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace sl::gui {

class RunJob;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunPanel(QWidget* parent = nullptr);
    void reloadMethods();   ///< re-reads the optimizer registry
    QString method() const;
    bool setMethod(const QString& name);
    /// Current values of the generic and the method's own options.
    RunOptions options() const;
    /// Sets an option by its CLI key ("seed", "budget", "population", ...); false if unknown.
    bool setOption(const QString& key, const QString& value);
    void addJob(RunJob* job);
    int activeJobs() const;
    void saveSettings() const;
    void restoreSettings();

Q_SIGNALS:
    void runRequested();
    void cancelRequested();

private:
    void rebuildOptions();
    void updateButtons();

    QComboBox* m_method;
    QLabel* m_summary;
    QFormLayout* m_form;
    QWidget* m_formHost;
    std::map<std::string, QWidget*> m_fields;   // by option key
    QPushButton* m_run;
    QPushButton* m_cancel;
    QVBoxLayout* m_jobs;
    QLabel* m_idle;
};

} // namespace sl::gui

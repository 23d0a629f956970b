// SPDX-License-Identifier: MIT
#pragma once
// One optimizer run on a worker thread (widgets/session/pooltask.h). The worker publishes its
// latest Progress into a shared box; the GUI polls it at ~15 Hz, so a chatty optimizer can never
// flood the event loop. Cancel maps to std::stop_source::request_stop().
#include "widgets/session/pooltask.h"
#include "widgets/session/types.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <memory>

namespace sl::gui {

struct ProgressBox;   // shared between the worker and the GUI thread

class RunJob : public QObject {
    Q_OBJECT
public:
    RunJob(int id, std::shared_ptr<const Problem> problem, QString method, RunOptions options,
           QObject* parent = nullptr);
    ~RunJob() override;

    /// The target the finished schedule is also scored on (RunRecord::targetSpeedup).
    void setTarget(ScoringTarget target) { m_target = std::move(target); }
    void start();
    void cancel();
    bool isRunning() const { return m_task && m_task->isRunning(); }
    int id() const { return m_id; }
    const QString& method() const { return m_method; }
    const Problem& problem() const { return *m_problem; }
    const Progress& lastProgress() const { return m_last; }
    /// Every progress report so far (the convergence curve), in order.
    const std::vector<Progress>& history() const { return m_history; }
    double elapsedSeconds() const { return m_clock.elapsed() / 1000.0; }
    /// The problem's lower bound on the run's cost (costBound()), 0 until the worker has computed it.
    double costBound() const { return m_costBound; }

Q_SIGNALS:
    void progressed(const sl::Progress& p);
    void finished(const sl::gui::RunRecord& record);
    void failed(const QString& message);

private:
    void poll();
    void onFinished(Outcome<RunRecord> outcome);

    int m_id;
    std::shared_ptr<const Problem> m_problem;
    QString m_method;
    RunOptions m_options;
    ScoringTarget m_target;
    std::shared_ptr<ProgressBox> m_box;
    std::shared_ptr<TaskState> m_task;
    QTimer m_poll;
    QElapsedTimer m_clock;
    Progress m_last;
    std::vector<Progress> m_history;
    double m_costBound = 0;
};

}   // namespace sl::gui

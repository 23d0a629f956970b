// SPDX-License-Identifier: MIT
#include "widgets/session/runjob.h"

#include "widgets/session/criticalpath.h"
#include "widgets/session/schedulerecord.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/validator.h"

#include <QThread>
#include <QThreadPool>

#include <mutex>
#include <stop_token>

namespace sl::gui {

namespace {

// runs get their own pool: a third run should start at once (the OS shares the cores), not wait
// behind two long ones in the global pool, which the explorer's short jobs share
QThreadPool& runPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(16);
        return p;
    }();
    return *pool;
}

}   // namespace

struct ProgressBox {
    std::mutex mutex;
    std::vector<Progress> pending;   // reports not yet seen by the GUI
    double costBound = 0;            // once the worker has computed it
    std::stop_source stop;
};

RunJob::RunJob(int id, std::shared_ptr<const Problem> problem, QString method, RunOptions options, QObject* parent)
    : QObject(parent), m_id(id), m_problem(std::move(problem)), m_method(std::move(method)),
      m_options(std::move(options)), m_box(std::make_shared<ProgressBox>()) {
    m_poll.setInterval(66);   // ~15 updates per second
    connect(&m_poll, &QTimer::timeout, this, &RunJob::poll);
}

RunJob::~RunJob() {
    m_box->stop.request_stop();
    if (m_task) m_task->wait();
}

void RunJob::start() {
    auto box = m_box;
    auto problem = m_problem;
    const std::string method = m_method.toStdString();
    const RunOptions options = m_options;
    const int id = m_id;
    const QString qmethod = m_method;
    const ScoringTarget target = m_target;
    m_clock.start();
    auto work = [box, problem, method, options, id, qmethod, target]() -> RunRecord {
        const LowerBounds bounds = lowerBounds(*problem);
        {
            std::lock_guard lock(box->mutex);
            box->costBound = sl::gui::costBound(problem->objective.kind, bounds);   // the convergence plot's line
        }
        auto optimizer = OptimizerRegistry::instance().create(method);
        auto onProgress = [&](const Progress& p) {
            std::lock_guard lock(box->mutex);
            box->pending.push_back(p);
        };
        auto result = std::make_shared<RunResult>(optimizer->run(*problem, options, onProgress, box->stop.get_token()));
        if (result->schedule.method.empty()) result->schedule.method = method;
        requireValidResult(*problem, result->schedule, method);   // the CLI's verdict: an error, not a result
        const QString name = QStringLiteral("%1 #%2%3")
                                 .arg(qmethod)
                                 .arg(id)
                                 .arg(result->cancelled ? QStringLiteral(" (stopped)") : QString());
        return recordOfResult(id, name, qmethod, problem, std::move(result), options, target,
                              bounds);   // off the GUI thread
    };
    m_task = runOnPool(runPool(), this, std::move(work),
                       [this](Outcome<RunRecord> outcome) { onFinished(std::move(outcome)); });
    m_poll.start();
}

void RunJob::cancel() {
    // the optimizer returns the best schedule so far
    m_box->stop.request_stop();
}

void RunJob::poll() {
    Q_ASSERT(QThread::currentThread() == thread());
    std::vector<Progress> fresh;
    {
        std::lock_guard lock(m_box->mutex);
        fresh.swap(m_box->pending);
        m_costBound = m_box->costBound;
    }
    if (fresh.empty()) return;
    m_history.insert(m_history.end(), fresh.begin(), fresh.end());
    m_last = fresh.back();
    Q_EMIT progressed(m_last);
}

void RunJob::onFinished(Outcome<RunRecord> outcome) {
    Q_ASSERT(QThread::currentThread() == thread());
    m_poll.stop();
    poll();
    if (outcome.value)
        Q_EMIT finished(*outcome.value);
    else
        Q_EMIT failed(outcome.error.isEmpty() ? tr("%1 was cancelled before it produced a schedule").arg(m_method)
                                              : outcome.error);
}

}   // namespace sl::gui

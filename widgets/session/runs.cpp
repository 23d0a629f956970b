// SPDX-License-Identifier: MIT
#include "widgets/session/runs.h"

#include "widgets/session/document.h"
#include "widgets/session/runjob.h"

namespace sl::gui {

Runs::Runs(Document* document) : QObject(document), m_document(document) {}

Runs::~Runs() {
    for (RunJob* j : m_jobs) j->cancel();   // each job waits for its worker in its destructor
}

RunJob* Runs::start(std::shared_ptr<const Problem> problem, const QString& method, RunOptions options) {
    if (const OptimizerInfo* info = OptimizerRegistry::instance().find(method.toStdString()))
        checkPins(*info, *problem);   // a method that cannot keep the pins is refused before it runs
    auto* job = new RunJob(m_document->nextRunId(), std::move(problem), method, std::move(options), this);
    job->setTarget(m_document->scoringTarget());
    m_jobs.append(job);
    m_watched = job;
    connect(job, &RunJob::finished, this, [this, job](const RunRecord& record) {
        const RunRecord added = m_document->addResult(record);
        Q_EMIT finished(job, added);
        forget(job);
    });
    connect(job, &RunJob::failed, this, [this, job](const QString& message) {
        Q_EMIT failed(job, message);
        forget(job);
    });
    Q_EMIT started(job);
    job->start();
    return job;
}

void Runs::cancelAll() {
    for (RunJob* j : m_jobs) j->cancel();
}

void Runs::forget(RunJob* job) {
    m_jobs.removeAll(job);
    if (m_watched == job) m_watched = nullptr;
    Q_EMIT ended(job);
    job->deleteLater();
}

}   // namespace sl::gui

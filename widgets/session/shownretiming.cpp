// SPDX-License-Identifier: MIT
#include "widgets/session/shownretiming.h"

#include "widgets/session/background.h"
#include "widgets/session/document.h"
#include "widgets/session/graphtiming.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleopen.h"
#include "widgets/session/schedulerecord.h"

namespace sl::gui {

namespace {

/// A schedule on show to re-time on a worker: the new record's id and name are given out first.
struct ShownToRetime {
    RunRecord base;
    int root = 0;   ///< the result it re-times
    int id = 0;
    QString name;
    bool isResult = false;   ///< a results row (else a sample on show)
};

struct RetimedOnWorker {
    std::vector<std::pair<RunRecord, bool>> timed;   ///< the new records, and whether each is a result
    QStringList dropped;
};

RetimedOnWorker retimeOnWorker(const std::vector<ShownToRetime>& jobs, const std::shared_ptr<const Problem>& problem,
                               const ScoringTarget& target) {
    RetimedOnWorker out;
    for (const ShownToRetime& job : jobs) {
        try {
            RunRecord timed = retimedRecord(job.base, problem, job.id, job.name, target);
            timed.retimedFrom = job.root;
            out.timed.emplace_back(std::move(timed), job.isResult);
        } catch (const std::exception& e) {
            out.dropped << QStringLiteral("%1: %2").arg(job.base.name, QString::fromUtf8(e.what()));
        }
    }
    return out;
}

}   // namespace

ShownRetiming::ShownRetiming(Document* document) : QObject(document), m_document(document) {}

int ShownRetiming::rowRetiming(int root, const Problem& p) const {
    const ResultsModel& results = *m_document->results();
    for (int row = 0; row < results.rowCount(); ++row) {
        const RunRecord& r = results.record(row);
        if ((r.id == root || r.retimedFrom == root) && m_document->ofOpenGraph(r) &&
            r.problem->platform.name == p.platform.name && samePlatform(r.problem->platform, p.platform))
            return row;
    }
    return -1;
}

void ShownRetiming::retime(const std::vector<RunRecord>& before) {
    if (before.empty() || !m_document->graph()) return;
    m_requests.supersede();   // whatever lands from here on, an earlier re-timing no longer may
    std::shared_ptr<const Problem> problem;
    try {
        problem = m_document->problem();
    } catch (const std::exception& e) {
        return Q_EMIT landed({.notFitting = QString::fromUtf8(e.what())});
    }
    const ResultsModel& results = *m_document->results();
    RetimedShow shown{.machine = machineLabel(problem->platform) +
                          (m_document->graph()->timing.profile ? tr(", measured") : QString())};
    std::vector<ShownToRetime> jobs;
    for (const RunRecord& r : before) {
        const int root = r.retimedFrom ? r.retimedFrom : r.id;
        if (const int row = rowRetiming(root, *problem);
            row >= 0) {   // made on this machine, or re-timed for it before
            shown.ids << results.record(row).id;
            continue;
        }
        const int rootRow = results.rowOfId(root);
        const QString name = tr("%1 on %2").arg(rootRow >= 0 ? results.record(rootRow).name : r.name, shown.machine);
        jobs.push_back({r, root, m_document->nextRunId(), name, results.rowOfId(r.id) >= 0});
    }
    if (jobs.empty()) return Q_EMIT landed(shown);
    const LatestRequest::Ticket ticket = m_requests.next();
    ++m_inFlight;
    m_retiming = before;
    runInBackground(
        this,
        [jobs = std::move(jobs), problem, target = m_document->scoringTarget()] {
            return retimeOnWorker(jobs, problem, target);
        },
        [this, ticket, problem, shown](Outcome<RetimedOnWorker> out) mutable {
            if (--m_inFlight == 0) m_retiming.clear();
            const OpenGraph* open = m_document->graph();
            if (!m_requests.isLatest(ticket) || !open || open->graph != problem->graph)
                return;   // another machine, profile or graph since: its own re-timing shows
            if (!out.value) {
                shown.dropped << tr("the schedules on show: %1").arg(out.error);
                return Q_EMIT landed(shown);
            }
            for (auto& [timed, isResult] : out.value->timed) {
                if (isResult)
                    shown.ids << m_document->addResult(std::move(timed)).id;
                else
                    shown.loose = std::move(timed);
            }
            shown.dropped << out.value->dropped;
            Q_EMIT landed(shown);
        });
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
// MainWindow's op times: the Platform panel's machine and profile re-derive the open graph's times
// (Document, widgets/session/graphtiming.h), and the schedules on show follow them, re-timed with their
// placement and order kept. The times are derived on the GUI thread (10,000 ops: 1.5 ms); the
// re-timed records, whose scoring computes bounds, on a worker (docs/gui.md, "Machines and
// measured times").
#include "widgets/mainwindow/mainwindow.h"

#include "core/costmodel/sharedlinks.h"
#include "core/profile/measuredschedule.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/session/background.h"
#include "widgets/session/document.h"
#include "widgets/session/graphtiming.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleopen.h"
#include "widgets/session/schedulerecord.h"

#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>

#include <algorithm>

namespace sl::gui {

void MainWindow::syncMachine() {
    Platform platform;
    try {
        platform = m_platform->platform();
    } catch (const std::exception& e) {   // a catalogue entry gone missing, a preset's device unknown
        return showError(tr("Cannot build the machine"), QString::fromUtf8(e.what()));
    }
    const std::string before = m_document->machine().platform.name;
    const std::string linksBefore = linksDescription(m_document->machine().platform);
    const std::vector<RunRecord> shown = recordsOnShow();
    bool retimed = false;
    try {
        retimed = m_document->setMachine({platform, m_platform->objective(), m_platform->target()});
    } catch (const std::exception& e) {
        return showError(tr("Cannot time the graph on this machine"), QString::fromUtf8(e.what()));
    }
    if (retimed || platform.name != before || linksDescription(platform) != linksBefore)
        retimeShown(shown);   // new times, another real machine, or its links shared or freed
    showLinks(platform);
}

bool MainWindow::applyProfile(const QString& path) {
    const std::vector<RunRecord> shown = recordsOnShow();
    bool retimed = false;
    try {
        retimed = m_document->applyProfile(path);
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        statusBar()->showMessage(tr("Profile not applied: %1").arg(why), 15000);
        showError(tr("Cannot apply the profile"), why);
        return false;
    }
    if (retimed) retimeShown(shown);
    addAsMeasured();
    statusBar()->showMessage(tr("%1: %2").arg(QFileInfo(path).fileName(), profileSummary(*openGraph()->timing.profile)),
                             10000);
    return true;
}

void MainWindow::addAsMeasured() {
    const std::shared_ptr<const GraphProfile> profile = openGraph() ? openGraph()->timing.profile : nullptr;
    if (!profile || !profile->applied.ort) return;
    std::shared_ptr<const Problem> problem;
    try {
        problem = m_document->problem();
    } catch (const std::exception&) {
        return;   // the graph does not fit the machine: the status bar says so already
    }
    const std::vector<std::vector<OpId>> threads = profile->applied.ort->measuredOrderPerThread;
    const int id = m_nextRunId++;
    const QString name = threads.size() == 1 ? tr("as measured (ONNX Runtime's order, 1 thread)")
                                             : tr("as measured (ONNX Runtime's order, %1 threads)").arg(threads.size());
    runInBackground(
        this,
        [id, name, problem, threads] {
            return recordOfSchedule(id, name, QStringLiteral("onnxruntime"), problem,
                                    asMeasuredSchedule(*problem, threads));
        },
        [this, problem](Outcome<RunRecord> landed) {
            if (!openGraph() || openGraph()->graph != problem->graph)
                return;   // other times since: not this run's order
            if (!landed.value)
                return statusBar()->showMessage(tr("ONNX Runtime's order as a schedule: %1").arg(landed.error), 15000);
            const RunRecord added = m_document->addResult(std::move(*landed.value));
            if (const SessionGraph* graph = m_document->sessionGraph(added.graphFingerprint)) autosave(added, *graph);
            if (!m_document->shown())
                selectResults({m_document->results()->rowCount() - 1});   // the trace's run, drawn
            Q_EMIT asMeasuredAdded(added.id);
        });
}

void MainWindow::clearProfile() {
    const std::vector<RunRecord> shown = recordsOnShow();
    bool retimed = false;
    try {
        retimed = m_document->clearProfile();
    } catch (const std::exception& e) {
        return showError(tr("Cannot clear the profile"), QString::fromUtf8(e.what()));
    }
    if (retimed) retimeShown(shown);
}

void MainWindow::onTimesChanged(bool newGraph) {
    const OpenGraph& open = *openGraph();
    setWindowTitle(tr("%1 — SchedLab").arg(open.displayName));
    if (newGraph) {
        m_samplesWanted = false;    // the Temperature panel samples the new times afresh
        showResultsOfThisGraph();   // the results of these times
    }
    updateStatus();
}

void MainWindow::showLinks(const Platform& platform) {
    const QString links = QString::fromStdString(linksDescription(platform));
    m_statusLinks->setVisible(!links.isEmpty());
    m_statusLinks->setText(tr("links %1").arg(links.section(QLatin1Char(' '), 0, 0)));   // "shared" / "free"
    m_statusLinks->setToolTip(tr("Links: %1 (Platform dock ▸ Shared links)").arg(links));
}

void MainWindow::showTimesSource(const QString& source) {
    // a profile's device and a roofline's can run to 150 characters: the middle goes, both ends stay
    m_statusTimes->setText(m_statusTimes->fontMetrics().elidedText(source, Qt::ElideMiddle, 560));
    m_statusTimes->setProperty("fullText", source);
    m_statusTimes->setToolTip(tr("Where the op times come from: %1").arg(source));
}

std::vector<RunRecord> MainWindow::recordsOnShow() const {
    std::vector<RunRecord> out;
    for (const QModelIndex& i : m_resultsView->selectionModel()->selectedRows()) {
        const RunRecord& r = m_document->results()->record(m_sorted->mapToSource(i).row());
        if (m_document->ofOpenGraph(r)) out.push_back(r);
    }
    std::sort(out.begin(), out.end(), [](const RunRecord& a, const RunRecord& b) { return a.id < b.id; });
    if (out.size() > 2) out.clear();                                               // not compared: the one drawn, below
    if (out.empty() && m_document->shown()) out.push_back(*m_document->shown());   // or a sample, a sweep's best
    if (out.empty() && m_retimesInFlight > 0) out = m_retiming;   // still being re-timed for the machine before
    return out;
}

int MainWindow::rowRetiming(int root, const Problem& p) const {
    const ResultsModel& results = *m_document->results();
    for (int row = 0; row < results.rowCount(); ++row) {
        const RunRecord& r = results.record(row);
        if ((r.id == root || r.retimedFrom == root) && m_document->ofOpenGraph(r) &&
            r.problem->platform.name == p.platform.name && samePlatform(r.problem->platform, p.platform))
            return row;
    }
    return -1;
}

namespace {

/// A schedule on show to re-time on a worker: the new record's id and name are given out first.
struct ShownToRetime {
    RunRecord base;
    int root = 0;   ///< the result it re-times
    int id = 0;
    QString name;
    bool isResult = false;   ///< a results row (else a sample on show)
};

struct RetimedOnShow {
    std::vector<std::pair<RunRecord, bool>> timed;   ///< the new records, and whether each is a result
    QStringList dropped;                             ///< "list-cp #1: why it does not fit"
};

RetimedOnShow retimeOnWorker(const std::vector<ShownToRetime>& jobs, const std::shared_ptr<const Problem>& problem,
                             const ScoringTarget& target) {
    RetimedOnShow out;
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

void MainWindow::retimeShown(const std::vector<RunRecord>& before) {
    if (before.empty() || !openGraph()) return;
    const ResultsModel& results = *m_document->results();
    std::shared_ptr<const Problem> problem;
    try {
        problem = m_document->problem();
    } catch (const std::exception& e) {
        m_resultsView->clearSelection();
        m_document->show(std::nullopt);
        statusBar()->showMessage(
            tr("The graph does not fit this machine, so no schedule is shown: %1").arg(QString::fromUtf8(e.what())),
            15000);
        return Q_EMIT shownRetimed();
    }
    const QString machine =
        machineLabel(problem->platform) + (openGraph()->timing.profile ? tr(", measured") : QString());
    QList<int> rows;   // made on this machine, or re-timed for it before: shown again as they are
    std::vector<ShownToRetime> jobs;
    for (const RunRecord& r : before) {
        const int root = r.retimedFrom ? r.retimedFrom : r.id;
        if (const int row = rowRetiming(root, *problem); row >= 0) {
            rows << row;
            continue;
        }
        const int rootRow = results.rowOfId(root);
        const QString name = tr("%1 on %2").arg(rootRow >= 0 ? results.record(rootRow).name : r.name, machine);
        jobs.push_back({r, root, m_nextRunId++, name, results.rowOfId(r.id) >= 0});
    }
    if (jobs.empty()) return showRetimed(rows, {}, machine);
    // scoring a re-timed schedule computes its bounds: 60 ms at 10,000 ops, seconds at 100,000
    const LatestRequest::Ticket ticket = m_retimes.next();
    ++m_retimesInFlight;
    m_retiming = before;
    runInBackground(
        this,
        [jobs = std::move(jobs), problem, target = m_document->scoringTarget()] {
            return retimeOnWorker(jobs, problem, target);
        },
        [this, ticket, problem, rows, machine](Outcome<RetimedOnShow> landed) {
            --m_retimesInFlight;
            const bool current = m_retimes.isLatest(ticket) && openGraph() && openGraph()->graph == problem->graph;
            if (!current) return;   // another machine, profile or graph since: its own re-timing shows
            if (!landed.value) return showRetimed(rows, {tr("the schedules on show: %1").arg(landed.error)}, machine);
            QList<int> shown = rows;
            std::optional<RunRecord> loose;   // a sample on show: shown, not added
            for (auto& [timed, isResult] : landed.value->timed) {
                if (!isResult) {
                    loose = std::move(timed);
                    continue;
                }
                const RunRecord added = m_document->addResult(std::move(timed));
                if (const SessionGraph* graph = m_document->sessionGraph(added.graphFingerprint))
                    autosave(added, *graph);
                shown << m_document->results()->rowCount() - 1;
            }
            showRetimed(shown, landed.value->dropped, machine, loose);
        });
}

void MainWindow::showRetimed(const QList<int>& rows, const QStringList& dropped, const QString& machine,
                             const std::optional<RunRecord>& loose) {
    if (!dropped.isEmpty())
        statusBar()->showMessage(
            tr("No longer shown, as it does not fit %1: %2").arg(machine, dropped.join(QStringLiteral("; "))), 15000);
    const ResultsModel& results = *m_document->results();
    QList<int> visible;
    for (int row : rows)
        if (const QModelIndex i = m_sorted->mapFromSource(results.index(row, 0)); i.isValid()) visible << i.row();
    if (!visible.isEmpty()) {
        selectResults(visible);
    } else {
        m_resultsView->clearSelection();
        m_document->show(loose);
    }
    Q_EMIT shownRetimed();
}

}   // namespace sl::gui

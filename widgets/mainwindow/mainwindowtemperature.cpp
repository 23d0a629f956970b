// SPDX-License-Identifier: MIT
// MainWindow's Temperature dock and temperature sweeps: sampling the open graph, the Sweep tab,
// opening, saving and exporting sweeps (the rest of the window is in mainwindow.cpp).
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/panels/sweepview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/background.h"
#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/schedulerecord.h"
#include "widgets/session/units.h"
#include "widgets/views/exporter.h"

#include "core/sweep/sweepio.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QStatusBar>
#include <QTableView>

namespace sl::gui {

void MainWindow::connectTemperature() {
    // A selected result keeps the views: a sample that lands later (the one taken when the graph
    // opened, say) must not replace the run the results table shows as selected. Choosing a
    // temperature clears the selection, so its samples do show.
    // Samples taken on their own (when a graph opens, when the neural module arrives) wait in the
    // panel: the views show the graph as it is until the user asks for a schedule.
    connect(m_temperature, &TemperaturePanel::settingsChosen, this, [this] {
        m_samplesWanted = true;
        m_resultsView->clearSelection();
    });
    connect(m_temperature, &TemperaturePanel::sampled, this, [this](const RunRecord& r) {
        const QString makespan = formatDuration(r.schedule().makespan, r.problem->g().timeUnit());
        if (selectedRecord()) {
            statusBar()->showMessage(
                tr("Sampled %1 (makespan %2); the selected result stays in view").arg(r.name, makespan), 6000);
            return;
        }
        if (!m_samplesWanted) {
            statusBar()->showMessage(
                tr("Sampled %1 (makespan %2): move the temperature slider to see samples in the views")
                    .arg(r.name, makespan),
                6000);
            return;
        }
        m_document->show(r);
        statusBar()->showMessage(tr("Showing %1: makespan %2").arg(r.name, makespan), 6000);
        Q_EMIT scheduleShown(r);
    });
    connect(m_temperature, &TemperaturePanel::keepRequested, this, [this](RunRecord r) {
        r.id = m_document->nextRunId();
        addResult(r);
    });
    connect(m_temperature, &TemperaturePanel::sweepRequested, this, &MainWindow::startSweep);
    connect(m_temperature, &TemperaturePanel::failed, this, &MainWindow::showError);
    connect(m_temperature, &TemperaturePanel::sweepUpdated, this, [this](std::shared_ptr<const Sweep> s) {
        showSweepOfOpenGraph(*s);
        if (s->points.size() == 1) showTab(SweepTab);
    });
    connect(m_temperature, &TemperaturePanel::sweepFinished, this, [this](std::shared_ptr<const Sweep> s) {
        showSweepOfOpenGraph(*s);
        showTab(SweepTab);
        Q_EMIT sweepShown();
    });
    connect(m_sweepView, &SweepView::pointSelected, this, [this](int i) { showSweepPoint(i); });
    connect(m_sweepView, &SweepView::pointActivated, this, [this](int i) { showSweepPoint(i, true); });
    connect(m_sweepView, &SweepView::keepRequested, this, [this](int i) {
        withSweepRecord(i, [this](RunRecord r) {
            r.id = m_document->nextRunId();
            addResult(r);
        });
    });
    connect(m_sweepView, &SweepView::exportRequested, this, [this](int i) {
        withSweepRecord(i, [this](const RunRecord& r) {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export schedule"), QStringLiteral("sweep-best.json"), exportFilter(ExportKind::ScheduleJson));
            if (path.isEmpty()) return;
            try {
                sl::gui::exportSchedule(ExportKind::ScheduleJson, r, path);
                statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
            } catch (const std::exception& e) {
                showError(tr("Export failed"), QString::fromUtf8(e.what()));
            }
        });
    });
    connect(m_sweepView, &SweepView::exportCsvRequested, this, &MainWindow::exportSweepCsv);
}

void MainWindow::showSweepOfOpenGraph(const Sweep& s) {
    auto named = std::make_shared<Sweep>(s);
    if (openGraph()) named->graphName = openGraph()->displayName.toStdString();
    m_sweepView->setSweep(std::move(named));
}

void MainWindow::startSweep() {
    if (!openGraph())
        return showError(tr("Nothing to sweep"), tr("Open a graph first (File ▸ Open, or File ▸ Open Example)."));
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("temperatureDock"))) dock->show();   // its progress and ✕
    m_temperature->startSweep();
}

void MainWindow::withSweepRecord(int index, std::function<void(const RunRecord&)> then) {
    const auto sweep = m_sweepView->sweep();
    if (!sweep || index < 0 || index >= static_cast<int>(sweep->points.size())) return;
    std::shared_ptr<const Problem> problem;
    try {
        if (!openGraph()) throw std::runtime_error("Open the graph the sweep was made on to see its schedules.");
        problem = m_document->problem();
        checkSweepFits(*sweep, *problem);
    } catch (const std::exception& e) {
        return showError(tr("Cannot show the schedule"), QString::fromUtf8(e.what()));
    }
    const ScoringTarget target = m_document->scoringTarget();
    runInBackground(
        this,
        [sweep, problem, index, target] {
            const SweepPoint& p = sweep->points[static_cast<size_t>(index)];
            auto proxy = std::make_shared<const Problem>(proxyProblem(*problem));
            const QString name = QStringLiteral("%1 σ=%2 best (sweep)")
                                     .arg(QString::fromStdString(sweep->sampler))
                                     .arg(p.temperature, 0, 'g', 3);
            return recordOfSchedule(0, name, QString::fromStdString(sweep->sampler), proxy, bestSchedule(*problem, p),
                                    target);
        },
        [this, then = std::move(then)](Outcome<RunRecord> r) {
            if (!r.value) return showError(tr("Cannot show the schedule"), r.error);
            then(*r.value);
        });
}

void MainWindow::showSweepPoint(int index, bool jumpToGantt) {
    withSweepRecord(index, [this, jumpToGantt](const RunRecord& r) {
        m_document->show(r);
        if (jumpToGantt) showTab(GanttTab);
        const QString makespan = formatDuration(r.schedule().makespan, r.problem->g().timeUnit());
        statusBar()->showMessage(tr("Showing %1 in the DAG, Gantt and Memory tabs: makespan %2").arg(r.name, makespan),
                                 8000);
        Q_EMIT scheduleShown(r);
    });
}

void MainWindow::openSweep(const QString& path, std::function<void(bool)> done) {
    const std::string file = path.toStdString();
    runInBackground(
        this, [file] { return std::make_shared<const Sweep>(loadSweepJson(file)); },
        [this, done = std::move(done)](Outcome<std::shared_ptr<const Sweep>> s) {
            if (!s.value) {
                showError(tr("Cannot open the sweep"), s.error);
                if (done) done(false);
                return;
            }
            m_sweepView->setSweep(*s.value);
            showTab(SweepTab);
            Q_EMIT sweepShown();
            if (done) done(true);
        });
}

bool MainWindow::saveSweep(const QString& path) {
    const auto sweep = m_sweepView->sweep();
    if (!sweep) {
        showError(tr("Nothing to save"), tr("Run a sweep first (Run ▸ Sweep temperatures)."));
        return false;
    }
    try {
        if (path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
            saveSweepCsv(*sweep, path.toStdString());
        else
            saveSweepJson(*sweep, path.toStdString());
        statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Cannot save the sweep"), QString::fromUtf8(e.what()));
        return false;
    }
}

void MainWindow::exportSweepCsv() {
    if (!m_sweepView->sweep())
        return showError(tr("Nothing to export"), tr("Run a sweep first (Run ▸ Sweep temperatures)."));
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export sweep"), QStringLiteral("sweep.csv"), tr("CSV (*.csv)"));
    if (!path.isEmpty()) saveSweep(path);
}

}   // namespace sl::gui

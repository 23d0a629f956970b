// SPDX-License-Identifier: MIT
// MainWindow's studies (docs/studies.md): the Study tab, and a study run's graph and schedule
// opened from it.
#include "widgets/mainwindow.h"

#include "widgets/studyview.h"

#include "core/study/studyrunner.h"
#include "core/study/studystore.h"
#include "widgets/pooltask.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QDateTime>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QThreadPool>

#include <filesystem>
#include <thread>

namespace sl::gui {

void MainWindow::openStudy(const QString& path) {
    m_studyView->openStudy(path);
    showTab(StudyTab);
}

bool MainWindow::runStudyHere(const QString& specPath, const QString& dbPath) {
    if (m_studyTask) {
        statusBar()->showMessage(tr("A study is running already; Cancel all stops it"), 8000);
        return false;
    }
    auto stop = std::make_shared<std::stop_source>();
    m_studyStop = stop;
    m_studyRefreshedAt = 0;
    QPointer<MainWindow> self(this);
    auto progress = [self, dbPath](const StudyProgress& p) {   // on a worker: counted on the GUI thread
        QMetaObject::invokeMethod(QCoreApplication::instance(), [self, dbPath, done = p.done, total = p.total] {
            if (self) self->onStudyProgress(dbPath, done, total);
        }, Qt::QueuedConnection);
    };
    m_studyTask = runOnPool(
        *QThreadPool::globalInstance(), this,
        [spec = specPath.toStdString(), db = dbPath.toStdString(), progress, stop] {
            StudyStore store = std::filesystem::exists(db) ? StudyStore::open(db) : StudyStore::create(db, loadStudySpec(spec));
            return runStudy(store, progress, stop->get_token(), static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
        },
        [this, dbPath](Outcome<int> o) {
            m_studyTask.reset();
            m_studyStop.reset();
            if (!o.value) showError(tr("The study stopped"), o.error);
            else statusBar()->showMessage(tr("Study: %1 runs made; %2").arg(*o.value).arg(QFileInfo(dbPath).fileName()), 10000);
            openStudy(dbPath);
            updateStatus();
        });
    showTab(StudyTab);
    updateStatus();
    return true;
}

void MainWindow::onStudyProgress(const QString& dbPath, int done, int total) {
    statusBar()->showMessage(tr("Study: %1 of %2 runs stored").arg(done).arg(total));
    // The tab follows the database at most twice a second: reading it back costs ~0.1 s at 15,000 runs.
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_studyRefreshedAt < 500 && done < total) return;
    m_studyRefreshedAt = now;
    m_studyView->openStudy(dbPath);
}

void MainWindow::connectStudyView() {
    connect(m_studyView, &StudyView::runRequested, this, &MainWindow::openStudyRun);
    connect(m_studyView, &StudyView::compareRequested, this, &MainWindow::compareStudyRuns);
    connect(m_studyView, &StudyView::studyShown, this, &MainWindow::updateActions);   // the view export becomes possible
    connect(m_studyView, &StudyView::studyFailed, this, [this](const QString& m) { showError(tr("Cannot open the study"), m); });
}

QString MainWindow::studyRunFile(const QString& graph, const QString& method, quint64 seed, int slot) {
    std::string json;
    try {
        json = StudyStore::open(m_studyView->path().toStdString()).schedule(graph.toStdString(), method.toStdString(), seed);
    } catch (const std::exception& e) {
        showError(tr("Cannot read the study"), QString::fromUtf8(e.what()));
        return {};
    }
    if (json.empty()) {
        statusBar()->showMessage(tr("%1 on %2 has no schedule (the run failed)").arg(method, graph), 8000);
        return {};
    }
    // The schedule goes through Open Schedule, as a file: re-timed, re-scored, its platform adopted.
    const QString file = QDir(QDir::tempPath()).filePath(QStringLiteral("schedlab-study-run-%1-%2.json").arg(QCoreApplication::applicationPid()).arg(slot));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size())) {
        showError(tr("Cannot open the run"), tr("%1 could not be written").arg(file));
        return {};
    }
    return file;
}

GraphOrigin MainWindow::studyGraphOrigin(const QString& graph) const {
    const StudySpec* spec = m_studyView->spec();
    const QString file = spec ? QString::fromStdString(spec->resolve(graph.toStdString())) : graph;   // relative to the study file
    return GraphOrigin::file(file).withTraining(spec ? spec->training : std::nullopt);
}

void MainWindow::openStudyRun(const QString& graph, const QString& method, quint64 seed) {
    const QString file = studyRunFile(graph, method, seed, 0);
    if (file.isEmpty()) return;
    openInBackground(studyGraphOrigin(graph), {}, [this, file](bool opened) {
        if (opened) importSchedule(file, [this](bool) { showTab(GanttTab); });
    });
}

void MainWindow::compareStudyRuns(const QString& graph, const QString& first, const QString& second, quint64 seed) {
    const QString a = studyRunFile(graph, first, seed, 0), b = studyRunFile(graph, second, seed, 1);
    if (a.isEmpty() || b.isEmpty()) return;
    openInBackground(studyGraphOrigin(graph), {}, [this, a, b](bool opened) {
        if (!opened) return;
        importSchedule(a, [this, b](bool firstIn) {
            importSchedule(b, [this, firstIn](bool secondIn) {
                const int rows = m_sorted->rowCount();
                if (firstIn && secondIn && rows >= 2) selectResults({rows - 2, rows - 1});   // Compare shows them
                showTab(CompareTab);
            });
        });
    });
}

} // namespace sl::gui

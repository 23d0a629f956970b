// SPDX-License-Identifier: MIT
// MainWindow's studies (docs/studies.md): the Study tab, and a study run's graph and schedule
// opened from it.
#include "widgets/mainwindow.h"

#include "widgets/studyview.h"

#include "core/study/studystore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QStatusBar>

namespace sl::gui {

void MainWindow::openStudy(const QString& path) {
    m_studyView->openStudy(path);
    showTab(StudyTab);
}

void MainWindow::connectStudyView() {
    connect(m_studyView, &StudyView::runRequested, this, &MainWindow::openStudyRun);
    connect(m_studyView, &StudyView::studyShown, this, &MainWindow::updateActions);   // the view export becomes possible
    connect(m_studyView, &StudyView::studyFailed, this, [this](const QString& m) { showError(tr("Cannot open the study"), m); });
}

void MainWindow::openStudyRun(const QString& graph, const QString& method, quint64 seed) {
    std::string json;
    try {
        json = StudyStore::open(m_studyView->path().toStdString()).schedule(graph.toStdString(), method.toStdString(), seed);
    } catch (const std::exception& e) {
        showError(tr("Cannot read the study"), QString::fromUtf8(e.what()));
        return;
    }
    if (json.empty()) {
        statusBar()->showMessage(tr("%1 on %2 has no schedule (the run failed)").arg(method, graph), 8000);
        return;
    }
    // The schedule goes through Open Schedule, as a file: re-timed, re-scored, its platform adopted.
    const QString file = QDir(QDir::tempPath()).filePath(QStringLiteral("schedlab-study-run-%1.json").arg(QCoreApplication::applicationPid()));
    QFile out(file);
    if (!out.open(QIODevice::WriteOnly) || out.write(json.data(), static_cast<qint64>(json.size())) != static_cast<qint64>(json.size())) {
        showError(tr("Cannot open the run"), tr("%1 could not be written").arg(file));
        return;
    }
    out.close();
    const StudySpec* spec = m_studyView->spec();
    const GraphOrigin origin = GraphOrigin::file(graph).withTraining(spec ? spec->training : std::nullopt);
    openInBackground(origin, {}, [this, file](bool opened) {
        if (opened) importSchedule(file, [this](bool) { showTab(GanttTab); });
    });
}

} // namespace sl::gui

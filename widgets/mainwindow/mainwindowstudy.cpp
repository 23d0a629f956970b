// SPDX-License-Identifier: MIT
// MainWindow's studies (docs/studies.md): the Study tab, a study run here (StudySession), and a
// study run's graph and schedule opened from it.
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/panels/studyview.h"
#include "widgets/session/studysession.h"

#include "core/study/studystore.h"

#include <QFileInfo>
#include <QSortFilterProxyModel>
#include <QStatusBar>

namespace sl::gui {

void MainWindow::openStudy(const QString& path) {
    m_studyView->openStudy(path);
    showTab(StudyTab);
}

bool MainWindow::studyRunning() const { return m_study->isRunning() || m_studyWaiting.has_value(); }

void MainWindow::startStudyWaitingForNeural() {
    if (const auto waiting = std::exchange(m_studyWaiting, std::nullopt)) runStudyHere(waiting->first, waiting->second);
}

QStringList MainWindow::studyMethodsMissing(const QString& specPath, const QString& dbPath) const {
    const StudySpec spec = StudyStore::specToRun(dbPath.toStdString(), specPath.toStdString());
    QStringList missing;
    for (const std::string& m : unregisteredMethods(spec)) missing << QString::fromStdString(m);
    return missing;
}

bool MainWindow::runStudyHere(const QString& specPath, const QString& dbPath) {
    if (studyRunning()) {
        statusBar()->showMessage(tr("A study is running already; Cancel all stops it"), 8000);
        return false;
    }
    QStringList missing;
    try {   // a few kilobytes of JSON, or one row of the database
        missing = studyMethodsMissing(specPath, dbPath);
    } catch (const std::exception& e) {
        showError(tr("The study cannot start"), QString::fromUtf8(e.what()));
        return false;
    }
    if (!missing.isEmpty() && !m_neuralLoadEnded) {   // the neural methods: start once their module is in
        m_studyWaiting = std::pair{specPath, dbPath};
        statusBar()->showMessage(
            tr("The study starts when the neural methods are loaded (%1)").arg(missing.join(QStringLiteral(", "))));
        loadNeuralMethodsInBackground();
        showTab(StudyTab);
        return true;
    }
    if (!missing.isEmpty()) {   // cf. `schedlab-cli study run` with the module unavailable
        showError(
            tr("The study cannot start"),
            tr("unknown method \"%1\": the neural methods are unavailable (see the status bar)").arg(missing.front()));
        return false;
    }
    m_study->start(specPath, dbPath);
    showTab(StudyTab);
    updateStatus();
    return true;
}

void MainWindow::connectStudySession() {
    connect(m_study, &StudySession::progressed, this, [this](int done, int total) {
        statusBar()->showMessage(tr("Study: %1 of %2 runs stored").arg(done).arg(total));
    });
    connect(m_study, &StudySession::reloadDue, m_studyView, &StudyView::openStudy);
    connect(m_study, &StudySession::finished, this, [this](int made) {
        statusBar()->showMessage(tr("Study: %1 runs made; %2").arg(made).arg(QFileInfo(m_study->database()).fileName()),
                                 10000);
        updateStatus();
    });
    connect(m_study, &StudySession::failed, this, [this](const QString& message) {
        showError(tr("The study stopped"), message);
        updateStatus();
    });
}

void MainWindow::connectStudyView() {
    connect(m_studyView, &StudyView::runRequested, this, &MainWindow::openStudyRun);
    connect(m_studyView, &StudyView::compareRequested, this, &MainWindow::compareStudyRuns);
    connect(m_studyView, &StudyView::studyShown, this,
            &MainWindow::updateActions);   // the view export becomes possible
    connect(m_studyView, &StudyView::studyFailed, this,
            [this](const QString& m) { showError(tr("Cannot open the study"), m); });
}

std::string MainWindow::studyRunJson(const QString& graph, const QString& method, quint64 seed) {
    std::string json;
    try {
        json = StudyStore::open(m_studyView->path().toStdString(), StudyStore::Access::ReadOnly)
                   .schedule(graph.toStdString(), method.toStdString(), seed);
    } catch (const std::exception& e) {
        showError(tr("Cannot read the study"), QString::fromUtf8(e.what()));
        return {};
    }
    if (json.empty())
        statusBar()->showMessage(tr("%1 on %2 has no schedule (the run failed)").arg(method, graph), 8000);
    return json;
}

GraphOrigin MainWindow::studyGraphOrigin(const QString& graph) const {
    const StudySpec* spec = m_studyView->spec();
    const QString file =
        spec ? QString::fromStdString(spec->resolve(graph.toStdString())) : graph;   // relative to the study file
    return GraphOrigin::file(file).withTraining(spec ? spec->training : std::nullopt);
}

// The stored schedule goes through Open Schedule, from memory: re-timed, re-scored, its platform
// adopted, named after the run.
namespace {
QString runName(const QString& graph, const QString& method, quint64 seed) {
    return QStringLiteral("%1 · %2 · seed %3").arg(QFileInfo(graph).fileName(), method).arg(seed);
}
}   // namespace

void MainWindow::openStudyRun(const QString& graph, const QString& method, quint64 seed) {
    std::string json = studyRunJson(graph, method, seed);
    if (json.empty()) return;
    openInBackground(studyGraphOrigin(graph), {},
                     [this, json = std::move(json), name = runName(graph, method, seed)](bool opened) mutable {
                         if (opened) importScheduleText(std::move(json), name, [this](bool) { showTab(GanttTab); });
                     });
}

void MainWindow::compareStudyRuns(const QString& graph, const QString& first, const QString& second, quint64 seed) {
    std::string a = studyRunJson(graph, first, seed);
    std::string b = studyRunJson(graph, second, seed);
    if (a.empty() || b.empty()) return;
    const QString nameA = runName(graph, first, seed), nameB = runName(graph, second, seed);
    openInBackground(studyGraphOrigin(graph), {},
                     [this, a = std::move(a), b = std::move(b), nameA, nameB](bool opened) mutable {
                         if (!opened) return;
                         importScheduleText(std::move(a), nameA, [this, b = std::move(b), nameB](bool firstIn) mutable {
                             importScheduleText(std::move(b), nameB, [this, firstIn](bool secondIn) {
                                 const int rows = m_sorted->rowCount();
                                 if (firstIn && secondIn && rows >= 2)
                                     selectResults({rows - 2, rows - 1});   // Compare shows them
                                 showTab(CompareTab);
                             });
                         });
                     });
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
// MainWindow's results: each result belongs to the graph it was made for. The table shows the open
// graph's results (or all of them, with a Graph column); a result of another graph is never drawn
// over the open one, and Compare, Save and Export refuse such mixes with a sentence.
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/studyview.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/sweepview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/background.h"
#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/scheduleopen.h"
#include "widgets/session/schedulerecord.h"
#include "widgets/session/shownretiming.h"
#include "widgets/views/compareview.h"
#include "widgets/views/convergenceview.h"
#include "widgets/views/dagview.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/memoryview.h"

#include "core/graph/fingerprint.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace sl::gui {
namespace {
/// "1 result", "3 results": the window speaks English without "(s)".
QString counted(int n, const QString& one, const QString& many) {
    return QStringLiteral("%1 %2").arg(n).arg(n == 1 ? one : many);
}
}   // namespace

QWidget* MainWindow::buildResultsPane() {
    auto* pane = new QWidget;
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    m_resultsScope = new QComboBox(pane);
    m_resultsScope->setObjectName(QStringLiteral("resultsScope"));
    m_resultsScope->addItem(tr("This graph"));
    m_resultsScope->addItem(tr("All graphs"));
    m_resultsScope->setToolTip(tr("Results of the open graph only, or of every graph opened in this session"));
    m_resultsNotice = new QLabel(pane);
    m_resultsNotice->setObjectName(QStringLiteral("resultsNotice"));
    m_resultsNotice->setTextFormat(Qt::PlainText);
    m_switchGraph = new QPushButton(pane);
    m_switchGraph->setObjectName(QStringLiteral("switchGraphButton"));
    m_switchGraph->hide();
    bar->addWidget(new QLabel(tr("Show"), pane));
    bar->addWidget(m_resultsScope);
    bar->addWidget(m_resultsNotice, 1);
    bar->addWidget(m_switchGraph);
    auto* layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_resultsView);
    connect(m_resultsScope, &QComboBox::currentIndexChanged, this,
            [this](int i) { setResultsScope(static_cast<ResultsScope>(i)); });
    connect(m_switchGraph, &QPushButton::clicked, this, [this] {
        const auto rows = m_resultsView->selectionModel()->selectedRows();
        if (!rows.isEmpty()) switchToGraphOf(m_sorted->mapToSource(rows.first()).row());
    });
    connect(m_document->results(), &QAbstractItemModel::rowsInserted, this, [this] { updateResultsNotice(); });
    connect(m_document->results(), &QAbstractItemModel::rowsRemoved, this, [this] { updateResultsNotice(); });
    setResultsScope(ResultsScope::ThisGraph);
    return pane;
}

void MainWindow::setResultsScope(ResultsScope scope) {
    if (m_resultsScope->currentIndex() != static_cast<int>(scope))
        return m_resultsScope->setCurrentIndex(static_cast<int>(scope));
    m_sorted->setFilterRole(ResultsModel::GraphRole);
    const bool all = scope == ResultsScope::AllGraphs || !openGraph();
    m_sorted->setFilterRegularExpression(all ? QString()
                                             : QStringLiteral("^%1$").arg(graphKey(openGraph()->fingerprint)));
    m_resultsView->setColumnHidden(ResultsModel::Graph, !all);   // one graph: its name is the window title
    updateResultsNotice();
}

void MainWindow::showResultsOfThisGraph() {
    m_resultsView->clearSelection();
    setResultsScope(static_cast<ResultsScope>(m_resultsScope->currentIndex()));   // "All graphs" stays if chosen
}

QString MainWindow::resultsNotice() const { return m_resultsNotice->text(); }

void MainWindow::updateResultsNotice(const QString& refusal) {
    m_switchGraph->setVisible(!refusal.isEmpty() && m_switchGraph->property("row").toInt() >= 0 &&
                              !m_switchGraph->text().isEmpty());
    m_resultsNotice->setStyleSheet(refusal.isEmpty() ? QString() : QStringLiteral("color: #b35900; font-weight: 600"));
    if (!refusal.isEmpty()) return m_resultsNotice->setText(refusal);
    m_switchGraph->hide();
    const ResultsModel& results = *m_document->results();
    const OpenGraph* open = openGraph();
    const int all = results.rowCount();
    int ofOpen = 0;
    for (int row = 0; row < all; ++row) ofOpen += m_document->ofOpenGraph(results.record(row));
    const QString graphs = counted(results.graphCount(), tr("graph"), tr("graphs"));
    QString text = open ? tr("%1 of %2").arg(counted(ofOpen, tr("result"), tr("results")), open->displayName)
                        : tr("No graph open");
    if (m_resultsScope->currentIndex() == static_cast<int>(ResultsScope::AllGraphs))
        text = tr("%1 from %2").arg(counted(all, tr("result"), tr("results")), graphs) +
            (open ? tr("; %1 of the open graph, %2").arg(ofOpen).arg(open->displayName) : QString());
    else if (all > ofOpen)
        text += tr("; %1 in all, from %2").arg(all).arg(graphs);
    m_resultsNotice->setText(text);
}

RunRecord MainWindow::addResult(RunRecord r) {
    r = m_document->addResult(std::move(r));
    showAdded(r);
    return r;
}

QModelIndex MainWindow::resultIndex(int id) const {
    const ResultsModel& results = *m_document->results();
    return m_sorted->mapFromSource(results.index(results.rowOfId(id), 0));
}

void MainWindow::showAdded(const RunRecord& r) {
    const QModelIndex shown = resultIndex(r.id);
    if (shown.isValid() && m_resultsView->selectionModel()->selectedRows().size() < 2) selectResults({shown.row()});
}

void MainWindow::selectResults(const QList<int>& rows) {
    auto* sm = m_resultsView->selectionModel();
    QItemSelection sel;
    for (int r : rows) sel.select(m_sorted->index(r, 0), m_sorted->index(r, ResultsModel::ColumnCount - 1));
    sm->select(sel, QItemSelectionModel::ClearAndSelect);
    if (!rows.isEmpty()) sm->setCurrentIndex(m_sorted->index(rows.last(), 0), QItemSelectionModel::NoUpdate);
}

std::optional<RunRecord> MainWindow::selectedRecord() const {
    const auto rows = m_resultsView->selectionModel()->selectedRows();
    if (rows.isEmpty()) return std::nullopt;
    return m_document->results()->record(m_sorted->mapToSource(rows.first()).row());
}

void MainWindow::onResultsSelectionChanged() {
    const auto rows = m_resultsView->selectionModel()->selectedRows();
    std::vector<RunRecord> picked;
    for (const QModelIndex& i : rows) picked.push_back(m_document->results()->record(m_sorted->mapToSource(i).row()));
    std::sort(picked.begin(), picked.end(), [](const RunRecord& a, const RunRecord& b) { return a.id < b.id; });
    m_switchGraph->setProperty("row", -1);
    m_switchGraph->setText({});
    const auto foreign =
        std::find_if(picked.begin(), picked.end(), [this](const RunRecord& r) { return !m_document->ofOpenGraph(r); });
    QString refusal;
    if (picked.size() == 2 && picked[0].graphFingerprint != picked[1].graphFingerprint) {
        refusal = tr("Compare needs two results of one graph: “%1” is of %2, “%3” of %4.")
                      .arg(picked[0].name, picked[0].graphTitle, picked[1].name, picked[1].graphTitle);
    } else if (foreign != picked.end()) {
        refusal = tr("“%1” was made for %2, not for the open graph (%3): it is not drawn here.")
                      .arg(foreign->name, foreign->graphTitle, openGraph() ? openGraph()->displayName : tr("none"));
        m_switchGraph->setProperty("row", m_document->results()->rowOfId(foreign->id));
        m_switchGraph->setText(tr("Open %1 again").arg(foreign->graphTitle));
    }
    const bool drawable = !picked.empty() && refusal.isEmpty();
    if (drawable && picked.size() == 2)
        m_document->showCompared(picked[0], picked[1]);
    else
        m_document->show(drawable ? std::optional<RunRecord>(picked.front()) : std::nullopt);
    if (drawable && picked.size() == 2) {
        m_compare->setRecords(picked[0], picked[1]);
        m_tabs->setCurrentWidget(m_compare);
    } else {
        m_compare->setRecords(drawable && picked.size() == 1 ? std::optional<RunRecord>(picked[0]) : std::nullopt,
                              std::nullopt);
        if (!refusal.isEmpty())
            m_compare->setNotice(refusal);
        else if (picked.size() == 1)
            m_compare->setNotice(
                tr("One result is selected: Ctrl+click a second one to compare it with “%1”.").arg(picked[0].name));
        else if (picked.size() > 2)
            m_compare->setNotice(tr("Compare shows two results; %1 are selected.").arg(picked.size()));
        if (picked.size() == 2) m_tabs->setCurrentWidget(m_compare);   // the refusal where the comparison was expected
    }
    updateResultsNotice(refusal);
}

void MainWindow::switchToGraphOf(int row) {
    const ResultsModel& results = *m_document->results();
    if (row < 0 || row >= results.rowCount()) return;
    const RunRecord r = results.record(row);
    if (!m_document->sessionGraph(r.graphFingerprint)) return;
    m_document->reopenGraphOf(r);
    if (r.problem->platform.name !=
        m_document->machine().platform.name)   // a preset's or device's times: its machine again
        m_platform->adoptPlatform(r.problem->platform, r.graphTitle);
    const QModelIndex shown = m_sorted->mapFromSource(results.index(results.rowOfId(r.id), 0));
    if (shown.isValid()) selectResults({shown.row()});
}

void MainWindow::importSchedule(const QString& path, std::function<void(bool)> done) {
    importScheduleFrom(path, std::nullopt, std::move(done));
}

void MainWindow::importScheduleText(std::string json, const QString& name, std::function<void(bool)> done) {
    importScheduleFrom(name, std::move(json), std::move(done));
}

void MainWindow::importScheduleFrom(const QString& path, std::optional<std::string> json,
                                    std::function<void(bool)> done) {
    auto fail = [this, &done](const QString& message) {
        showError(tr("Cannot open the schedule"), message);
        if (done) done(false);
    };
    if (!openGraph()) return fail(tr("Open the graph the schedule belongs to first."));
    std::shared_ptr<const Problem> problem;
    try {
        problem = m_document->problem();
    } catch (const std::exception& e) {
        return fail(QString::fromUtf8(e.what()));
    }
    const ShownGraph shown{openGraph()->displayName, openGraph()->fingerprint};
    runInBackground(
        this,
        [problem, path, json = std::move(json), shown, id = m_document->nextRunId(),
         target = m_document->scoringTarget()] {
            return json ? openScheduleText(*json, path, *problem, shown, id, target)
                        : openScheduleFile(path, *problem, shown, id, target);
        },
        [this, path, shown, done = std::move(done)](Outcome<OpenedSchedule> opened) {
            if (!opened.value) {
                showError(tr("Cannot open the schedule"), opened.error);
                if (done) done(false);
                return;
            }
            // the schedule was checked against the graph open when asked (re-timed on its machine
            // when it carries catalogue devices): adopt its machine if that graph is still open
            const bool stillOpen = openGraph() && openGraph()->fingerprint == shown.fingerprint;
            if (opened.value->adopted && (stillOpen || m_document->ofOpenGraph(opened.value->record))) {
                m_platform->adoptPlatform(*opened.value->adopted, QFileInfo(path).fileName());
                statusBar()->showMessage(
                    tr("The Platform panel now shows the schedule's machine: %1")
                        .arg(counted(opened.value->adopted->deviceCount(), tr("device"), tr("devices"))),
                    10000);
            }
            addResult(opened.value->record);
            if (done) done(true);
        });
}

QString MainWindow::exportRefusal() const {
    const auto rows = m_resultsView->selectionModel()->selectedRows();
    if (!openGraph()) return tr("Open a graph and select one of its results first.");
    if (rows.isEmpty()) return tr("Select a result of the open graph first.");
    if (rows.size() > 1) return tr("Select one result to save or export (%1 are selected).").arg(rows.size());
    const RunRecord& r = m_document->results()->record(m_sorted->mapToSource(rows.first()).row());
    if (!m_document->ofOpenGraph(r))
        return tr("“%1” was made for %2, not for the open graph (%3). Open %2 again to save or export it.")
            .arg(r.name, r.graphTitle, openGraph()->displayName);
    return {};
}

void MainWindow::saveSchedule() { exportSchedule(static_cast<int>(ExportKind::ScheduleJson)); }

void MainWindow::exportSchedule(int kind) {
    if (const QString why = exportRefusal(); !why.isEmpty()) return showError(tr("Nothing to export"), why);
    const auto k = static_cast<ExportKind>(kind);
    const QString suffix = k == ExportKind::Csv ? QStringLiteral(".csv")
        : k == ExportKind::AnnotatedDot         ? QStringLiteral(".dot")
                                                : QStringLiteral(".json");
    QString name = selectedRecord()->name;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), name + suffix, exportFilter(k));
    if (!path.isEmpty()) exportSelected(k, path);
}

void MainWindow::exportSelected(ExportKind kind, const QString& path, std::function<void(bool)> done) {
    if (const QString why = exportRefusal(); !why.isEmpty()) {
        showError(tr("Nothing to export"), why);
        if (done) done(false);
        return;
    }
    statusBar()->showMessage(tr("Writing %1…").arg(path));
    runInBackground(
        this,
        [kind, record = *selectedRecord(), path] {
            sl::gui::exportSchedule(kind, record, path);
            return true;
        },
        [this, path, done = std::move(done)](Outcome<bool> written) {
            if (written.value)
                statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
            else {
                statusBar()->showMessage(tr("Export failed: %1").arg(QFileInfo(path).fileName()), 10000);
                showError(tr("Export failed"), written.error);
            }
            if (done) done(written.value.has_value());
        });
}

void MainWindow::exportView() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export view"), m_tabs->tabText(m_tabs->currentIndex()).toLower() + QStringLiteral(".png"),
        tr("PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    try {
        exportWidgetImage(currentViewWidget(), path);
        statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Export failed: %1").arg(QFileInfo(path).fileName()), 10000);
        showError(tr("Export failed"), QString::fromUtf8(e.what()));
    }
}

void MainWindow::updateActions() {
    const QString noGraph = tr("Open a graph first (File ▸ Open, or File ▸ Open Example)");
    const bool open = openGraph() != nullptr;
    m_runAction->setEnabled(open);
    m_runAction->setToolTip(open ? tr("Start a run of the Run panel's method (F5)") : noGraph);
    m_sweepAction->setEnabled(open);
    m_sweepAction->setToolTip(
        open ? tr("Sample the graph at every temperature of the Temperature panel's sweep settings and "
                  "chart quality against diversity (Ctrl+T)")
             : noGraph);
    const bool sweep = m_sweepView->sweep() != nullptr;
    m_exportViewAction->setEnabled(open || sweep || m_studyView->summary() != nullptr);
    for (QAction* a : m_sweepFileActions) {
        a->setEnabled(sweep);
        a->setToolTip(sweep ? QString() : tr("Run a sweep (Run ▸ Sweep temperatures) or open one first"));
    }
    m_openScheduleAction->setEnabled(open);
    m_openScheduleAction->setToolTip(open ? tr("Open a schedule JSON of the open graph (Ctrl+Shift+O)")
                                          : tr("Open the schedule's graph first"));
    const QString why = exportRefusal();
    for (QAction* a : m_scheduleActions) {
        a->setEnabled(why.isEmpty());
        a->setToolTip(why.isEmpty() ? a->text().remove(QLatin1Char('&')).remove(QChar(0x2026)) : why);
    }
}

// ---- command-line settings for one launch ----

namespace {
const QStringList kLaunchGroups = {QStringLiteral("platform"), QStringLiteral("run"), QStringLiteral("temperature")};

std::map<QString, QVariant> panelSettings() {
    QSettings s;
    std::map<QString, QVariant> values;
    for (const QString& key : s.allKeys())
        if (kLaunchGroups.contains(key.section(QLatin1Char('/'), 0, 0))) values[key] = s.value(key);
    return values;
}
}   // namespace

bool MainWindow::applyForThisLaunch(const std::function<bool()>& flags) {
    // the panels write what they show; diffing the settings before and after the flags finds what they changed
    m_platform->saveSettings();
    m_runPanel->saveSettings();
    m_temperature->saveSettings();
    const auto before = panelSettings();
    const bool ok = flags();
    m_platform->saveSettings();
    m_runPanel->saveSettings();
    m_temperature->saveSettings();
    QSettings s;
    for (const auto& [key, value] : panelSettings()) {
        const auto was = before.find(key);
        if (was != before.end() && was->second == value) continue;
        m_launchOnly[key] = {was != before.end() ? was->second : QVariant(), value};
        if (was != before.end())
            s.setValue(key, was->second);
        else
            s.remove(key);
    }
    return ok;
}

void MainWindow::forgetLaunchSettings() {
    // a flag's value goes back to the saved one unless the user changed it since
    QSettings s;
    for (const auto& [key, values] : m_launchOnly) {
        if (s.value(key) != values.second) continue;
        if (values.first.isValid())
            s.setValue(key, values.first);
        else
            s.remove(key);
    }
}

QString MainWindow::recentTitle(const GraphOrigin& origin) const {
    const QString step =
        origin.training ? tr(" (training step, %1)").arg(updateRuleTitle(*origin.training)) : QString();
    if (origin.kind == GraphOrigin::Kind::Generated)
        return tr("Generated: %1, %2 ops, seed %3").arg(origin.family).arg(origin.ops).arg(origin.seed) + step;
    for (const auto& [title, resource] : bundledExamples())
        if (origin.kind == GraphOrigin::Kind::Bundled && origin.path == resource)
            return tr("Example: %1").arg(title) + step;
    return origin.path + step;
}

void MainWindow::onAsMeasuredAdded(const RunRecord& r) {
    if (const QModelIndex added = resultIndex(r.id); !m_document->shown() && added.isValid())
        selectResults({added.row()});
    Q_EMIT asMeasuredAdded(r.id);
}

void MainWindow::showRetimed(const RetimedShow& shown) {
    if (!shown.notFitting.isEmpty()) {
        m_resultsView->clearSelection();
        m_document->show(std::nullopt);
        statusBar()->showMessage(
            tr("The graph does not fit this machine, so no schedule is shown: %1").arg(shown.notFitting), 15000);
        return Q_EMIT shownRetimed();
    }
    if (!shown.dropped.isEmpty())
        statusBar()->showMessage(tr("No longer shown, as it does not fit %1: %2")
                                     .arg(shown.machine, shown.dropped.join(QStringLiteral("; "))),
                                 15000);
    QList<int> visible;
    for (int id : shown.ids)
        if (const QModelIndex i = resultIndex(id); i.isValid()) visible << i.row();
    if (!visible.isEmpty()) {
        selectResults(visible);
    } else {
        m_resultsView->clearSelection();
        m_document->show(shown.loose);
    }
    Q_EMIT shownRetimed();
}

}   // namespace sl::gui

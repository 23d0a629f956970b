// SPDX-License-Identifier: MIT
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/studyview.h"
#include "widgets/panels/sweepview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/panels/trainingmenu.h"
#include "widgets/session/background.h"
#include "widgets/session/criticalpath.h"
#include "widgets/session/document.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/runs.h"
#include "widgets/session/schedulerecord.h"
#include "widgets/session/sessionstore.h"
#include "widgets/session/studysession.h"
#include "widgets/session/units.h"
#include "widgets/views/compareview.h"
#include "widgets/views/convergenceview.h"
#include "widgets/views/dagview.h"
#include "widgets/views/exporter.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/memoryview.h"
#include "widgets/views/opselection.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/validator.h"
#include "core/graph/fingerprint.h"
#include "core/heuristics/evaluate.h"
#include "core/io/scheduleio.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QEventLoop>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QToolBar>

namespace sl::gui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<RunRecord>();
    qRegisterMetaType<Progress>();
    setWindowTitle(tr("SchedLab"));
    setAcceptDrops(true);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);
    m_document = new Document(this);
    m_runs = new Runs(m_document);
    m_selection = new OpSelection(this);
    connect(m_document, &Document::graphChanged, m_selection, &OpSelection::clear);   // before any view reads it

    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_dag = new DagView(m_tabs);
    m_gantt = new GanttView(m_tabs);
    m_memory = new MemoryView(m_tabs);
    m_convergence = new ConvergenceView(m_tabs);
    m_compare = new CompareView(m_tabs);
    m_sweepView = new SweepView(m_tabs);
    m_tabs->addTab(m_dag, tr("DAG"));
    m_tabs->addTab(m_gantt, tr("Gantt"));
    m_tabs->addTab(m_memory, tr("Memory"));
    m_tabs->addTab(m_convergence, tr("Convergence"));
    m_tabs->addTab(m_compare, tr("Compare"));
    m_tabs->addTab(m_sweepView, tr("Sweep"));
    m_studyView = new StudyView(m_tabs);
    m_tabs->addTab(m_studyView, tr("Study"));
    connectStudyView();
    m_study = new StudySession(this);
    connectStudySession();
    setCentralWidget(m_tabs);
    m_dag->observe(m_document);
    m_gantt->observe(m_document);
    m_memory->observe(m_document);
    m_convergence->observe(m_document);
    m_dag->setSelection(m_selection);
    connect(m_dag, &DagView::fileDropped, this,
            [this](const QString& path) {   // as dropEvent: the view's viewport takes the drop
                if (path.endsWith(QLatin1String(".sweep.json"), Qt::CaseInsensitive))
                    openSweep(path);
                else
                    openInBackground(m_trainingMenu->apply(GraphOrigin::file(path)));
            });
    m_gantt->setSelection(m_selection);
    m_memory->setSelection(m_selection);
    m_compare->setSelection(m_selection);

    buildDocks();
    buildActions();
    buildToolBar();
    connectTemperature();
    buildSessionKeeping();
    m_statusGraph = new QLabel(tr("No graph — File ▸ Open, Open Example, or drop a file here"), this);
    m_statusTimes = new QLabel(this);
    m_statusTimes->setObjectName(QStringLiteral("statusTimes"));
    m_statusTimes->setToolTip(
        tr("Where the op times come from: the file, a device's roofline (Platform ▸ Machine) or a measured profile"));
    m_statusLinks = new QLabel(this);
    m_statusLinks->setObjectName(QStringLiteral("statusLinks"));
    m_statusLinks->hide();
    m_statusRuns = new QLabel(this);
    m_statusWarnings = new QLabel(this);
    m_statusWarnings->setObjectName(QStringLiteral("statusWarnings"));
    m_statusWarnings->hide();
    statusBar()->addWidget(m_statusGraph, 1);
    statusBar()->addPermanentWidget(m_statusWarnings);
    statusBar()->addPermanentWidget(m_statusTimes);
    statusBar()->addPermanentWidget(m_statusLinks);
    statusBar()->addPermanentWidget(m_statusRuns);
    connect(m_selection, &OpSelection::currentChanged, this, [this](OpId v) {
        const OpenGraph* open = openGraph();
        if (!open || v < 0 || v >= open->graph->opCount()) return;
        const Op& op = open->graph->op(v);
        statusBar()->showMessage(tr("Selected %1 (%2), duration %3")
                                     .arg(QString::fromStdString(op.name), QString::fromStdString(op.type),
                                          formatDuration(op.duration, open->graph->timeUnit())),
                                 8000);
    });
    connect(m_document, &Document::graphChanged, this,
            &MainWindow::onGraphChanged);   // after the views: they are ready
    connect(m_document, &Document::timesChanged, this, &MainWindow::onTimesChanged);
    connect(m_document, &Document::shownChanged, this, &MainWindow::updateStatus);
    connect(m_document, &Document::shownRetimed, this, &MainWindow::showRetimed);
    watchRuns();
    connect(m_document, &Document::asMeasuredAdded, this, &MainWindow::onAsMeasuredAdded);
    connect(m_document, &Document::asMeasuredFailed, this, [this](const QString& why) {
        statusBar()->showMessage(tr("ONNX Runtime's order as a schedule: %1").arg(why), 15000);
    });

    QSettings s;
    restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    m_platform->restoreSettings();
    m_runPanel->restoreSettings();
    m_temperature->restoreSettings();
    m_platform->announceMachine();
    if (!s.contains(QStringLiteral("window/geometry"))) resize(1600, 1000);
    rebuildRecentMenu();
    connect(this, &MainWindow::sweepShown, this, &MainWindow::updateStatus);   // Save / Export Sweep become possible
    updateStatus();
}

MainWindow::~MainWindow() {
    delete m_study;                         // stops the study and waits for the run in flight
    m_session->discard();                   // an orderly end: only a crash or a kill leaves a session to restore
}

void MainWindow::buildDocks() {
    auto makeDock = [this](const QString& title, const QString& name, QWidget* w, bool scroll) {
        auto* dock = new QDockWidget(title, this);
        dock->setObjectName(name);
        dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable |
                          QDockWidget::DockWidgetClosable);
        if (scroll) {
            auto* area = new QScrollArea(dock);
            area->setWidget(w);
            area->setWidgetResizable(true);
            area->setFrameShape(QFrame::NoFrame);
            dock->setWidget(area);
        } else {
            dock->setWidget(w);
        }
        return dock;
    };
    m_platform = new PlatformPanel;
    m_platform->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);   // spare height goes to the run panel
    m_runPanel = new RunPanel;
    m_resultsView = new QTableView;
    m_resultsView->setObjectName(QStringLiteral("resultsView"));
    m_sorted = new QSortFilterProxyModel(this);
    m_sorted->setSourceModel(m_document->results());
    m_sorted->setSortRole(ResultsModel::SortRole);
    m_resultsView->setModel(m_sorted);
    m_resultsView->setSortingEnabled(true);
    m_resultsView->sortByColumn(-1, Qt::AscendingOrder);
    m_resultsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_resultsView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_resultsView->setEditTriggers(QAbstractItemView::EditKeyPressed | QAbstractItemView::DoubleClicked);
    m_resultsView->setAlternatingRowColors(true);
    m_resultsView->verticalHeader()->hide();
    m_resultsView->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_resultsView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_resultsView->horizontalHeader()->setSectionResizeMode(ResultsModel::Name, QHeaderView::Stretch);
    m_resultsView->horizontalHeader()->setMinimumSectionSize(
        fontMetrics().horizontalAdvance(QStringLiteral("Devices")) + 16);
    m_resultsView->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_resultsView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &MainWindow::onResultsSelectionChanged);

    auto* platformDock = makeDock(tr("Platform"), QStringLiteral("platformDock"), m_platform, false);   // never scrolls
    auto* runDock = makeDock(tr("Run"), QStringLiteral("runDock"), m_runPanel, true);
    auto* resultsDock = makeDock(tr("Results"), QStringLiteral("resultsDock"), buildResultsPane(), false);
    addDockWidget(Qt::LeftDockWidgetArea, platformDock);
    addDockWidget(Qt::LeftDockWidgetArea, runDock);
    addDockWidget(Qt::BottomDockWidgetArea, resultsDock);
    m_temperature = new TemperaturePanel;
    m_temperature->setObjectName(QStringLiteral("temperaturePanel"));
    m_platform->observe(m_document);
    m_runPanel->observe(m_document);
    m_temperature->observe(m_document);
    auto* temperatureDock = makeDock(tr("Temperature"), QStringLiteral("temperatureDock"), m_temperature, true);
    addDockWidget(Qt::RightDockWidgetArea, temperatureDock);
    resizeDocks({temperatureDock}, {400}, Qt::Horizontal);
    resizeDocks({platformDock}, {330}, Qt::Horizontal);
    resizeDocks({resultsDock}, {190}, Qt::Vertical);
    connect(m_platform, &PlatformPanel::loadFailed, this,
            [this](const QString& m) { showError(tr("Cannot load the platform"), m); });
    connect(m_runPanel, &RunPanel::runRequested, this, &MainWindow::startRun);
    connect(m_platform, &PlatformPanel::machineChosen, this, &MainWindow::setMachine);
    connect(m_platform, &PlatformPanel::machineRefused, this,
            [this](const QString& why) { showError(tr("Cannot build the machine"), why); });
    connect(m_platform, &PlatformPanel::profileRequested, this, &MainWindow::applyProfile);
    connect(m_platform, &PlatformPanel::profileClearRequested, this, &MainWindow::clearProfile);
    connect(m_runPanel, &RunPanel::cancelRequested, this, &MainWindow::cancelAll);
}

void MainWindow::buildActions() {
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    buildRunMenu();
    buildResultsActions();
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard shortcuts"), QKeySequence(Qt::Key_F1), this, &MainWindow::showShortcuts);
    help->addAction(tr("&About SchedLab"), this,
                    [this] { QMessageBox::about(this, tr("About SchedLab"), aboutText()); });
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_trainingMenu = new TrainingMenu(this);
    m_openAction = file->addAction(tr("&Open…"), QKeySequence::Open, this, [this] {
        QSettings s;
        const auto mode = m_trainingMenu->mode();   // the dialog says which step it opens
        const QString path = QFileDialog::getOpenFileName(
            this, mode ? tr("Open graph as its training step (%1)").arg(updateRuleTitle(*mode)) : tr("Open graph"),
            s.value(QStringLiteral("lastDir")).toString(),
            tr("Graphs (*.onnx *.json *.dot *.gv *.stg *.txt *.jss *.hlo *.et *.et.gz);;All files (*)"));
        if (path.isEmpty()) return;
        s.setValue(QStringLiteral("lastDir"), QFileInfo(path).absolutePath());
        openInBackground(m_trainingMenu->apply(GraphOrigin::file(path)));
    });
    m_openScheduleAction = file->addAction(tr("Open &Schedule…"), QKeySequence(tr("Ctrl+Shift+O")), this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open a schedule of the current graph"),
                                         QSettings().value(QStringLiteral("lastScheduleDir")).toString(),
                                         tr("Schedule JSON (*.json);;All files (*)"));
        if (path.isEmpty()) return;
        QSettings().setValue(QStringLiteral("lastScheduleDir"), QFileInfo(path).absolutePath());
        importSchedule(path);
    });
    file->addAction(tr("Open S&weep…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a temperature sweep"),
                                                          QSettings().value(QStringLiteral("lastSweepDir")).toString(),
                                                          tr("Sweep JSON (*.sweep.json *.json);;All files (*)"));
        if (path.isEmpty()) return;
        QSettings().setValue(QStringLiteral("lastSweepDir"), QFileInfo(path).absolutePath());
        openSweep(path);
    });
    file->addAction(tr("&New Study…"), this, [this] {
        const QString spec = QFileDialog::getOpenFileName(this, tr("New study: its file (graphs, methods, seeds)"),
                                                          QSettings().value(QStringLiteral("lastStudyDir")).toString(),
                                                          tr("Study file (*.study.json *.json);;All files (*)"));
        if (spec.isEmpty()) return;
        QString base = spec;
        base.remove(QRegularExpression(QStringLiteral("(\\.study)?\\.json$")));
        const QString db = QFileDialog::getSaveFileName(this, tr("New study: its database (an existing one resumes)"),
                                                        base + QStringLiteral(".db"), tr("Study database (*.db)"),
                                                        nullptr, QFileDialog::DontConfirmOverwrite);
        if (db.isEmpty()) return;
        QSettings().setValue(QStringLiteral("lastStudyDir"), QFileInfo(spec).absolutePath());
        runStudyHere(spec, db);
    });
    file->addAction(tr("Open St&udy…"), this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open a study (made by schedlab-cli study run)"),
                                                          QSettings().value(QStringLiteral("lastStudyDir")).toString(),
                                                          tr("Study database (*.db *.sqlite);;All files (*)"));
        if (path.isEmpty()) return;
        QSettings().setValue(QStringLiteral("lastStudyDir"), QFileInfo(path).absolutePath());
        openStudy(path);
    });
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    addOpenGraphMenus(file);
    file->addSeparator();
    buildSaveAndExportActions(file);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::addOpenGraphMenus(QMenu* file) {
    QMenu* examples = file->addMenu(tr("Open E&xample"));
    for (const auto& [title, resource] : bundledExamples()) {
        const QString r = resource;
        examples->addAction(title, this,
                            [this, r] { openInBackground(m_trainingMenu->apply(GraphOrigin::bundled(r))); });
    }
    QMenu* generate = file->addMenu(tr("&Generate"));
    for (const char* family : {"nn", "layered", "layered-typed", "erdos-renyi", "sbm", "jobshop"}) {
        const QString f = QString::fromLatin1(family);
        generate->addAction(f + QStringLiteral("…"), this, [this, f] {
            bool ok = false;
            const int n =
                QInputDialog::getInt(this, tr("Generate %1").arg(f), tr("Operations"), 200, 4, 200000, 50, &ok);
            if (ok) openInBackground(m_trainingMenu->apply(GraphOrigin::generated(f, n, 1)));
        });
    }
    file->addMenu(m_trainingMenu);
    connect(m_trainingMenu, &TrainingMenu::modeChosen, this, [this](std::optional<UpdateRule> mode) {
        if (openGraph()) openInBackground(openGraph()->origin.withTraining(mode));   // the shown graph in the new mode
    });
}

void MainWindow::buildSaveAndExportActions(QMenu* file) {
    m_saveAction = file->addAction(tr("&Save Schedule…"), QKeySequence::Save, this, &MainWindow::saveSchedule);
    m_sweepFileActions << file->addAction(tr("Save S&weep…"), this, [this] {
        if (!m_sweepView->sweep())
            return showError(tr("Nothing to save"), tr("Run a sweep first (Run ▸ Sweep temperatures)."));
        const QString path = QFileDialog::getSaveFileName(this, tr("Save sweep"), QStringLiteral("sweep.sweep.json"),
                                                          tr("Sweep JSON (*.sweep.json)"));
        if (!path.isEmpty()) saveSweep(path);
    });
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    m_scheduleActions = {
        m_saveAction,
        exportMenu->addAction(tr("Schedule &JSON…"), this,
                              [this] { exportSchedule(static_cast<int>(ExportKind::ScheduleJson)); }),
        exportMenu->addAction(tr("&CSV…"), this, [this] { exportSchedule(static_cast<int>(ExportKind::Csv)); }),
        exportMenu->addAction(tr("Chrome &trace (Perfetto)…"), this,
                              [this] { exportSchedule(static_cast<int>(ExportKind::ChromeTrace)); }),
        exportMenu->addAction(tr("Annotated &DOT…"), this,
                              [this] { exportSchedule(static_cast<int>(ExportKind::AnnotatedDot)); })};
    m_sweepFileActions << exportMenu->addAction(tr("S&weep as CSV…"), this, &MainWindow::exportSweepCsv);
    exportMenu->addSeparator();
    m_exportViewAction = exportMenu->addAction(tr("Current &view as PNG or SVG…"), QKeySequence(tr("Ctrl+E")), this,
                                               &MainWindow::exportView);
}

void MainWindow::buildViewMenu() {
    m_viewMenu = menuBar()->addMenu(tr("&View"));
    const QStringList names = {tr("&DAG"),     tr("&Gantt"), tr("&Memory"), tr("&Convergence"),
                               tr("C&ompare"), tr("S&weep"), tr("S&tudy")};
    for (int i = 0; i < names.size(); ++i)
        m_viewMenu->addAction(names[i], QKeySequence(QStringLiteral("Ctrl+%1").arg(i + 1)), this,
                              [this, i] { m_tabs->setCurrentIndex(i); });
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(tr("&Fit"), QKeySequence(tr("Ctrl+0")), this, [this] {
        if (m_tabs->currentWidget() == m_dag)
            m_dag->fit();
        else
            m_gantt->fit();
    });
    addGanttColourMenu(m_viewMenu);
    auto* transfers = m_viewMenu->addAction(tr("Show &transfers"));
    transfers->setCheckable(true);
    transfers->setChecked(true);
    connect(transfers, &QAction::toggled, m_gantt, &GanttView::setShowTransfers);
    m_viewMenu->addSeparator();
    for (auto* dock : findChildren<QDockWidget*>()) m_viewMenu->addAction(dock->toggleViewAction());
}

void MainWindow::addGanttColourMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("Gantt co&lours"));
    menu->setObjectName(QStringLiteral("ganttColourMenu"));
    auto* group = new QActionGroup(menu);
    const std::pair<QString, GanttView::ColourBy> choices[] = {
        {tr("&Automatic (by job on a job-shop, else by device)"), GanttView::ColourBy::Auto},
        {tr("By &device"), GanttView::ColourBy::Device},
        {tr("By op &type"), GanttView::ColourBy::OpType},
        {tr("By &job (job-shops)"), GanttView::ColourBy::Job}};
    for (const auto& [text, by] : choices) {
        QAction* a = menu->addAction(text, this, [this, by] { m_gantt->setColourBy(by); });
        a->setCheckable(true);
        a->setChecked(by == GanttView::ColourBy::Auto);
        group->addAction(a);
    }
}

void MainWindow::buildRunMenu() {
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    m_runAction = run->addAction(tr("&Run"), QKeySequence(Qt::Key_F5), this, &MainWindow::startRun);
    m_cancelAction = run->addAction(tr("&Cancel all runs"), QKeySequence(Qt::Key_Escape), this, &MainWindow::cancelAll);
    run->addSeparator();
    m_sweepAction =
        run->addAction(tr("S&weep temperatures"), QKeySequence(tr("Ctrl+T")), this, &MainWindow::startSweep);
    m_sweepAction->setToolTip(tr("Sample the graph at every temperature of the Temperature panel's sweep settings and "
                                 "chart quality against diversity (Ctrl+T)"));
    m_runAction->setToolTip(tr("Start a run of the Run panel's method (F5)"));
    m_cancelAction->setToolTip(tr("Stop every run, sampling and sweep; runs keep their best schedule (Esc)"));
}

void MainWindow::buildResultsActions() {   // the results table's context menu and keys
    auto* rename = new QAction(tr("Rename"), m_resultsView);
    rename->setShortcut(QKeySequence(Qt::Key_F2));
    rename->setShortcutContext(Qt::WidgetShortcut);
    connect(rename, &QAction::triggered, this, [this] {
        const QModelIndex i = m_resultsView->currentIndex();
        if (i.isValid()) m_resultsView->edit(i.siblingAtColumn(ResultsModel::Name));
    });
    auto* remove = new QAction(tr("Delete"), m_resultsView);
    remove->setShortcut(QKeySequence::Delete);
    remove->setShortcutContext(Qt::WidgetShortcut);
    connect(remove, &QAction::triggered, this, [this] {
        QList<int> rows;
        for (const QModelIndex& i : m_resultsView->selectionModel()->selectedRows())
            rows << m_sorted->mapToSource(i).row();
        std::sort(rows.begin(), rows.end(), std::greater<>());
        for (int r : rows) m_document->results()->removeRow(r);
    });
    auto* save = new QAction(tr("Save schedule…"), m_resultsView);
    connect(save, &QAction::triggered, this, &MainWindow::saveSchedule);
    m_scheduleActions << save;
    m_resultsView->addActions({rename, remove, save});
}

QList<QPair<QString, QString>> MainWindow::bundledExamples() {
    QList<QPair<QString, QString>> list = {
        {tr("ResNet-50 (ONNX, weights stripped)"), QStringLiteral(":/examples/resnet50.onnx")},
        {tr("ft06 job-shop (6 × 6)"), QStringLiteral(":/examples/ft06.txt")},
        {tr("Layered graph, 200 ops"), QStringLiteral(":/examples/layered200.json")}};
    return list;
}

const OpenGraph* MainWindow::openGraph() const { return m_document->graph(); }

ResultsModel* MainWindow::results() const { return m_document->results(); }

bool MainWindow::open(const GraphOrigin& origin, const QString& format) {
    // Loading runs on a worker like any other; the local loop keeps the window painting meanwhile.
    bool ok = false, finished = false;
    QEventLoop loop;
    openInBackground(origin, format, [&](bool success) {
        ok = success;
        finished = true;
        loop.quit();
    });
    if (!finished) loop.exec();
    return ok;
}

void MainWindow::openInBackground(const GraphOrigin& origin, const QString& format, std::function<void(bool)> done) {
    const QString name =
        origin.kind == GraphOrigin::Kind::Generated ? origin.family : QFileInfo(origin.path).fileName();
    statusBar()->showMessage(tr("Loading %1…").arg(name));
    QApplication::setOverrideCursor(Qt::BusyCursor);
    m_document->open(origin, format, [this, name, done = std::move(done)](bool opened, const QString& error) {
        QApplication::restoreOverrideCursor();
        if (!error.isEmpty()) showError(tr("Cannot open %1").arg(name), error);
        if (opened || !error.isEmpty()) statusBar()->clearMessage();
        if (done) done(opened);
    });
}

void MainWindow::onGraphChanged() {
    const OpenGraph& open = *openGraph();
    m_samplesWanted = false;   // a graph opens as itself, not as some sample's schedule
    setWindowTitle(tr("%1 — SchedLab").arg(open.displayName));
    m_trainingMenu->setMode(open.origin.training);
    watchDocumentFile();
    addRecent(open.origin);   // bundled examples too: Open Recent lists them by title
    if (!open.warnings.isEmpty()) statusBar()->showMessage(open.warnings.join(QStringLiteral("; ")), 10000);
    updateStatus();
    showResultsOfThisGraph();
    Q_EMIT documentLoaded();
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

void MainWindow::showError(const QString& title, const QString& message) {
    m_lastError = message;
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("errorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    box->open();   // not exec(): the event loop (and any runs) keep going
}

void MainWindow::addRecent(const GraphOrigin& origin) {
    GraphOrigin remembered = origin;
    if (origin.kind == GraphOrigin::Kind::File) remembered.path = QFileInfo(origin.path).absoluteFilePath();
    QSettings s;
    QVariantList recent = s.value(QStringLiteral("recentGraphs")).toList();
    recent.removeAll(remembered.toVariant());
    recent.prepend(remembered.toVariant());
    while (recent.size() > 10) recent.removeLast();
    s.setValue(QStringLiteral("recentGraphs"), recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    if (!m_recentMenu) return;
    m_recentMenu->clear();
    for (const QVariant& v : QSettings().value(QStringLiteral("recentGraphs")).toList())
        if (const auto origin = GraphOrigin::fromVariant(v.toMap()))
            m_recentMenu->addAction(recentTitle(*origin), this, [this, o = *origin] { openInBackground(o); });
    m_recentMenu->setEnabled(!m_recentMenu->isEmpty());
}

RunJob* MainWindow::startRun() {
    Q_ASSERT(QThread::currentThread() == thread());
    if (!openGraph()) {
        showError(tr("Nothing to run"), tr("Open a graph first (File ▸ Open, or File ▸ Open Example)."));
        return nullptr;
    }
    const QString method = m_runPanel->method();
    std::shared_ptr<Problem> problem;
    try {
        problem = m_document->problem();
        if (const QString why = m_runPanel->unavailableReason(method); !why.isEmpty())
            throw std::runtime_error(why.toStdString());
    } catch (const std::exception& e) {
        statusBar()->showMessage(tr("Cannot run %1: %2").arg(method, QString::fromUtf8(e.what())),
                                 15000);   // said where the eye is, too
        showError(tr("Cannot run %1").arg(method), QString::fromUtf8(e.what()));
        return nullptr;
    }
    return startRunOf(problem, method, m_runPanel->options());
}

RunJob* MainWindow::startRunOf(std::shared_ptr<const Problem> problem, const QString& method, RunOptions options) {
    try {
        return m_runs->start(std::move(problem), method, std::move(options));
    } catch (const std::exception& e) {   // a method that cannot keep the pins
        statusBar()->showMessage(tr("Cannot run %1: %2").arg(method, QString::fromUtf8(e.what())), 15000);
        showError(tr("Cannot run %1").arg(method), QString::fromUtf8(e.what()));
        return nullptr;
    }
}

void MainWindow::watchRuns() {
    connect(m_runs, &Runs::started, this, [this](RunJob* job) {
        m_convergence->setCostUnit(job->problem().objective.kind, job->problem().g().timeUnit());
        m_convergence->setLowerBound(0);   // until the worker has computed it
        connect(job, &RunJob::progressed, this, [this, job] {
            if (job != m_runs->watched()) return;
            m_convergence->setLowerBound(job->costBound());
            m_convergence->setHistory(tr("%1 #%2 (running)").arg(job->method()).arg(job->id()), job->history());
        });
        m_runPanel->addJob(job);
        updateStatus();
    });
    connect(m_runs, &Runs::finished, this, [this](RunJob* job, const RunRecord& r) {
        showAdded(r);
        if (job == m_runs->watched()) {
            m_convergence->setLowerBound(costBound(r));
            m_convergence->setHistory(r.name, r.result->history);
        }
        statusBar()->showMessage(
            tr("%1 finished: cost %2 in %3")
                .arg(r.name, formatCost(r.result->cost, r.problem->objective.kind, r.problem->g().timeUnit()),
                     formatDuration(r.result->seconds, TimeUnit::Seconds)),
            8000);
        Q_EMIT runFinished(r);
    });
    connect(m_runs, &Runs::failed, this, [this](RunJob* job, const QString& message) {
        if (job == m_runs->watched())
            m_convergence->setHistory(tr("%1 #%2 (no schedule)").arg(job->method()).arg(job->id()), job->history());
        showError(tr("%1 failed").arg(job->method()), message);
        Q_EMIT runFailed(message);
    });
    connect(m_runs, &Runs::ended, this, &MainWindow::updateStatus);
}

void MainWindow::cancelAll() {
    m_runs->cancelAll();
    m_study->stop();   // the runs stored so far stay
    m_studyWaiting.reset();
    m_temperature->cancel();
}

int MainWindow::activeRuns() const { return m_runs->active(); }

void MainWindow::showTab(Tab t) { m_tabs->setCurrentIndex(static_cast<int>(t)); }

QWidget* MainWindow::currentViewWidget() const {
    QWidget* w = m_tabs->currentWidget();
    if (w == m_dag) return m_dag->canvas();
    return w;
}

void MainWindow::updateStatus() {
    if (const OpenGraph* open = openGraph()) {
        const Graph& g = *open->graph;
        showTimesSource(open->timing.source);
        m_statusGraph->setText(
            tr("%1 — %2 ops, %3 edges, %4 tensors, total work %5")
                .arg(open->timing.name.isEmpty() ? open->displayName : open->timing.name)   // the times: beside it
                .arg(g.opCount())
                .arg(g.edgeCount())
                .arg(g.tensorCount())
                .arg(formatDuration(g.totalWork(), g.timeUnit())));
        showReaderWarnings(open->warnings);
    }
    showLinks(m_document->machine().platform);
    m_statusRuns->setText(m_runs->active() == 0 ? tr("idle") : tr("%n run(s) active", nullptr, m_runs->active()));
    updateActions();
}

/// What the reader said about the open file (a tensor larger than any device, skipped ops) stays
/// in view: a permanent status-bar label, which transient messages do not cover; the whole text
/// in its tooltip.
void MainWindow::showReaderWarnings(const QStringList& warnings) {
    m_statusWarnings->setVisible(!warnings.isEmpty());
    if (warnings.isEmpty()) return;
    const QString first =
        warnings.front().size() > 90 ? warnings.front().left(89) + QStringLiteral("…") : warnings.front();
    m_statusWarnings->setText(
        warnings.size() == 1 ? tr("⚠ %1").arg(first)
                             : tr("⚠ %1 (and %n more)", nullptr, static_cast<int>(warnings.size() - 1)).arg(first));
    m_statusWarnings->setToolTip(warnings.join(QLatin1Char('\n')));
}

void MainWindow::showShortcuts() {
    QString rows;
    for (QAction* a : findChildren<QAction*>())
        if (!a->shortcut().isEmpty() && !a->text().isEmpty())
            rows += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(a->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             a->text().remove(QLatin1Char('&')).toHtmlEscaped());
    rows += tr("<tr><td><b>Wheel</b></td><td>Zoom (Gantt, DAG); Shift+wheel pans the Gantt</td></tr>"
               "<tr><td><b>Drag</b></td><td>Pan</td></tr><tr><td><b>Double-click</b></td><td>Fit the Gantt</td></tr>"
               "<tr><td><b>Ctrl+click</b></td><td>Select two results to compare</td></tr>");
    QMessageBox::information(this, tr("Keyboard shortcuts"),
                             QStringLiteral("<table cellspacing=6>%1</table>").arg(rows));
}

void MainWindow::closeEvent(QCloseEvent* e) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    m_platform->saveSettings();
    m_runPanel->saveSettings();
    m_temperature->saveSettings();
    forgetLaunchSettings();
    cancelAll();
    e->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    const auto urls = e->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        const QString path = urls.first().toLocalFile();
        if (path.endsWith(QLatin1String(".sweep.json"), Qt::CaseInsensitive))
            openSweep(path);
        else
            openInBackground(m_trainingMenu->apply(GraphOrigin::file(path)));
        e->acceptProposedAction();
    }
}

}   // namespace sl::gui

namespace sl::gui {

void MainWindow::buildToolBar() {
    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    m_openAction->setIcon(style()->standardIcon(QStyle::SP_DialogOpenButton));
    m_runAction->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
    m_cancelAction->setIcon(style()->standardIcon(QStyle::SP_MediaStop));
    m_sweepAction->setIcon(style()->standardIcon(QStyle::SP_FileDialogContentsView));
    bar->addAction(m_openAction);
    bar->addSeparator();
    bar->addAction(m_runAction);
    bar->addAction(m_cancelAction);
    bar->addSeparator();
    bar->addAction(m_sweepAction);
}

}   // namespace sl::gui

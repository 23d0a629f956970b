// SPDX-License-Identifier: MIT
#pragma once
// The explorer's main window: menus, docks (platform, run, results), the view tabs and the runs in
// flight. It owns the Document (widgets/session/document.h) and wires the views to observe it; views never
// talk to each other: they share the Document and OpSelection.
#include "widgets/session/graphorigin.h"
#include "widgets/session/latestrequest.h"
#include "widgets/session/types.h"
#include "widgets/views/exporter.h"

#include <QMainWindow>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>

class QComboBox;
class QFileSystemWatcher;
class QLabel;
class QMenu;
class QPushButton;
class QTabWidget;
class QTableView;
class QSortFilterProxyModel;

namespace sl {
struct Sweep;
class ScheduleEditor;
struct OpPlace;
}   // namespace sl

namespace sl::gui {

class CompareView;
class ConvergenceView;
class DagView;
class Document;
class GanttView;
class MemoryView;
class OpSelection;
class PlatformPanel;
class ResultsModel;
struct OpenGraph;
class RunJob;
class Runs;
class RunPanel;
class ScheduleEdits;
class SessionStore;
struct OrphanSession;
struct SessionGraph;
class StudyView;
struct RetimedShow;
struct Machine;
class StudySession;
class TaskState;
class SweepView;
class TemperaturePanel;
class TrainingMenu;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum Tab { DagTab, GanttTab, MemoryTab, ConvergenceTab, CompareTab, SweepTab, StudyTab };
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens the graph `origin` names, reading it on a worker thread; emits documentLoaded() when it
    /// lands. On failure shows an error dialog and keeps the open graph. If another open starts
    /// meanwhile, only the latest lands. `done` gets success. `format` empty: by the extension.
    void openInBackground(const GraphOrigin& origin, const QString& format = {}, std::function<void(bool)> done = {});
    /// openInBackground() and wait for it (the window keeps painting): for the command line and
    /// tests. Returns success.
    bool open(const GraphOrigin& origin, const QString& format = {});
    /// open() of a plain file.
    bool openFile(const QString& path, const QString& format = {}) { return open(GraphOrigin::file(path), format); }
    /// Reads a schedule JSON file for the current graph on a worker, re-validates it and adds it to
    /// the results. The schedule's own platform is set in the Platform panel when it differs; a
    /// schedule of another graph is refused naming both. Errors name the file. `done` gets success.
    void importSchedule(const QString& path, std::function<void(bool)> done = {});
    /// The same for a schedule JSON in memory (a study's stored run), `name` standing for its file.
    void importScheduleText(std::string json, const QString& name, std::function<void(bool)> done = {});
    /// Writes the selected result to `path` on a worker (Save Schedule and File ▸ Export, without
    /// the dialog). Refused with a sentence when no result of the open graph is selected.
    void exportSelected(ExportKind kind, const QString& path, std::function<void(bool)> done = {});
    /// Which results the table shows: those of the open graph (the default) or all of this session.
    enum class ResultsScope { ThisGraph, AllGraphs };
    void setResultsScope(ResultsScope scope);
    /// The line above the results: counts, or why the selection is not drawn.
    QString resultsNotice() const;
    /// Makes the graph of model row `row` the open graph again (from memory, no file read).
    void switchToGraphOf(int row);
    /// Runs `flags` (the command line's settings) for this launch only: the panel settings they
    /// change are not saved when the window closes, unless changed again by hand. Returns `flags`'s.
    bool applyForThisLaunch(const std::function<bool()>& flags);
    /// "Version, Qt, build type, bundled models" for Help ▸ About.
    static QString aboutText();
    /// Starts a run of the run panel's method and options on the current graph; null on error.
    RunJob* startRun();
    void cancelAll();
    /// Reads a sweep JSON file on a worker and shows it in the Sweep tab; errors name the file.
    void openSweep(const QString& path, std::function<void(bool)> done = {});
    /// Writes the shown sweep as JSON (atomically) or CSV by the suffix; false (error dialog) on failure.
    bool saveSweep(const QString& path);
    /// Starts a temperature sweep of the current graph with the Temperature panel's settings.
    void startSweep();
    /// Shows temperature `index` of the shown sweep's best schedule in the DAG, Gantt and memory views.
    void showSweepPoint(int index, bool jumpToGantt = false);
    /// Selects result rows as shown (one: show it; two: compare them).
    void selectResults(const QList<int>& rows);
    void showTab(Tab t);
    /// The widget the "export current view" action renders.
    QWidget* currentViewWidget() const;
    static QList<QPair<QString, QString>> bundledExamples();   ///< {title, path}

    /// What the views observe: the open graph, the machine, the results, the schedule on show.
    Document* document() const { return m_document; }
    /// The open graph (null: none); document()->graph().
    const OpenGraph* openGraph() const;
    ResultsModel* results() const;
    QTableView* resultsView() const { return m_resultsView; }
    OpSelection* selection() const { return m_selection; }
    PlatformPanel* platformPanel() const { return m_platform; }
    RunPanel* runPanel() const { return m_runPanel; }
    DagView* dagView() const { return m_dag; }
    GanttView* ganttView() const { return m_gantt; }
    MemoryView* memoryView() const { return m_memory; }
    ConvergenceView* convergenceView() const { return m_convergence; }
    CompareView* compareView() const { return m_compare; }
    TemperaturePanel* temperaturePanel() const { return m_temperature; }
    TrainingMenu* trainingMenu() const { return m_trainingMenu; }
    SweepView* sweepView() const { return m_sweepView; }
    StudyView* studyView() const { return m_studyView; }
    /// Opens a study database in the Study tab (read on a worker).
    void openStudy(const QString& path);
    /// Runs the study of `specPath` into `dbPath` (created when missing, else resumed) on workers;
    /// the Study tab fills in as runs are stored, the status bar counts them, Cancel all stops it
    /// (the runs stored so far stay; running it again resumes). A study naming a neural method
    /// starts once the neural module is loaded. False when one is running or waiting.
    bool runStudyHere(const QString& specPath, const QString& dbPath);
    bool studyRunning() const;
    /// Hand edits of the schedule on show (the Gantt chart's drags, the Edit menu).
    ScheduleEdits* scheduleEdits() const { return m_edits; }
    int activeRuns() const;
    /// Errors are also reported here (tests, --screenshot); the dialog still shows.
    QString lastError() const { return m_lastError; }
    /// Applies the measured profile at `path` to the open graph (the Platform panel's Profile…):
    /// its ops take their measured times, the schedule on show is re-timed. A profile of another
    /// model is refused with the core's message (status bar, error dialog) and changes nothing.
    bool applyProfile(const QString& path);
    /// Back to the times of the file or the machine's devices; the schedule on show is re-timed.
    void clearProfile();
    /// Schedules on show being re-timed on a worker (after a machine or profile change).
    bool retimingShown() const;

    /// Where sessions are autosaved (AppDataLocation/sessions unless set before construction; tests).
    static void setSessionRoot(const QString& root) { m_sessionRoot = root; }
    SessionStore& sessionStore() const;
    /// Asks whether to restore the newest session a crashed or killed explorer left (interactive
    /// launches only: it shows a modal question).
    void offerSessionRestore();
    /// Reopens the session's graphs and re-imports its results; returns how many came back.
    int restoreSession(const OrphanSession& s);
    /// The open graph's file changed on disk since it was opened (the status bar offers Reload).
    bool fileChangedOnDisk() const;
    /// Maps the neural module (LibTorch) on a worker, then registers its methods on this thread
    /// and adds them to the run and temperature panels (core/plugin/neuralmodule.h): the window
    /// shows first. Emits neuralMethodsLoaded(); when they are unavailable, the status bar says why.
    void loadNeuralMethodsInBackground();

Q_SIGNALS:
    void documentLoaded();
    void runFinished(const sl::gui::RunRecord& r);
    void runFailed(const QString& message);
    /// A schedule reached the views from the Temperature panel or the sweep (not a result row).
    void scheduleShown(const sl::gui::RunRecord& r);
    void sweepShown();
    void neuralMethodsLoaded(bool available);
    /// The schedules on show when the op times or the machine changed are shown re-timed (or
    /// left, when they do not fit): the re-timing has landed.
    void shownRetimed();
    /// An ONNX Runtime trace's own order is a result row now (result `id`).
    void asMeasuredAdded(int id);

protected:
    void closeEvent(QCloseEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

private:
    /// The neural module is still being built (scripts/explore.sh): loads it once the build's
    /// stamp file appears, and says so in the status bar meanwhile.
    void waitForNeuralModuleBuild(const QString& stamp);
    void buildActions();
    void buildFileMenu();
    void addOpenGraphMenus(QMenu* file);   ///< examples, generators, training step
    void buildSaveAndExportActions(QMenu* file);
    void buildViewMenu();
    void addGanttColourMenu(QMenu* view);   ///< automatic, device, op type, job
    void buildRunMenu();
    // ---- hand edits of a schedule (mainwindowedit.cpp) ----
    void buildEditMenu();
    /// Moves the selected op to `place(editor, op)` (the keyboard's moves); the status bar says why not.
    void moveSelectedOp(const std::function<std::optional<OpPlace>(const ScheduleEditor&, OpId)>& place);
    void updateEditActions();
    /// Runs `method` from the schedule on show (RunOptions::start) on that schedule's problem.
    void improveFromHere(const QString& method);
    /// Opens a study run's graph and schedule (the Study tab's double-click).
    void openStudyRun(const QString& graph, const QString& method, quint64 seed);
    /// Two runs of one graph opened and shown in Compare (the Study tab's two selected cells).
    void compareStudyRuns(const QString& graph, const QString& first, const QString& second, quint64 seed);
    /// A study run's stored schedule JSON; empty (and said why) on failure.
    std::string studyRunJson(const QString& graph, const QString& method, quint64 seed);
    GraphOrigin studyGraphOrigin(const QString& graph) const;
    void connectStudyView();
    void connectStudySession();
    /// The spec's methods the registry lacks ("" when none): the neural ones until their module is
    /// loaded. Throws when the spec or database cannot be read.
    QStringList studyMethodsMissing(const QString& specPath, const QString& dbPath) const;
    /// The study runStudyHere left waiting for the neural module, now that its load has ended.
    void startStudyWaitingForNeural();
    void importScheduleFrom(const QString& path, std::optional<std::string> json, std::function<void(bool)> done);
    /// A run of `method` with `options` on `problem` (startRun's second half).
    RunJob* startRunOf(std::shared_ptr<const Problem> problem, const QString& method, RunOptions options);
    void buildResultsActions();
    void buildDocks();
    void showError(const QString& title, const QString& message);
    /// The window's own part of a graph opening (the views follow the document themselves).
    void onGraphChanged();
    /// The Platform panel's machine into the document; the schedules on show are re-timed when
    /// the op times or the catalogue machine changed (mainwindowtiming.cpp).
    void setMachine(const Machine& machine);
    // ---- op times of the open graph on the machine chosen (mainwindowtiming.cpp) ----
    /// The window's part of a change of times: title, status bar, the results of these times.
    void onTimesChanged(bool newGraph);
    /// Where the open graph's times come from, in the status bar (elided; property "fullText").
    void showTimesSource(const QString& source);
    /// The status bar's "links shared" / "links free" (hidden on abstract devices).
    void showLinks(const Platform& platform);
    /// The re-timed schedules on show (Document::shownRetimed()): their rows selected (else the
    /// loose one shown, or nothing), and the status bar names those that do not fit. Emits shownRetimed().
    void showRetimed(const RetimedShow& shown);
    /// ONNX Runtime's order of the trace applied, a result now: drawn when nothing else is.
    void onAsMeasuredAdded(const RunRecord& r);
    /// Stamps the record with its graph, adds the row, selects it (showAdded) and returns the stamped record.
    RunRecord addResult(RunRecord r);
    /// Result `id`'s row in the sorted, filtered table; invalid when it is not listed there.
    QModelIndex resultIndex(int id) const;
    /// A result just added is drawn, unless two are being compared.
    void showAdded(const RunRecord& r);
    /// The runs' signals to the convergence view, the run panel and the status bar.
    void watchRuns();
    QWidget* buildResultsPane();
    // ---- keeping the user's work (mainwindowsession.cpp) ----
    void buildSessionKeeping();
    void watchDocumentFile();
    /// Scope filter to the open graph's results, counts updated.
    void showResultsOfThisGraph();
    void updateResultsNotice(const QString& refusal = {});
    /// Why the selected results cannot be saved or exported; empty when they can.
    QString exportRefusal() const;
    void updateActions();
    void forgetLaunchSettings();
    QString recentTitle(const GraphOrigin& origin) const;
    void addRecent(const GraphOrigin& origin);
    void rebuildRecentMenu();
    void onResultsSelectionChanged();
    void exportSchedule(int kind);
    void exportView();
    void saveSchedule();
    void updateStatus();
    void showReaderWarnings(const QStringList& warnings);
    void buildToolBar();
    void connectTemperature();
    /// Builds the record of a sweep point's best schedule on a worker, then calls `then` with it.
    void withSweepRecord(int index, std::function<void(const RunRecord&)> then);
    /// `s` (the panel's sweep of the open graph, whole or so far) in the Sweep tab, titled by the graph.
    void showSweepOfOpenGraph(const Sweep& s);
    void exportSweepCsv();
    void showShortcuts();
    std::optional<RunRecord> selectedRecord() const;

    Document* m_document;
    /// Saves a finished result of a graph of this session for a restore after a crash
    /// (mainwindowsession.cpp); Document::resultAdded() calls it.
    void autosave(const RunRecord& r);
    std::unique_ptr<SessionStore> m_session;
    inline static QString m_sessionRoot;
    QFileSystemWatcher* m_fileWatcher = nullptr;
    QWidget* m_fileChanged = nullptr;   // "X changed on disk [Reload]" in the status bar
    /// Settings the command line changed for this launch: {saved before, set by the flags}.
    std::map<QString, std::pair<QVariant, QVariant>> m_launchOnly;
    QComboBox* m_resultsScope = nullptr;
    QLabel* m_resultsNotice = nullptr;
    QPushButton* m_switchGraph = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportViewAction = nullptr;
    QAction* m_openScheduleAction = nullptr;
    QList<QAction*> m_scheduleActions;    // save and export a result: need one of the open graph
    QList<QAction*> m_sweepFileActions;   // save and export the sweep: need one shown
    OpSelection* m_selection;
    QSortFilterProxyModel* m_sorted;
    QTableView* m_resultsView;
    PlatformPanel* m_platform;
    RunPanel* m_runPanel;
    QTabWidget* m_tabs;
    DagView* m_dag;
    GanttView* m_gantt;
    MemoryView* m_memory;
    ConvergenceView* m_convergence;
    CompareView* m_compare;
    SweepView* m_sweepView;
    StudyView* m_studyView = nullptr;
    StudySession* m_study = nullptr;   // a study running here (runStudyHere)
    std::optional<std::pair<QString, QString>>
        m_studyWaiting;   // spec and database: runStudyHere waits for the neural module
    TemperaturePanel* m_temperature = nullptr;
    bool m_neuralLoadStarted = false;
    bool m_neuralLoadEnded = false;   // loaded, or failed to: the registries are final
    bool m_samplesWanted = false;   // the user moved the temperature (since the graph opened): samples go to the views
    ScheduleEdits* m_edits = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QList<QAction*> m_moveActions;      // the keyboard's moves of the selected op
    QList<QAction*> m_improveActions;   // run a method that accepts a start from the schedule on show
    QAction* m_sweepAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_openAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    TrainingMenu* m_trainingMenu = nullptr;   // File ▸ Training Step
    QMenu* m_viewMenu = nullptr;
    QLabel* m_statusGraph;
    QLabel* m_statusTimes = nullptr;      // where the op times come from
    QLabel* m_statusLinks = nullptr;      // shared or free links (machines with a topology)
    QLabel* m_statusWarnings = nullptr;   // the open file's reader warnings
    QLabel* m_statusRuns;
    Runs* m_runs;
    QString m_lastError;
};

}   // namespace sl::gui

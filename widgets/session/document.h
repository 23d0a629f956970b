// SPDX-License-Identifier: MIT
#pragma once
// The explorer's document: the open graph (with its origin as typed fields), every graph opened
// this session, the machine it is scheduled on, the results, and the schedule on show. Views
// observe it: each connects to the signals of what it shows and reads the document back (see
// observe() in DagView, GanttView, MemoryView, ConvergenceView, PlatformPanel, TemperaturePanel).
// MainWindow wires views to it and changes it; it never hands a view its data.
#include "widgets/session/graphloader.h"
#include "widgets/session/shownretiming.h"
#include "widgets/session/types.h"

#include <QObject>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace sl::gui {

class ResultsModel;

/// A graph opened this session, remembered to title its results and to reopen it from them.
struct SessionGraph {
    std::uint64_t fingerprint = 0;
    QString title;
    QString path;
    GraphOrigin origin;
    std::optional<Platform> platform;
    std::weak_ptr<const Graph> graph;   // weak: only results keep a closed graph alive
    /// A re-timed graph's timing: the graph as read it re-derives from (held, so that it can be
    /// opened again as it was) and the profile on it. `asRead` is null for a graph as read.
    GraphTiming timing;
};

/// The machine the Platform panel describes: what a schedule of the open graph is made for.
struct Machine {
    Platform platform;
    ObjectiveSpec objective;
    TargetModel target = TargetModel::Proxy;
};

class Document : public QObject {
    Q_OBJECT
public:
    explicit Document(QObject* parent = nullptr);

    /// The open graph; null while none is.
    const OpenGraph* graph() const { return m_graph ? &*m_graph : nullptr; }
    /// Makes `g` the open graph and remembers it for the session; a schedule on show that is not
    /// of `g` leaves the views. Emits graphChanged() (then shownChanged() if the shown one left).
    void setGraph(OpenGraph g);
    /// Reads `origin` on a worker (widgets/session/graphloader.h), then makes it the open graph.
    /// Only the newest request lands: `done(true, {})` for it, `done(false, why)` when it could not
    /// be read, and `done(false, {})` for a request that a newer one (or reopenGraphOf) replaced.
    void open(const GraphOrigin& origin, const QString& format,
              std::function<void(bool opened, const QString& error)> done);
    /// The session's graph with this fingerprint, or null.
    const SessionGraph* sessionGraph(std::uint64_t fingerprint) const;
    /// Reopens a graph of this session from a result that keeps it alive (no file read; a read in
    /// flight no longer lands); false when the result's graph is not one of this session's.
    bool reopenGraphOf(const RunRecord& r);

    const Machine& machine() const { return m_machine; }
    /// The machine's target as finished schedules are scored on it: with the measured target, the
    /// open graph's measured times (its profile; the graph itself keeps the machine's estimates).
    ScoringTarget scoringTarget() const;
    /// Emits machineChanged(). The open graph's times are derived again on the new machine
    /// (widgets/session/graphtiming.h): true when they changed (timesChanged() was emitted). The
    /// schedules on show are re-timed there when the times, the real machine or its links changed
    /// (shownRetimed() follows). Throws std::exception, keeping the machine and the times, when they
    /// cannot be derived there.
    bool setMachine(Machine m);
    /// Applies the measured profile at `path` (schedlab's JSON or ONNX Runtime's trace) to the open
    /// graph and derives its times again: true when they changed (the schedules on show follow). An
    /// ONNX Runtime trace also adds the order it ran as a result (asMeasuredAdded()). Throws
    /// std::exception with the core's message (a profile of another model, a file that is not a
    /// profile): nothing changes.
    bool applyProfile(const QString& path);
    /// The open graph's times without the profile; true when they changed (the schedules on show follow).
    bool clearProfile();
    /// Whether the schedules on show are being re-timed for a new machine or profile.
    bool retimingShown() const { return m_retiming->inFlight(); }
    /// The open graph on the machine, with the pins; throws std::exception when nothing is open or
    /// it cannot be scheduled there (the message says why).
    std::shared_ptr<Problem> problem() const;
    /// Ops pinned by hand (core/costmodel/pins.h): part of every run's problem and of the hand
    /// edits' checks. Cleared when another graph opens. setPins() emits pinsChanged().
    const Pins& pins() const { return m_pins; }
    void setPins(Pins pins);

    ResultsModel* results() const { return m_results; }
    /// Stamps `r` with its graph (fingerprint, title), adds it to the results and returns it.
    /// Emits resultAdded().
    RunRecord addResult(RunRecord r);
    /// A new result's id, unique in the session.
    int nextRunId() { return m_nextRunId++; }
    /// Whether `r` was made for the open graph (same graph object, or the same content).
    bool ofOpenGraph(const RunRecord& r) const;

    /// The schedule the views draw; none when nothing is selected. A record of another graph is
    /// never shown over the open one: it shows nothing instead. Emits shownChanged().
    void show(const std::optional<RunRecord>& r);
    /// Shows `drawn` and compares `other` with it (two results of the open graph).
    void showCompared(const RunRecord& drawn, const RunRecord& other);
    const std::optional<RunRecord>& shown() const { return m_shown; }
    /// The schedules on show: the one drawn and the one compared with it; while they are being
    /// re-timed and none is shown yet, those the re-timing started from.
    std::vector<RunRecord> onShow() const;

Q_SIGNALS:
    void graphChanged();
    void machineChanged();
    /// The open graph's timing changed (another machine, a profile applied or cleared): where its
    /// times come from, and when `newGraph`, the times themselves (a graph of the same ops and
    /// edges, another object and fingerprint). A schedule on show of the earlier times leaves.
    void timesChanged(bool newGraph);
    void shownChanged();
    void pinsChanged();
    void resultAdded(const sl::gui::RunRecord& r);
    /// The schedules on show re-timed after a change of machine or profile: what to show now.
    void shownRetimed(const sl::gui::RetimedShow& shown);
    /// ONNX Runtime's order of an applied trace, added as a result.
    void asMeasuredAdded(const sl::gui::RunRecord& r);
    /// Why ONNX Runtime's order could not be made a schedule.
    void asMeasuredFailed(const QString& why);

private:
    void remember(const OpenGraph& g);
    /// The open graph's times derived again from its timing (graph as read, profile) on the
    /// machine; true when they changed. Emits nothing; throws when the machine's models are unknown.
    bool retimeOpenGraph(GraphTiming timing);
    /// After a change of timing: timesChanged(), and the shown schedule leaves if of other times.
    void announceTimes(bool newGraph);
    /// A profile applied or cleared: the open graph's times from `timing`, announced, and the
    /// schedules on show re-timed when they changed; true when they did.
    bool changeTiming(GraphTiming timing);
    /// ONNX Runtime's order of the applied trace as a result, made on a worker.
    void addAsMeasured();
    /// The session's graph whose object is `graph`; null if none.
    const SessionGraph* sessionGraphHolding(const std::shared_ptr<const Graph>& graph) const;

    std::optional<OpenGraph> m_graph;
    std::vector<SessionGraph> m_sessionGraphs;
    Machine m_machine;
    ResultsModel* m_results;
    std::optional<RunRecord> m_shown;
    std::optional<RunRecord> m_compared;   // the second of two results compared
    Pins m_pins;
    int m_nextRunId = 1;
    ShownRetiming* m_retiming;
    LatestRequest m_loads;   // only the newest graph read lands
};

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/session/document.h"

#include "widgets/session/background.h"
#include "widgets/session/graphtiming.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/schedulerecord.h"

#include "core/costmodel/sharedlinks.h"
#include "core/graph/fingerprint.h"
#include "core/profile/measuredschedule.h"

#include <stdexcept>

namespace sl::gui {

Document::Document(QObject* parent)
    : QObject(parent), m_results(new ResultsModel(this)), m_retiming(new ShownRetiming(this)) {
    connect(m_retiming, &ShownRetiming::landed, this, &Document::shownRetimed);
}

void Document::setPins(Pins pins) {
    m_pins = std::move(pins);
    Q_EMIT pinsChanged();
}

void Document::setGraph(OpenGraph g) {
    // a reload keeps the pins, whatever machine times it
    const bool samePins =
        m_graph && (m_graph->fingerprint == g.fingerprint || m_graph->timing.asReadFingerprint == g.fingerprint);
    const bool fromFile = !g.timing.asRead;   // else a graph of this session opened again, as it was
    if (fromFile)
        g.timing = {.name = g.displayName,
                    .asRead = g.graph,
                    .asReadFingerprint = g.fingerprint,
                    .source = tr("the file's own times")};
    m_graph = std::move(g);
    if (fromFile) {
        try {   // on the machine chosen: a preset stays chosen from one graph to the next
            retimeOpenGraph(m_graph->timing);
        } catch (const std::exception& e) {
            m_graph->timing.source = tr("the file's own times (%1)").arg(QString::fromUtf8(e.what()));
        }
    }
    if (!samePins && !m_pins.empty()) setPins({});
    remember(*m_graph);
    Q_EMIT graphChanged();
    if (m_shown && !ofOpenGraph(*m_shown)) show(std::nullopt);
}

void Document::remember(const OpenGraph& g) {
    // one entry per graph content, kept for the session (a few strings): results of an earlier load
    // of the same file, holding their own copy of the graph, still find their title and way back
    std::erase_if(m_sessionGraphs, [&](const SessionGraph& s) { return s.fingerprint == g.fingerprint; });
    GraphTiming timing = g.timing;
    if (timing.asRead == g.graph && !timing.profile) timing.asRead.reset();   // as read: nothing more to keep alive
    m_sessionGraphs.push_back({g.fingerprint, g.displayName, g.path, g.origin, g.platform, g.graph, std::move(timing)});
}

const SessionGraph* Document::sessionGraph(std::uint64_t fingerprint) const {
    for (const SessionGraph& s : m_sessionGraphs)
        if (s.fingerprint == fingerprint) return &s;
    return nullptr;
}

const SessionGraph* Document::sessionGraphHolding(const std::shared_ptr<const Graph>& graph) const {
    const SessionGraph* found = nullptr;
    for (const SessionGraph& s : m_sessionGraphs)
        if (s.graph.lock() == graph) found = &s;
    return found;
}

void Document::open(const GraphOrigin& origin, const QString& format,
                    std::function<void(bool opened, const QString& error)> done) {
    const LatestRequest::Ticket ticket = m_loads.next();
    runInBackground(
        this, [origin, format] { return readGraph(origin, format); },
        [this, ticket, done = std::move(done)](Outcome<OpenGraph> loaded) {
            if (!m_loads.isLatest(ticket)) return done(false, {});
            if (!loaded.value) return done(false, loaded.error);
            setGraph(std::move(*loaded.value));
            done(true, {});
        });
}

bool Document::reopenGraphOf(const RunRecord& r) {
    const SessionGraph* s = sessionGraph(r.graphFingerprint);
    if (!s) return false;
    m_loads.supersede();   // a read still in flight must not land over this one
    OpenGraph g;
    g.graph = r.problem->graph;   // the result keeps its graph alive: no file to read again
    g.fingerprint = r.graphFingerprint;
    g.origin = s->origin;
    g.path = s->path;
    g.displayName = s->title;
    g.platform = s->platform;
    g.timing = s->timing;
    if (!g.timing.asRead) g.timing.asRead = g.graph;   // a graph as read
    setGraph(std::move(g));
    return true;
}

bool Document::setMachine(Machine m) {
    const std::vector<RunRecord> before = onShow();
    const std::string linksBefore = linksDescription(m_machine.platform);
    std::swap(m_machine, m);
    bool changed = false;
    try {
        changed = m_graph && retimeOpenGraph(m_graph->timing);
    } catch (...) {
        std::swap(m_machine, m);   // the machine it could time stays
        throw;
    }
    Q_EMIT machineChanged();
    if (!m_graph) return changed;
    announceTimes(changed);
    // new times, another real machine, or its links shared or freed: the schedules on show follow
    if (changed || m.platform.name != m_machine.platform.name || linksDescription(m_machine.platform) != linksBefore)
        m_retiming->retime(before);
    return changed;
}

bool Document::applyProfile(const QString& path) {
    if (!m_graph) throw std::runtime_error(tr("Open the graph the profile was measured on first.").toStdString());
    GraphTiming timing = m_graph->timing;
    timing.profile = readAndApplyProfile(path, timing.asRead);
    const bool changed = changeTiming(std::move(timing));
    addAsMeasured();
    return changed;
}

bool Document::clearProfile() {
    if (!m_graph || !m_graph->timing.profile) return false;
    GraphTiming timing = m_graph->timing;
    timing.profile.reset();
    return changeTiming(std::move(timing));
}

bool Document::changeTiming(GraphTiming timing) {
    const std::vector<RunRecord> before = onShow();
    const bool changed = retimeOpenGraph(std::move(timing));
    announceTimes(changed);
    if (changed) m_retiming->retime(before);
    return changed;
}

void Document::addAsMeasured() {
    const std::shared_ptr<const GraphProfile> profile = m_graph->timing.profile;
    if (!profile || !profile->applied.ort) return;
    std::shared_ptr<const Problem> problem;
    try {
        problem = this->problem();
    } catch (const std::exception&) {
        return;   // the graph does not fit the machine: the re-timing says so
    }
    const std::vector<std::vector<OpId>> threads = profile->applied.ort->measuredOrderPerThread;
    const int id = nextRunId();
    const QString name = threads.size() == 1 ? tr("as measured (ONNX Runtime's order, 1 thread)")
                                             : tr("as measured (ONNX Runtime's order, %1 threads)").arg(threads.size());
    runInBackground(
        this,
        [id, name, problem, threads] {
            return recordOfSchedule(id, name, QStringLiteral("onnxruntime"), problem,
                                    asMeasuredSchedule(*problem, threads));
        },
        [this, problem](Outcome<RunRecord> landed) {
            if (!m_graph || m_graph->graph != problem->graph) return;   // other times since: not this run's order
            if (!landed.value) return Q_EMIT asMeasuredFailed(landed.error);
            Q_EMIT asMeasuredAdded(addResult(std::move(*landed.value)));
        });
}

bool Document::retimeOpenGraph(GraphTiming timing) {
    timing.profileIsTarget = m_machine.target == TargetModel::Measured;
    std::shared_ptr<const Graph> timed = deriveTimes(timing, m_machine.platform);   // throws before any change
    const std::uint64_t fingerprint = timed == m_graph->graph ? m_graph->fingerprint : graphFingerprint(*timed);
    m_graph->timing = std::move(timing);
    if (fingerprint == m_graph->fingerprint) return false;   // the same times: results drawn over this graph stay
    if (const SessionGraph* s = sessionGraph(fingerprint))   // these times before: the object its results hold
        if (auto earlier = s->graph.lock()) timed = std::move(earlier);
    m_graph->graph = std::move(timed);
    m_graph->fingerprint = fingerprint;
    m_graph->displayName = timedTitle(m_graph->timing);
    remember(*m_graph);
    return true;
}

void Document::announceTimes(bool newGraph) {
    Q_EMIT timesChanged(newGraph);
    if (m_shown && !ofOpenGraph(*m_shown)) show(std::nullopt);
}

ScoringTarget Document::scoringTarget() const {
    return {.model = m_machine.target, .seed = 1, .measured = m_graph ? m_graph->timing.judgedOn : nullptr};
}

std::shared_ptr<Problem> Document::problem() const {
    if (!m_graph) throw std::runtime_error("Open a graph first (File ▸ Open, or File ▸ Open Example).");
    auto problem = std::make_shared<Problem>();
    problem->graph = m_graph->graph;
    problem->platform = m_machine.platform;
    problem->objective = m_machine.objective;
    problem->pins = m_pins;
    problem->check();
    return problem;
}

RunRecord Document::addResult(RunRecord r) {
    const SessionGraph* s = sessionGraphHolding(r.problem->graph);
    r.graphFingerprint = s ? s->fingerprint : graphFingerprint(*r.problem->graph);
    if (!s) s = sessionGraph(r.graphFingerprint);
    r.graphTitle = s ? s->title : tr("unnamed graph");
    m_results->add(r);
    Q_EMIT resultAdded(r);
    return r;
}

bool Document::ofOpenGraph(const RunRecord& r) const {
    if (!m_graph || !r.problem) return false;
    return r.problem->graph == m_graph->graph ||
        (r.graphFingerprint != 0 && r.graphFingerprint == m_graph->fingerprint);
}

void Document::show(const std::optional<RunRecord>& r) {
    m_shown = r && ofOpenGraph(*r) ? r : std::nullopt;
    m_compared.reset();
    Q_EMIT shownChanged();
}

void Document::showCompared(const RunRecord& drawn, const RunRecord& other) {
    show(drawn);
    if (m_shown && ofOpenGraph(other)) m_compared = other;
}

std::vector<RunRecord> Document::onShow() const {
    std::vector<RunRecord> out;
    if (m_shown) out.push_back(*m_shown);
    if (m_compared) out.push_back(*m_compared);
    if (out.empty() && m_retiming->inFlight()) out = m_retiming->retiming();
    return out;
}

}   // namespace sl::gui

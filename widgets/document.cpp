// SPDX-License-Identifier: MIT
#include "widgets/document.h"

#include "widgets/resultsmodel.h"

#include "core/graph/fingerprint.h"

#include <stdexcept>

namespace sl::gui {

Document::Document(QObject* parent) : QObject(parent), m_results(new ResultsModel(this)) {}

void Document::setPins(Pins pins) {
    m_pins = std::move(pins);
    Q_EMIT pinsChanged();
}

void Document::setGraph(OpenGraph g) {
    const bool samePins = m_graph && m_graph->fingerprint == g.fingerprint;   // a reload keeps them
    m_graph = std::move(g);
    if (!samePins && !m_pins.empty()) setPins({});
    remember(*m_graph);
    Q_EMIT graphChanged();
    if (m_shown && !ofOpenGraph(*m_shown)) show(std::nullopt);
}

void Document::remember(const OpenGraph& g) {
    // one entry per graph content, kept for the session (a few strings): results of an earlier load
    // of the same file, holding their own copy of the graph, still find their title and way back
    std::erase_if(m_sessionGraphs, [&](const SessionGraph& s) { return s.fingerprint == g.fingerprint; });
    m_sessionGraphs.push_back({g.fingerprint, g.displayName, g.path, g.origin, g.platform, g.graph});
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

bool Document::reopenGraphOf(const RunRecord& r) {
    const SessionGraph* s = sessionGraph(r.graphFingerprint);
    if (!s) return false;
    OpenGraph g;
    g.graph = r.problem->graph;   // the result keeps its graph alive: no file to read again
    g.fingerprint = r.graphFingerprint;
    g.origin = s->origin;
    g.path = s->path;
    g.displayName = s->title;
    g.platform = s->platform;
    setGraph(std::move(g));
    return true;
}

void Document::setMachine(Machine m) {
    m_machine = std::move(m);
    Q_EMIT machineChanged();
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
    return r;
}

bool Document::ofOpenGraph(const RunRecord& r) const {
    if (!m_graph || !r.problem) return false;
    return r.problem->graph == m_graph->graph || (r.graphFingerprint != 0 && r.graphFingerprint == m_graph->fingerprint);
}

void Document::show(const std::optional<RunRecord>& r) {
    m_shown = r && ofOpenGraph(*r) ? r : std::nullopt;
    Q_EMIT shownChanged();
}

} // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "core/graph/graph.h"

#include "core/util/limits.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <queue>
#include <sstream>

namespace sl {

std::string_view toString(TimeUnit u) {
    switch (u) {
    case TimeUnit::Microseconds: return "us";
    case TimeUnit::Seconds: return "s";
    case TimeUnit::Abstract: break;
    }
    return "units";
}

bool parseTimeUnit(std::string_view text, TimeUnit& out) {
    for (TimeUnit u : {TimeUnit::Abstract, TimeUnit::Microseconds, TimeUnit::Seconds})
        if (text == toString(u)) {
            out = u;
            return true;
        }
    return false;
}

namespace {

bool badNumber(double x) { return !std::isfinite(x) || x < 0; }

/// Whole numbers up to 2^53 in total (kMaxTotalBytes): every memory sum is then exact.
bool badBytes(double x) { return badNumber(x) || x != std::floor(x); }

std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

/// "... is above the limit 1e+15 (--limit duration=...)": says which knob raises it.
std::string aboveLimit(double limit, const char* key) {
    return " is above the limit " + fmt(limit) + " (raise it with --limit " + key + "=N or SCHEDLAB_LIMITS)";
}

void checkDuration(const std::string& who, const char* what, double d) {
    if (badNumber(d)) throw GraphError(who + ": " + what + " " + fmt(d) + " is not a finite non-negative number");
    if (d > limits().duration) throw GraphError(who + ": " + what + " " + fmt(d) + aboveLimit(limits().duration, "duration"));
}

void checkBytes(const std::string& who, const char* what, double b) {
    if (badBytes(b)) throw GraphError(who + ": " + what + " " + fmt(b) + " is not a whole number of bytes (0 or more)");
    if (b > limits().tensorBytes) throw GraphError(who + ": " + what + " " + fmt(b) + " bytes" + aboveLimit(limits().tensorBytes, "tensor-bytes"));
}

} // namespace

OpId Graph::addOp(Op op) {
    m_finalized = false;
    const auto id = static_cast<OpId>(m_ops.size());
    m_byName.emplace(op.name, id); // duplicates are reported by finalize()
    m_ops.push_back(std::move(op));
    return id;
}

TensorId Graph::addTensor(std::string name, OpId producer, double bytes) {
    m_finalized = false;
    m_tensors.push_back(Tensor{std::move(name), producer, {}, bytes});
    return static_cast<TensorId>(m_tensors.size() - 1);
}

void Graph::addConsumer(TensorId tensor, OpId consumer) {
    m_finalized = false;
    if (tensor < 0 || tensor >= tensorCount())
        throw GraphError("consumer " + std::to_string(consumer) + " refers to missing tensor " +
                         std::to_string(tensor));
    m_tensors[static_cast<size_t>(tensor)].consumers.push_back(consumer);
}

TensorId Graph::addEdge(OpId from, OpId to, double bytes) {
    auto name = (from >= 0 && from < opCount() ? op(from).name : std::string("?")) + "->" +
                (to >= 0 && to < opCount() ? op(to).name : std::string("?"));
    const TensorId t = addTensor(std::move(name), from, bytes);
    addConsumer(t, to);
    return t;
}

Op& Graph::mutableOp(OpId id) {
    m_finalized = false;
    return m_ops[static_cast<size_t>(id)];
}

void Graph::setTiming(OpId id, double duration, std::vector<double> deviceDurations, TimeSource source) {
    Op& o = m_ops[static_cast<size_t>(id)];
    const std::string who = "op '" + o.name + "'";
    checkDuration(who, "duration", duration);
    for (double d : deviceDurations) checkDuration(who, "per-device duration", d);
    o.duration = duration;
    o.deviceDurations = std::move(deviceDurations);
    o.timeSource = source;
}

OpId Graph::findOp(std::string_view name) const {
    auto it = m_byName.find(std::string(name));
    return it == m_byName.end() ? kNoOp : it->second;
}

double Graph::totalWork() const {
    double w = 0;
    for (const Op& o : m_ops) w += o.duration;
    return w;
}

void Graph::validateFields() const {
    std::unordered_map<std::string_view, OpId> seen;
    for (OpId v = 0; v < opCount(); ++v) {
        const Op& o = op(v);
        const std::string who = "op '" + o.name + "'";
        if (o.name.empty()) throw GraphError("op #" + std::to_string(v) + " has an empty name");
        if (auto [it, fresh] = seen.emplace(o.name, v); !fresh)
            throw GraphError("duplicate op name '" + o.name + "' (ops #" + std::to_string(it->second) +
                             " and #" + std::to_string(v) + ")");
        checkDuration(who, "duration", o.duration);
        checkBytes(who, "parameter bytes", o.paramBytes);
        if (badNumber(o.resourceDemand)) throw GraphError(who + ": resource demand " + fmt(o.resourceDemand) + " is not a finite non-negative number");
        if (o.machineType < 0) throw GraphError(who + ": negative machine type " + std::to_string(o.machineType));
        if (o.machineType >= limits().devices)   // each machine type needs a device of its own
            throw GraphError(who + ": machine type " + std::to_string(o.machineType) + aboveLimit(static_cast<double>(limits().devices - 1), "devices"));
        for (double d : o.deviceDurations) checkDuration(who, "per-device duration", d);
    }
    for (TensorId t = 0; t < tensorCount(); ++t) {
        const Tensor& x = tensor(t);
        const std::string who = "tensor '" + x.name + "'";
        if (x.producer < 0 || x.producer >= opCount())
            throw GraphError(who + " has no valid producer (dangling reference " + std::to_string(x.producer) + ")");
        checkBytes(who, "size", x.bytes);
        for (OpId c : x.consumers) {
            if (c < 0 || c >= opCount())
                throw GraphError(who + " has a dangling consumer reference " + std::to_string(c));
            if (c == x.producer) throw GraphError(who + " is consumed by its own producer '" + op(c).name + "' (a cycle)");
        }
    }
    double total = 0;
    for (const Tensor& x : m_tensors) total += x.bytes;
    for (const Op& o : m_ops) total += o.paramBytes;
    if (total > kMaxTotalBytes) throw GraphError("the tensors and parameters total " + fmt(total) + " bytes, more than 2^53");
    double work = 0;   // the largest per-device duration bounds what any schedule can add up
    for (const Op& o : m_ops) {
        double longest = o.duration;
        for (double d : o.deviceDurations) longest = std::max(longest, d);
        work += longest;
    }
    if (work > limits().totalDuration)
        throw GraphError("the durations total " + fmt(work) + aboveLimit(limits().totalDuration, "total-duration"));
    if (opCount() > limits().ops) throw GraphError(std::to_string(opCount()) + " ops" + aboveLimit(static_cast<double>(limits().ops), "ops"));
}

void Graph::buildAdjacency() {
    const auto n = static_cast<size_t>(opCount());
    std::vector<std::vector<OpId>> preds(n), succs(n);
    std::vector<std::vector<TensorId>> ins(n), outs(n);
    m_outputBytes.assign(n, 0.0);
    for (TensorId t = 0; t < tensorCount(); ++t) {
        const Tensor& x = tensor(t);
        outs[static_cast<size_t>(x.producer)].push_back(t);
        m_outputBytes[static_cast<size_t>(x.producer)] += x.bytes;
        for (OpId c : x.consumers) {
            ins[static_cast<size_t>(c)].push_back(t);
            preds[static_cast<size_t>(c)].push_back(x.producer);
            succs[static_cast<size_t>(x.producer)].push_back(c);
        }
    }
    auto flatten = [n](auto& lists, std::vector<int>& start, auto& data, bool dedup) {
        start.assign(n + 1, 0);
        data.clear();
        for (size_t v = 0; v < n; ++v) {
            auto& l = lists[v];
            if (dedup) {
                std::sort(l.begin(), l.end());
                l.erase(std::unique(l.begin(), l.end()), l.end());
            }
            data.insert(data.end(), l.begin(), l.end());
            start[v + 1] = static_cast<int>(data.size());
        }
    };
    flatten(preds, m_predStart, m_preds, true);
    flatten(succs, m_succStart, m_succs, true);
    flatten(ins, m_inStart, m_ins, true);
    flatten(outs, m_outStart, m_outs, false);
}

void Graph::checkAcyclic() {
    const auto n = static_cast<size_t>(opCount());
    std::vector<int> indeg(n);
    for (size_t v = 0; v < n; ++v) indeg[v] = static_cast<int>(predecessors(static_cast<OpId>(v)).size());
    std::priority_queue<OpId, std::vector<OpId>, std::greater<>> ready;
    for (size_t v = 0; v < n; ++v)
        if (indeg[v] == 0) ready.push(static_cast<OpId>(v));
    m_topo.clear();
    m_topo.reserve(n);
    while (!ready.empty()) {
        const OpId v = ready.top();
        ready.pop();
        m_topo.push_back(v);
        for (OpId s : successors(v))
            if (--indeg[static_cast<size_t>(s)] == 0) ready.push(s);
    }
    if (m_topo.size() == n) return;

    // Name the ops of one cycle: the smallest non-trivial strongly connected component (Boost.Graph).
    using BGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
    BGraph bg(n);
    for (size_t v = 0; v < n; ++v)
        for (OpId s : successors(static_cast<OpId>(v))) boost::add_edge(v, static_cast<size_t>(s), bg);
    std::vector<int> comp(n);
    const int k = boost::strong_components(bg, comp.data());
    std::vector<std::vector<OpId>> members(static_cast<size_t>(k));
    for (size_t v = 0; v < n; ++v) members[static_cast<size_t>(comp[v])].push_back(static_cast<OpId>(v));
    const std::vector<OpId>* cyc = nullptr;
    for (const auto& m : members)
        if (m.size() > 1 && (!cyc || m.size() < cyc->size())) cyc = &m;
    std::string names;
    const size_t shown = cyc ? std::min<size_t>(cyc->size(), 12) : 0;
    for (size_t i = 0; i < shown; ++i) names += (i ? ", " : "") + op((*cyc)[i]).name;
    if (cyc && cyc->size() > shown) names += ", ... (" + std::to_string(cyc->size()) + " ops)";
    m_topo.clear();
    throw GraphError("the graph has a cycle through ops: " + names);
}

void Graph::finalize() {
    if (m_finalized) return;
    validateFields();
    buildAdjacency();
    checkAcyclic();
    m_finalized = true;
}

} // namespace sl

// SPDX-License-Identifier: MIT
// Graphviz DOT, read with cgraph (under sl::graphvizMutex(): cgraph is not thread safe) and
// written as plain text. Nodes are ops (attributes duration, type, param_bytes,
// resource_demand, machine_type, device_durations="a,b,..."); edges are tensors (attributes
// bytes and tensor: edges leaving one node with the same tensor name are one tensor with several
// consumers; an edge without a tensor name is a tensor of its own named "tail->head").
#include "core/io/graphio.h"
#include "core/io/dotprescan.h"
#include "core/io/graphvizlock.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <graphviz/cgraph.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace sl {

using namespace io_detail;

namespace {

std::string g_cgraphErrors;   // guarded by graphvizMutex()

int collectCgraphError(char* message) {
    g_cgraphErrors += message;
    return 0;
}

struct RawNode {
    std::string name;
    std::map<std::string, std::string> attrs;
};
struct RawEdge {
    std::uint64_t seq;
    std::size_t tail, head;
    std::string tensor;
    std::string bytes;
};
struct RawDot {
    bool directed = true;
    std::vector<RawNode> nodes;
    std::vector<RawEdge> edges;
};

const char* kNodeAttrs[] = {"duration", "type", "param_bytes", "resource_demand", "machine_type", "device_durations"};

/// Everything cgraph is needed for, under the Graphviz lock; returns plain data.
RawDot parseWithCgraph(const std::string& text, const std::string& source) {
    std::lock_guard lock(graphvizMutex());
    g_cgraphErrors.clear();
    const agusererrf previousHandler = agseterrf(collectCgraphError);
    agreseterrors();
    Agraph_t* g = agmemread(text.c_str());
    // cgraph may return the part it read before an error (e.g. "memory exhausted" on very deep
    // nesting or very long edge chains): that is a failure too, never a partial graph.
    const bool failed = !g || agerrors() > 0;
    agreseterrors();
    agseterrf(previousHandler);
    if (failed) {
        if (g) agclose(g);
        std::string why = g_cgraphErrors.empty() ? std::string("not a DOT graph") : g_cgraphErrors;
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        for (const char* prefix : {"Warning: ", "Error: "})
            for (std::size_t at; (at = why.find(prefix)) != std::string::npos;) why.erase(at, std::strlen(prefix));
        // cgraph says "syntax error in line N near 'x'": report it as file:N.
        if (const auto at = why.rfind("in line "); at != std::string::npos) {
            const auto line = parseInteger(why.substr(at + 8, why.find_first_not_of("0123456789", at + 8) - (at + 8)));
            if (line) failAt(source, *line, "invalid DOT: " + why);
        }
        if (why.find("memory exhausted") != std::string::npos)
            why += " (cgraph's parser stack is full: too deeply nested, or a very long a -> b -> c chain)";
        fail(source, "invalid DOT: " + why);
    }
    struct Closer {
        Agraph_t* g;
        ~Closer() { agclose(g); }
    } closer{g};
    // agnnodes is a counter; agnedges is not used: it sums dtsize over each node's edge tree,
    // which recurses once per edge of a degenerate tree (a node with a million out-edges overflows
    // the stack). The edge walk below counts instead.
    if (agnnodes(g) > limits().ops) fail(source, std::to_string(agnnodes(g)) + " nodes is more than this reader accepts" + limitNote("ops", static_cast<double>(limits().ops)));
    RawDot raw;
    raw.directed = agisdirected(g);
    std::map<Agnode_t*, std::size_t> index;
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n)) {
        RawNode node;
        node.name = agnameof(n);
        for (const char* key : kNodeAttrs)
            if (const char* v = agget(n, const_cast<char*>(key)); v && *v) node.attrs[key] = v;
        index[n] = raw.nodes.size();
        raw.nodes.push_back(std::move(node));
    }
    for (Agnode_t* n = agfstnode(g); n; n = agnxtnode(g, n))
        for (Agedge_t* e = agfstout(g, n); e; e = agnxtout(g, e)) {
            RawEdge edge{AGSEQ(e), index[agtail(e)], index[aghead(e)], {}, {}};
            if (const char* v = agget(e, const_cast<char*>("tensor")); v && *v) edge.tensor = v;
            if (const char* v = agget(e, const_cast<char*>("bytes")); v && *v) edge.bytes = v;
            raw.edges.push_back(std::move(edge));
            if (static_cast<std::int64_t>(raw.edges.size()) > limits().edges)
                fail(source, "more than " + std::to_string(limits().edges) + " edges" + limitNote("edges", static_cast<double>(limits().edges)));
        }
    std::sort(raw.edges.begin(), raw.edges.end(), [](const RawEdge& a, const RawEdge& b) { return a.seq < b.seq; });
    return raw;
}

double numberAttr(const RawNode& n, const char* key, double fallback, const std::string& source) {
    auto it = n.attrs.find(key);
    if (it == n.attrs.end()) return fallback;
    const auto v = parseNumber(it->second);
    if (!v) fail(source, "node '" + n.name + "': " + key + "=\"" + it->second + "\" is not a number");
    return *v;
}

} // namespace

namespace io_detail {

LoadedGraph readDot(std::string_view text, const std::string& source) {
    prescanDot(text, source);
    const RawDot raw = parseWithCgraph(std::string(text), source);
    if (raw.nodes.empty()) fail(source, "the graph has no nodes");
    LoadedGraph out;
    if (!raw.directed) out.warnings.push_back("undirected graph: each edge is read as tail -> head");
    auto g = std::make_shared<Graph>();
    int noDuration = 0;
    for (const RawNode& n : raw.nodes) {
        Op op;
        op.name = n.name;
        if (auto it = n.attrs.find("type"); it != n.attrs.end()) op.type = it->second;
        if (!n.attrs.count("duration")) ++noDuration;
        op.duration = numberAttr(n, "duration", 0, source);
        op.paramBytes = numberAttr(n, "param_bytes", 0, source);
        op.resourceDemand = numberAttr(n, "resource_demand", 1, source);
        if (auto it = n.attrs.find("machine_type"); it != n.attrs.end()) {
            const auto m = parseInteger(it->second);
            if (!m || *m < 0 || *m > 1'000'000)
                fail(source, "node '" + n.name + "': machine_type=\"" + it->second + "\" is not a non-negative whole number");
            op.machineType = static_cast<int>(*m);
        }
        if (auto it = n.attrs.find("device_durations"); it != n.attrs.end()) {
            std::stringstream list(it->second);
            for (std::string item; std::getline(list, item, ',');) {
                const auto v = parseNumber(item);
                if (!v) fail(source, "node '" + n.name + "': device_durations holds '" + item + "', not a number");
                op.deviceDurations.push_back(*v);
            }
        }
        g->addOp(std::move(op));
    }
    std::map<std::pair<std::size_t, std::string>, TensorId> named;
    for (const RawEdge& e : raw.edges) {
        const std::string& tail = raw.nodes[e.tail].name;
        const std::string& head = raw.nodes[e.head].name;
        double bytes = 0;
        if (!e.bytes.empty()) {
            const auto v = parseNumber(e.bytes);
            if (!v) fail(source, "edge " + tail + " -> " + head + ": bytes=\"" + e.bytes + "\" is not a number");
            bytes = *v;
        }
        TensorId t;
        if (e.tensor.empty()) {
            t = g->addTensor(tail + "->" + head, static_cast<OpId>(e.tail), bytes);
        } else if (auto it = named.find({e.tail, e.tensor}); it != named.end()) {
            t = it->second;
            if (g->tensor(t).bytes != bytes)
                fail(source, "edge " + tail + " -> " + head + ": tensor '" + e.tensor + "' has " + formatNumber(bytes) +
                                 " bytes here but " + formatNumber(g->tensor(t).bytes) + " on another edge");
        } else {
            t = g->addTensor(e.tensor, static_cast<OpId>(e.tail), bytes);
            named[{e.tail, e.tensor}] = t;
        }
        g->addConsumer(t, static_cast<OpId>(e.head));
    }
    finalizeGraph(*g, source);
    out.graph = std::move(g);
    if (noDuration > 0) out.warnings.push_back(std::to_string(noDuration) + " ops had no duration; 0 used");
    return out;
}

} // namespace io_detail

std::string io_detail::dotQuoted(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    if (out.size() > 1 && out.back() == '\\') out += ' ';
    return out + "\"";
}

std::string io_detail::dotOpAttributes(const Op& o) {
    // Numbers are quoted: DOT's bare numerals have no exponent ("1e-308" would split in two).
    auto num = [](double x) { return dotQuoted(formatNumber(x)); };
    std::string s;
    if (!o.type.empty()) s += ", type=" + dotQuoted(o.type);
    s += ", duration=" + num(o.duration);
    if (o.paramBytes != 0) s += ", param_bytes=" + num(o.paramBytes);
    if (o.resourceDemand != 1) s += ", resource_demand=" + num(o.resourceDemand);
    if (o.machineType != 0) s += ", machine_type=" + std::to_string(o.machineType);
    if (!o.deviceDurations.empty()) {
        std::string list;
        for (double d : o.deviceDurations) list += (list.empty() ? "" : ",") + formatNumber(d);
        s += ", device_durations=" + dotQuoted(list);
    }
    return s;
}

std::string io_detail::dotTensorEdge(const Graph& g, const Tensor& t, OpId consumer) {
    return dotQuoted(g.op(t.producer).name) + " -> " + dotQuoted(g.op(consumer).name) + " [tensor=" + dotQuoted(t.name) +
           ", bytes=" + dotQuoted(formatNumber(t.bytes));
}

std::string graphToDot(const Graph& g) {
    using namespace io_detail;
    std::string s = "digraph schedlab {\n";
    for (const Op& o : g.ops()) s += "  " + dotQuoted(o.name) + " [" + dotOpAttributes(o).substr(2) + "];\n";
    for (const Tensor& t : g.tensors())
        for (OpId c : t.consumers) s += "  " + dotTensorEdge(g, t, c) + "];\n";
    return s + "}\n";
}

} // namespace sl

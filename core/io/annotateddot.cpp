// SPDX-License-Identifier: MIT
// The graph as Graphviz DOT, annotated with a schedule: ops filled with their device's colour and
// labelled "#position name", dashed edges where a tensor crosses devices (red when the copy takes
// time), a device legend. The op and tensor attributes are the ones the DOT reader reads, so the
// file loads back as the graph.
#include "core/io/scheduleio.h"

#include "core/io/ioutil.h"
#include "core/io/scheduleformat.h"
#include "core/util/atomicfile.h"

namespace sl {
namespace {

/// A label: Graphviz expands \N, \G, \l... in labels, so backslashes are doubled to stay literal.
std::string label(const std::string& s) {
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') {
            out += "\\n";
            continue;
        }
        out += c;
    }
    return out + "\"";
}

std::string html(const std::string& s) {
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        default: out += c;
        }
    }
    return out;
}

} // namespace

void saveAnnotatedDot(const Problem& p, const Schedule& s, const std::string& path) {
    scheduleformat::checkShape(p, s, path);
    using scheduleformat::number;
    const Graph& g = p.g();
    const std::vector<int> position = scheduleformat::positions(p, s);
    std::string out;
    out.reserve(static_cast<size_t>(g.opCount()) * 160);
    out += "// SchedLab schedule";
    if (!s.method.empty()) out += " of " + s.method + " (seed " + std::to_string(s.seed) + ")";
    out += ": makespan " + number(s.makespan) + ", peak memory " + number(s.peakMemory()) + " bytes (" + toString(s.memoryClock) +
           " clock)\n";
    out += "digraph schedule {\n";
    // the legend: one cell per device in its colour
    out += "  graph [labelloc=t, fontname=\"Helvetica\", label=<<table border=\"0\" cellspacing=\"2\"><tr>";
    out += "<td>" + html(s.method.empty() ? std::string("schedule") : s.method) + " &#8212; makespan " + number(s.makespan) + "</td>";
    for (int d = 0; d < p.platform.deviceCount(); ++d)
        out += "<td bgcolor=\"" + scheduleformat::deviceColour(d) + "\">" + html(scheduleformat::deviceName(p, d)) + "</td>";
    out += "</tr></table>>];\n";
    out += "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n";
    out += "  edge [color=\"#555555\"];\n";
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Op& op = g.op(v);
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        const int pos = position[static_cast<size_t>(v)];
        out += "  " + io_detail::dotQuoted(op.name) + " [label=" + label("#" + std::to_string(pos) + " " + op.name);
        out += ", fillcolor=\"" + scheduleformat::deviceColour(o.device) + "\"";
        out += ", tooltip=" + label(scheduleformat::deviceName(p, o.device) + ": " + number(o.start) + " - " + number(o.end));
        out += ", device=" + std::to_string(o.device) + ", position=" + std::to_string(pos);
        out += ", start=" + io_detail::dotQuoted(number(o.start)) + ", end=" + io_detail::dotQuoted(number(o.end));
        out += io_detail::dotOpAttributes(op) + "];\n";   // what the DOT reader reads back
    }
    // one edge per (tensor, consumer), as the DOT reader expects; dashed where the tensor crosses devices
    for (const Tensor& t : g.tensors()) {
        if (t.producer == kNoOp) continue;
        const int from = s.ops[static_cast<size_t>(t.producer)].device;
        for (OpId c : t.consumers) {
            out += "  " + io_detail::dotTensorEdge(g, t, c);
            if (s.ops[static_cast<size_t>(c)].device != from)   // crosses devices; red when the copy takes time
                out += p.platform.transferTime(from, s.ops[static_cast<size_t>(c)].device, t.bytes) > 0 ? ", style=dashed, color=\"#d62728\"" : ", style=dashed";
            out += "];\n";
        }
    }
    out += "}\n";
    writeFileAtomically(path, out);
}

} // namespace sl

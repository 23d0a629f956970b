// SPDX-License-Identifier: MIT
// Schedule CSV: one row per op, in the schedule's order (RFC 4180 quoting).
#include "core/io/scheduleio.h"

#include "core/io/graphio.h"
#include "core/io/scheduleformat.h"
#include "core/util/atomicfile.h"

namespace sl {
namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

} // namespace

void saveScheduleCsv(const Problem& p, const Schedule& s, const std::string& path) {
    writeFileAtomically(path, scheduleToCsv(p, s, path));
}

std::string scheduleToCsv(const Problem& p, const Schedule& s, const std::string& sourceName) {
    scheduleformat::checkShape(p, s, sourceName);
    const Graph& g = p.g();
    const std::vector<OpId> rows = scheduleformat::rowOrder(p, s);
    std::string out = "op,type,device,start,end,duration,position\n";
    out.reserve(out.size() + static_cast<size_t>(g.opCount()) * 48);
    using scheduleformat::number;
    for (size_t i = 0; i < rows.size(); ++i) {
        const OpId v = rows[i];
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        out += csvField(g.op(v).name);
        out += ',';
        out += csvField(g.op(v).type);
        out += ',';
        out += std::to_string(o.device);
        out += ',';
        out += number(o.start);
        out += ',';
        out += number(o.end);
        out += ',';
        out += number(o.end - o.start);
        out += ',';
        out += std::to_string(i);
        out += '\n';
    }
    return out;
}

} // namespace sl

// SPDX-License-Identifier: MIT
#include "core/io/scheduleformat.h"

#include "core/io/graphio.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

namespace sl::scheduleformat {

void checkShape(const Problem& p, const Schedule& s, const std::string& where) {
    const Graph& g = p.g();
    if (s.ops.size() != static_cast<size_t>(g.opCount()))
        throw IoError(where + ": the schedule has " + std::to_string(s.ops.size()) + " ops, the graph " +
                      std::to_string(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        const int d = s.ops[static_cast<size_t>(v)].device;
        if (d < 0 || d >= p.platform.deviceCount())
            throw IoError(where + ": op '" + g.op(v).name + "' is on device " + std::to_string(d) + ", but the platform has " +
                          std::to_string(p.platform.deviceCount()) + " devices");
    }
    for (const ScheduledTransfer& t : s.transfers)
        if (t.tensor < 0 || t.tensor >= g.tensorCount() || t.from < 0 || t.from >= p.platform.deviceCount() || t.to < 0 ||
            t.to >= p.platform.deviceCount())
            throw IoError(where + ": a transfer names a tensor or device the problem does not have");
    if (s.order.empty()) return;
    std::vector<char> seen(static_cast<size_t>(g.opCount()), 0);
    for (OpId v : s.order) {
        if (v < 0 || v >= g.opCount() || seen[static_cast<size_t>(v)])
            throw IoError(where + ": the schedule's order is not a permutation of the graph's ops");
        seen[static_cast<size_t>(v)] = 1;
    }
    if (s.order.size() != static_cast<size_t>(g.opCount()))
        throw IoError(where + ": the schedule's order has " + std::to_string(s.order.size()) + " ops, the graph " +
                      std::to_string(g.opCount()));
}

std::vector<int> positions(const Problem& p, const Schedule& s) {
    const std::vector<OpId> rows = rowOrder(p, s);
    std::vector<int> pos(rows.size(), -1);
    for (size_t i = 0; i < rows.size(); ++i) pos[static_cast<size_t>(rows[i])] = static_cast<int>(i);
    return pos;
}

std::vector<OpId> rowOrder(const Problem& p, const Schedule& s) {
    if (!s.order.empty()) return s.order;
    const Graph& g = p.g();
    std::vector<int> topo(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < g.topologicalOrder().size(); ++i) topo[static_cast<size_t>(g.topologicalOrder()[i])] = static_cast<int>(i);
    std::vector<OpId> rows(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) rows[static_cast<size_t>(v)] = v;
    std::stable_sort(rows.begin(), rows.end(), [&](OpId a, OpId b) {
        const double sa = s.ops[static_cast<size_t>(a)].start, sb = s.ops[static_cast<size_t>(b)].start;
        return sa < sb || (sa == sb && topo[static_cast<size_t>(a)] < topo[static_cast<size_t>(b)]);
    });
    return rows;
}

std::string number(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
    std::array<char, 32> buf{};
    const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x);
    return std::string(buf.data(), r.ptr);
}

std::string deviceName(const Problem& p, int d) {
    if (d >= 0 && d < p.platform.deviceCount()) {
        const std::string& n = p.platform.devices[static_cast<size_t>(d)].name;
        if (!n.empty()) return n;
    }
    return "device " + std::to_string(d);
}

std::string deviceColour(int d) {
    static constexpr std::array<const char*, 12> colours = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948",
                                                            "#ff9da7", "#9c755f", "#bab0ac", "#86bcb6", "#d4a6c8", "#8cd17d"};
    return colours[static_cast<size_t>(d < 0 ? -d : d) % colours.size()];
}

} // namespace sl::scheduleformat

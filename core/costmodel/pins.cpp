// SPDX-License-Identifier: MIT
#include "core/costmodel/pins.h"

#include "core/platform/platform.h"

#include <algorithm>
#include <map>

namespace sl {

void Pins::pin(OpId v, int device, int rank) {
    if (v < 0 || device < 0) return;
    if (static_cast<std::size_t>(v) >= m_pins.size()) m_pins.resize(static_cast<std::size_t>(v) + 1);
    m_count += m_pins[static_cast<std::size_t>(v)].device < 0;
    m_pins[static_cast<std::size_t>(v)] = {device, std::max(-1, rank)};
}

void Pins::unpin(OpId v) {
    if (!pinned(v)) return;
    m_pins[static_cast<std::size_t>(v)] = {};
    --m_count;
}

std::vector<OpId> Pins::ranked(int device) const {
    std::vector<OpId> ops;
    for (std::size_t v = 0; v < m_pins.size(); ++v)
        if (m_pins[v].device == device && m_pins[v].rank >= 0) ops.push_back(static_cast<OpId>(v));
    std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return m_pins[static_cast<std::size_t>(a)].rank < m_pins[static_cast<std::size_t>(b)].rank; });
    return ops;
}

bool Pins::operator==(const Pins& o) const {
    const std::size_t n = std::max(m_pins.size(), o.m_pins.size());
    for (std::size_t v = 0; v < n; ++v)
        if (of(static_cast<OpId>(v)) != o.of(static_cast<OpId>(v))) return false;
    return true;
}

namespace {

/// An op on a cycle through data edges and the ranked pins' order (each ranked op after the one
/// of the next lower rank on its device), or kNoOp when there is none (Kahn's algorithm).
OpId opOnRankCycle(const Graph& g, const Platform& platform, const Pins& pins) {
    const int n = g.opCount();
    std::vector<OpId> rankNext(static_cast<std::size_t>(n), kNoOp);
    std::vector<int> waiting(static_cast<std::size_t>(n), 0);
    for (int d = 0; d < platform.deviceCount(); ++d) {
        const std::vector<OpId> ranked = pins.ranked(d);
        for (std::size_t i = 0; i + 1 < ranked.size(); ++i) {
            rankNext[static_cast<std::size_t>(ranked[i])] = ranked[i + 1];
            ++waiting[static_cast<std::size_t>(ranked[i + 1])];
        }
    }
    std::vector<OpId> ready;
    for (OpId v = 0; v < n; ++v) {
        waiting[static_cast<std::size_t>(v)] += static_cast<int>(g.predecessors(v).size());
        if (waiting[static_cast<std::size_t>(v)] == 0) ready.push_back(v);
    }
    int done = 0;
    auto release = [&](OpId w) {
        if (w != kNoOp && --waiting[static_cast<std::size_t>(w)] == 0) ready.push_back(w);
    };
    while (!ready.empty()) {
        const OpId v = ready.back();
        ready.pop_back();
        ++done;
        for (OpId s : g.successors(v)) release(s);
        release(rankNext[static_cast<std::size_t>(v)]);
    }
    if (done == n) return kNoOp;
    for (OpId v = 0; v < n; ++v)
        if (waiting[static_cast<std::size_t>(v)] > 0 && pins.of(v).rank >= 0) return v;
    return kNoOp;
}

} // namespace

std::string pinsError(const Graph& g, const Platform& platform, const Pins& pins) {
    std::map<std::pair<int, int>, OpId> rankHolder;
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Pin p = pins.of(v);
        if (p.device < 0) continue;
        const std::string who = "op '" + g.op(v).name + "'";
        if (p.device >= platform.deviceCount()) return who + " is pinned to device " + std::to_string(p.device) + ", which does not exist";
        if (platform.devices[static_cast<std::size_t>(p.device)].machineType != g.op(v).machineType)
            return who + " is pinned to " + platform.devices[static_cast<std::size_t>(p.device)].name + ", a device of another machine type";
        if (p.rank < 0) continue;
        const auto [it, fresh] = rankHolder.emplace(std::make_pair(p.device, p.rank), v);
        if (!fresh) return who + " and '" + g.op(it->second).name + "' are both pinned at place " + std::to_string(p.rank) + " of " +
                           platform.devices[static_cast<std::size_t>(p.device)].name;
    }
    if (const OpId v = opOnRankCycle(g, platform, pins); v != kNoOp)
        return "op '" + g.op(v).name + "' is pinned in an order that contradicts the graph's precedence (an op pinned after another feeds it)";
    return {};
}

std::string pinViolation(const Graph& g, const Pins& pins, const Schedule& s) {
    if (pins.empty()) return {};
    std::map<int, std::vector<OpId>> rankedByDevice;
    for (OpId v = 0; v < g.opCount() && static_cast<std::size_t>(v) < s.ops.size(); ++v) {
        const Pin p = pins.of(v);
        if (p.device < 0) continue;
        if (s.ops[static_cast<std::size_t>(v)].device != p.device)
            return "op '" + g.op(v).name + "' is pinned to device " + std::to_string(p.device) + " but runs on device " +
                   std::to_string(s.ops[static_cast<std::size_t>(v)].device);
        if (p.rank >= 0) rankedByDevice[p.device].push_back(v);
    }
    for (auto& [device, ops] : rankedByDevice) {
        std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) { return pins.of(a).rank < pins.of(b).rank; });
        for (std::size_t i = 0; i + 1 < ops.size(); ++i)
            if (s.ops[static_cast<std::size_t>(ops[i + 1])].start < s.ops[static_cast<std::size_t>(ops[i])].end)
                return "op '" + g.op(ops[i + 1]).name + "' is pinned after '" + g.op(ops[i]).name + "' on device " +
                       std::to_string(device) + " but starts before it ends";
    }
    return {};
}

} // namespace sl

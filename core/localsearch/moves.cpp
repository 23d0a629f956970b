// SPDX-License-Identifier: MIT
#include "core/localsearch/moves.h"

#include <algorithm>

namespace sl {

namespace {

void addRelocations(const ChainSchedule& s, OpId v, std::vector<Move>& out) {
    if (s.problem().pins.pinned(v)) return;   // a pinned op stays on its device
    for (int d : s.devicesFor(v)) {
        if (d == s.device(v)) continue;
        // Chains are in start order and one op runs at a time, so ends are in order too.
        const double ready = s.inputsReady(v, d);
        const auto& c = s.chain(d);
        const auto before = std::partition_point(c.begin(), c.end(), [&](OpId w) { return s.end(w) <= ready; });
        const auto after = std::partition_point(c.begin(), c.end(), [&](OpId w) { return s.start(w) < ready; });
        out.push_back({Move::Kind::Relocate, v, d, static_cast<int>(before - c.begin())});
        if (after != before) out.push_back({Move::Kind::Relocate, v, d, static_cast<int>(after - c.begin())});
    }
}

/// Swapping `u` and the op after it keeps the pins unless both are ranked (their order is pinned).
bool swapKeepsPins(const ChainSchedule& s, OpId u) {
    const Pins& pins = s.problem().pins;
    return pins.empty() || pins.of(u).rank < 0 || pins.of(s.next(u)).rank < 0;
}

} // namespace

void criticalMoves(const ChainSchedule& s, const CriticalPath& path, std::vector<Move>& out) {
    out.clear();
    const int blocks = static_cast<int>(path.blocks.size());
    if (blocks > 1)
        for (int b = 0; b < blocks; ++b) {
            const CriticalPath::Block& block = path.blocks[static_cast<size_t>(b)];
            if (block.size() < 2) continue;
            const OpId firstPair = path.ops[static_cast<size_t>(block.first)];
            const OpId lastPair = path.ops[static_cast<size_t>(block.last) - 1];
            if (b > 0 && swapKeepsPins(s, firstPair)) out.push_back({Move::Kind::Swap, firstPair});
            if (b + 1 < blocks && (b == 0 || lastPair != firstPair) && swapKeepsPins(s, lastPair))
                out.push_back({Move::Kind::Swap, lastPair});
        }
    for (OpId v : path.ops)
        if (s.devicesFor(v).size() > 1) addRelocations(s, v, out);
}

MoveUndo applyMove(ChainSchedule& s, const Move& m) {
    if (m.kind == Move::Kind::Swap) {
        const OpId second = s.next(m.op);
        s.swapWithNext(m.op);
        return {Move::Kind::Swap, second};
    }
    const MoveUndo undo{Move::Kind::Relocate, m.op, s.device(m.op), s.position(m.op)};
    s.moveTo(m.op, m.device, m.position);
    return undo;
}

void undoMove(ChainSchedule& s, const MoveUndo& u) {
    if (u.kind == Move::Kind::Swap) s.swapWithNext(u.op);
    else s.moveTo(u.op, u.device, u.position);
}

double trialCost(ChainSchedule& s, const Move& m, const ChainCost& cost) {
    const MoveUndo undo = applyMove(s, m);
    const double c = s.retime() == kInfinity ? kInfinity : cost(s);
    undoMove(s, undo);
    return c;
}

namespace {

std::uint64_t before(const ChainSchedule& s, OpId a, OpId b) {
    return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(s.opCount()) + static_cast<std::uint64_t>(b);
}

std::uint64_t on(const ChainSchedule& s, OpId v, int device) {
    const auto n = static_cast<std::uint64_t>(s.opCount());
    return n * n + static_cast<std::uint64_t>(v) * static_cast<std::uint64_t>(s.deviceCount()) + static_cast<std::uint64_t>(device);
}

} // namespace

std::uint64_t brokenRelation(const ChainSchedule& s, const Move& m) {
    if (m.kind == Move::Kind::Swap) return before(s, m.op, s.next(m.op));
    return on(s, m.op, s.device(m.op));
}

std::uint64_t createdRelation(const ChainSchedule& s, const Move& m) {
    if (m.kind == Move::Kind::Swap) return before(s, s.next(m.op), m.op);
    return on(s, m.op, m.device);
}

} // namespace sl

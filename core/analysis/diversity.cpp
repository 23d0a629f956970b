// SPDX-License-Identifier: MIT
#include "core/analysis/diversity.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

namespace sl {

namespace {

int devicesUsed(const Schedule& s) {
    int devices = 0;
    for (const ScheduledOp& o : s.ops) devices = std::max(devices, o.device + 1);
    return devices;
}

DeviceChains chainsOf(const Schedule& s) { return deviceChains(s, devicesUsed(s)); }

/// The chain graph as a function: next[u] = the op right after u on its device, or kNoOp. Every
/// op has at most one chain successor, so this is the whole unlabelled edge set.
std::vector<OpId> chainSuccessors(const Schedule& s) {
    std::vector<OpId> next(s.ops.size(), kNoOp);
    for (const auto& chain : chainsOf(s))
        for (size_t i = 0; i + 1 < chain.size(); ++i) next[static_cast<size_t>(chain[i])] = chain[i + 1];
    return next;
}

void checkSameGraph(const Schedule& x, const Schedule& y) {
    if (x.ops.size() != y.ops.size())
        throw std::invalid_argument("cannot compare schedules of " + std::to_string(x.ops.size()) + " and " +
                                    std::to_string(y.ops.size()) + " ops");
}

double gedOfSuccessors(const std::vector<OpId>& x, const std::vector<OpId>& y, GedDenominator denominator) {
    double edgesX = 0, edgesY = 0, differ = 0;
    for (size_t u = 0; u < x.size(); ++u) {
        edgesX += x[u] != kNoOp;
        edgesY += y[u] != kNoOp;
        if (x[u] != y[u]) differ += (x[u] != kNoOp) + (y[u] != kNoOp);   // u->x[u] and u->y[u] each in one set only
    }
    const double edges = denominator == GedDenominator::EdgeSum ? edgesX + edgesY : (edgesX + edgesY) / 2;
    return edges == 0 ? 0.0 : 100 * differ / edges;
}

double squaredStartDistance(const Schedule& x, const Schedule& y) {
    double sum = 0;
    for (size_t v = 0; v < x.ops.size(); ++v) {
        const double d = x.ops[v].start - y.ops[v].start;
        sum += d * d;
    }
    return sum;
}

double sensitiveOfSquares(double startSquares, const Schedule& x, const Schedule& y, double kappa) {
    double moved = 0;   // each op on another device differs in two one-hot entries
    for (size_t v = 0; v < x.ops.size(); ++v) moved += x.ops[v].device != y.ops[v].device;
    return std::sqrt(startSquares + 2 * kappa * kappa * moved);
}

/// The non-empty chains, sorted: equal for schedules that differ only by device labels.
DeviceChains canonicalChains(DeviceChains chains) {
    std::erase_if(chains, [](const std::vector<OpId>& c) { return c.empty(); });
    std::sort(chains.begin(), chains.end());
    return chains;
}

} // namespace

double chainGed(const Schedule& x, const Schedule& y, GedDenominator denominator) {
    checkSameGraph(x, y);
    return gedOfSuccessors(chainSuccessors(x), chainSuccessors(y), denominator);
}

double startTimeDistance(const Schedule& x, const Schedule& y) {
    checkSameGraph(x, y);
    return std::sqrt(squaredStartDistance(x, y));
}

double placementSensitiveDistance(const Schedule& x, const Schedule& y, double kappa) {
    checkSameGraph(x, y);
    return sensitiveOfSquares(squaredStartDistance(x, y), x, y, kappa);
}

DistinctCounts distinctSchedules(std::span<const Schedule> schedules) {
    std::set<DeviceChains> exact, relabelled;
    for (const Schedule& s : schedules) {
        DeviceChains chains = chainsOf(s);
        exact.insert(chains);   // trailing empty devices are not in chainsOf: same as unused
        relabelled.insert(canonicalChains(std::move(chains)));
    }
    return {static_cast<int>(exact.size()), static_cast<int>(relabelled.size())};
}

Diversity diversity(std::span<const Schedule> schedules, const DiversityOptions& options) {
    Diversity out;
    std::vector<std::vector<OpId>> successors;
    for (const Schedule& s : schedules) {
        if (!successors.empty()) checkSameGraph(schedules.front(), s);
        successors.push_back(chainSuccessors(s));
    }
    const DistinctCounts distinct = distinctSchedules(schedules);
    out.distinct = distinct.exact;
    out.distinctUpToRelabelling = distinct.upToRelabelling;
    const size_t n = schedules.size();
    if (n < 2) return out;
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            const double squares = squaredStartDistance(schedules[i], schedules[j]);
            out.ged += gedOfSuccessors(successors[i], successors[j], options.gedDenominator);
            out.dInv += std::sqrt(squares);
            out.dSen += sensitiveOfSquares(squares, schedules[i], schedules[j], options.kappa);
        }
    const double pairs = static_cast<double>(n * (n - 1) / 2);
    out.ged /= pairs;
    out.dInv /= pairs;
    out.dSen /= pairs;
    return out;
}

} // namespace sl

// SPDX-License-Identifier: MIT
#include "core/exact/exactmemory.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/stepmemory.h"
#include "core/exact/approxmemory.h"
#include "core/exact/memorysearch.h"
#include "core/exact/memorystatebound.h"
#include "core/exact/ordersegments.h"
#include "core/exact/setmemory.h"

#include <algorithm>
#include <chrono>
#include <sstream>

namespace sl {

namespace {

/// The incumbent: the best of the memory heuristics (the first one wins ties).
ExactMemoryResult bestHeuristicOrder(const Graph& g) {
    MemoryOrder best = bestClassicMemoryOrder(g);
    ExactMemoryResult result;
    result.order = std::move(best.order);
    result.peak = best.peak;
    return result;
}

/// Keeps the DP's order when it is lower than the incumbent.
void keepIfLower(const ApproxMemoryResult& dp, ExactMemoryResult& result) {
    if (dp.peak < result.peak) {
        result.order = dp.order;
        result.peak = dp.peak;
    }
}

/// A narrow approximate DP (mem-approx-dp, K = limits.incumbentBeam, at most a tenth of the time limit)
/// as a second incumbent: where branches interleave (SSD's heads) it finds orders 3 % below every
/// classic one, and a lower incumbent prunes more. It proves the optimum when its beam never fills.
void improveByApproximateDp(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop, ExactMemoryResult& result) {
    if (limits.incumbentBeam < 1) return;
    const ApproxMemoryResult dp = approximateMinimumMemory(
        g, {.beamWidth = limits.incumbentBeam, .timeLimit = limits.timeLimit > 0 ? 0.1 * limits.timeLimit : 0}, std::move(stop));
    keepIfLower(dp, result);
    result.optimal = dp.optimal && dp.peak <= result.peak;
}

/// When the search stops without a proof: wider approximate DPs with the time left (K = 4, 16,
/// ... x limits.incumbentBeam, up to 16,384 and while K x ops stays within kWidenWork, so the
/// ladder is the same on every machine) for a better order to return. On a one-layer transformer step the search's
/// best is 15.4 MB and K = 10,000 finds 14.1 MB in a second.
void widenIncumbent(const Graph& g, const ExactMemoryLimits& limits, std::chrono::steady_clock::time_point begin,
                    std::stop_token stop, ExactMemoryResult& result) {
    constexpr double kWidenWork = 1.6e7;
    constexpr long long kMaxWidenBeam = 16384;
    for (long long k = 4LL * limits.incumbentBeam; k >= 1 && k <= kMaxWidenBeam && static_cast<double>(k) * g.opCount() <= kWidenWork; k *= 4) {
        double left = 0;
        if (limits.timeLimit > 0) {
            left = limits.timeLimit - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            if (left <= 0) return;
        }
        if (stop.stop_requested()) return;
        keepIfLower(approximateMinimumMemory(g, {.beamWidth = static_cast<int>(k), .timeLimit = left}, stop), result);
        if (result.peak <= result.lowerBound) return;
    }
}

/// The step-clock memory of each step of `order`.
std::vector<double> stepsOf(const Graph& g, const std::vector<OpId>& order) {
    StepMemory memory(g, 1);
    memory.reset();
    std::vector<double> steps;
    for (OpId v : order) steps.push_back(memory.step(v));
    return steps;
}

/// The segments of every order (core/exact/ordersegments.h), `starts` their first positions,
/// searched one by one from the incumbent's: the one with the highest peak first, since a segment
/// whose incumbent is at or below what is proved already cannot lower the optimum and is left as
/// it is. Each gets a share of the time by its ops. What a segment's search proves is a bound on
/// the whole order's peak, so the largest of them is the proof.
void searchSegments(const Graph& g, const MemoryStateBound& bound, const std::vector<int>& starts,
                    const ExactMemoryLimits& limits, std::stop_token stop, const ExactMemoryProgress& progress,
                    ExactMemoryResult& result) {
    const int count = static_cast<int>(starts.size());
    const auto end = [&](int i) { return i + 1 < count ? starts[static_cast<size_t>(i) + 1] : g.opCount(); };
    const std::vector<double> steps = stepsOf(g, result.order);
    std::vector<double> peaks(static_cast<size_t>(count));
    std::vector<int> byPeak(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
        peaks[static_cast<size_t>(i)] =
            *std::max_element(steps.begin() + starts[static_cast<size_t>(i)], steps.begin() + end(i));
        byPeak[static_cast<size_t>(i)] = i;
    }
    std::stable_sort(byPeak.begin(), byPeak.end(),
                     [&](int a, int b) { return peaks[static_cast<size_t>(a)] > peaks[static_cast<size_t>(b)]; });
    double proven = bound.floor();
    int opsLeft = 0;
    for (int i = 0; i < count; ++i)
        opsLeft += peaks[static_cast<size_t>(i)] > proven ? end(i) - starts[static_cast<size_t>(i)] : 0;
    const auto begin = std::chrono::steady_clock::now();
    std::string stopped;
    for (const int i : byPeak) {
        const int first = starts[static_cast<size_t>(i)], size = end(i) - first;
        if (peaks[static_cast<size_t>(i)] <= proven) continue;
        ExactMemoryLimits share = limits;
        if (limits.timeLimit > 0) {
            const double left =
                limits.timeLimit - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
            share.timeLimit = std::max(1e-3, left * size / std::max(1, opsLeft));
        }
        opsLeft -= size;
        ExactMemoryResult part;
        part.order.assign(result.order.begin() + first, result.order.begin() + first + size);
        part.peak = peaks[static_cast<size_t>(i)];
        const ExactMemoryProgress partProgress = [&](std::int64_t expanded, double, double partBound) {
            if (progress)
                progress(result.expanded + expanded, *std::max_element(peaks.begin(), peaks.end()),
                         std::max(proven, partBound));
        };
        MemorySearch search(g, bound, share, stop, partProgress, part, std::chrono::steady_clock::now(),
                            {std::vector<OpId>(result.order.begin(), result.order.begin() + first), first + size,
                             i + 1 < count ? result.order[static_cast<size_t>(first + size - 1)] : kNoOp});
        search.run();
        std::copy(part.order.begin(), part.order.end(), result.order.begin() + first);
        peaks[static_cast<size_t>(i)] = part.peak;
        proven = std::max(proven, part.lowerBound);
        result.states += part.states;
        result.expanded += part.expanded;
        result.forcedMoves += part.forcedMoves;
        result.forcedChains += part.forcedChains;
        if (!part.note.empty() && stopped.empty())
            stopped =
                "segment of ops " + std::to_string(first) + "-" + std::to_string(first + size - 1) + ": " + part.note;
        if (part.cancelled) {
            result.cancelled = true;
            break;
        }
    }
    result.peak = *std::max_element(peaks.begin(), peaks.end());
    result.lowerBound = std::min(proven, result.peak);
    if (result.lowerBound < result.peak) result.note = stopped.empty() ? "stopped" : stopped;
}

} // namespace

ExactMemoryResult exactMinimumMemory(const Graph& g, const ExactMemoryLimits& limits, std::stop_token stop,
                                     const ExactMemoryProgress& progress) {
    const auto begin = std::chrono::steady_clock::now();
    ExactMemoryResult result = bestHeuristicOrder(g);
    const MemoryStateBound bound(g);   // the search's set bound; its floor is orderCutBound(g)
    const double floor = bound.floor();   // a heuristic order that meets it is optimal: no search
    if (g.opCount() == 0 || result.peak <= floor) {
        result.optimal = true;   // meets the lower bound
        result.lowerBound = result.peak;
        return result;
    }
    improveByApproximateDp(g, limits, stop, result);
    if (result.optimal || result.peak <= floor) {
        result.optimal = true;
        result.lowerBound = result.peak;
        return result;
    }
    // the search gets three quarters of the time; what it leaves goes to wider DPs
    ExactMemoryLimits searchLimits = limits;
    searchLimits.timeLimit = limits.timeLimit > 0 ? 0.75 * limits.timeLimit : 0;
    const std::vector<int> starts = !limits.bySegments || bound.after().empty()
        ? std::vector<int>{0}
        : orderSegmentStarts(g, bound.after(), bound.before());
    if (starts.size() > 1) {
        searchSegments(g, bound, starts, searchLimits, stop, progress, result);
    } else {
        MemorySearch search(g, bound, searchLimits, stop, progress, result, begin, {{}, g.opCount()});
        search.run();
    }
    result.optimal = result.note.empty() || result.lowerBound >= result.peak;
    if (!result.optimal && !result.cancelled && limits.incumbentBeam > 0) {
        const double searched = result.peak;
        widenIncumbent(g, limits, begin, stop, result);
        result.optimal = result.lowerBound >= result.peak;
        if (result.peak < searched) {
            std::ostringstream s;
            s << "; a wider approximate DP then found peak " << result.peak;
            result.note += s.str();
        }
    }
    return result;
}

} // namespace sl

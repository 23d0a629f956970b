// SPDX-License-Identifier: MIT
#include "core/exact/boundprobe.h"

#include <gecode/search.hh>

namespace sl {

namespace {

/// The model with makespan exactly L, propagated; null when propagation refutes it.
std::unique_ptr<MakespanSpace> rootAt(const CpInstance& in, int L, std::uint64_t seed) {
    auto space = std::make_unique<MakespanSpace>(in, L, L, seed);
    if (space->status() == Gecode::SS_FAILED) return nullptr;
    return space;
}

} // namespace

BoundProbe probeLowerBound(const CpInstance& in, int lower, int upper, std::uint64_t seed, SearchStop& stop,
                           std::uint64_t failsPerProbe, SearchStop::Clock::time_point deadline,
                           const std::function<void(int)>& raised) {
    BoundProbe probe{lower, nullptr};
    // Refutation by propagation is monotone in L (a smaller L only shrinks domains): binary search.
    int lo = lower, hi = upper + 1;   // rootAt(hi) counts as open
    while (lo < hi && !stop.runStopped()) {
        const int mid = lo + (hi - lo) / 2;
        if (rootAt(in, mid, seed))
            hi = mid;
        else
            lo = mid + 1;
    }
    probe.bound = lo;
    if (probe.bound > lower) raised(probe.bound);
    for (; probe.bound <= upper && !stop.runStopped() && SearchStop::Clock::now() < deadline; ++probe.bound) {
        std::unique_ptr<MakespanSpace> root = rootAt(in, probe.bound, seed);
        if (root) {
            Gecode::Search::Options options;
            options.threads = 1;
            options.stop = &stop;
            stop.startEngine(failsPerProbe, deadline);
            Gecode::DFS<MakespanSpace> engine(root.get(), options);
            std::unique_ptr<MakespanSpace> solution{engine.next()};
            const bool open = !solution && engine.stopped();
            stop.finishEngine(engine.statistics());
            if (solution) {   // nothing shorter exists: optimal
                probe.solution = std::move(solution);
                break;
            }
            if (open) break;
        }
        raised(probe.bound + 1);
    }
    return probe;
}

} // namespace sl

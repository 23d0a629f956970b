// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Destructive lower bounding for exact-makespan (internal to core/exact): before branch and
/// bound, ask the model "is there a schedule of makespan L?" from the bound upwards. Propagation
/// alone refutes the first values (a binary search finds the smallest L it does not refute);
/// then each L gets a small depth-first search: refuted, the bound becomes L + 1; a schedule found
/// is optimal (nothing shorter exists); the first L left open ends the probing. Gives a run under a
/// time limit a proven bound well above the analytic one (ft10: 808 -> 868 by propagation alone).

#include "core/exact/makespanspace.h"
#include "core/exact/searchstop.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace sl {

struct BoundProbe {
    int bound = 0;                                ///< model time: no schedule is shorter
    std::unique_ptr<MakespanSpace> solution;      ///< one of makespan `bound` when a probe found it
};

/// Probes L in [lower, upper] (upper: the incumbent's makespan - 1). Each search probe stops after
/// `failsPerProbe` failures; probing stops at `deadline` and whenever `stop` ends the run.
/// `raised(bound)` is called each time the bound grows. Returns bound = upper + 1 when every L was
/// refuted (the incumbent is optimal).
BoundProbe probeLowerBound(const CpInstance& in, int lower, int upper, std::uint64_t seed, SearchStop& stop,
                           std::uint64_t failsPerProbe, SearchStop::Clock::time_point deadline,
                           const std::function<void(int)>& raised);

} // namespace sl

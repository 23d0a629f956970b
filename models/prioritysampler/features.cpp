// SPDX-License-Identifier: MIT
#include "models/prioritysampler/features.h"

#include "core/analysis/levels.h"

#include <algorithm>

namespace sl::ps {

int machineTypeCount(const Graph& g) {
    int types = 0;
    for (const Op& op : g.ops()) types = std::max(types, op.machineType + 1);
    return types;
}

std::vector<float> extraFeatures(const Problem& problem) {
    const Graph& g = problem.g();
    const int n = g.opCount();
    std::vector<double> dur(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) dur[static_cast<size_t>(v)] = meanDuration(g.op(v));
    const std::vector<double> top = topLevels(g, dur);
    const std::vector<int> remaining = remainingOpCounts(g);

    const int types = std::max(machineTypeCount(g), 1);
    std::vector<double> capacity(static_cast<size_t>(types), 0.0), work(static_cast<size_t>(types), 0.0);
    for (const Device& d : problem.platform.devices)
        if (d.machineType >= 0 && d.machineType < types) capacity[static_cast<size_t>(d.machineType)] += d.resourceCapacity;
    for (OpId v = 0; v < n; ++v)
        work[static_cast<size_t>(g.op(v).machineType)] += dur[static_cast<size_t>(v)] * g.op(v).resourceDemand;

    std::vector<float> f(static_cast<size_t>(n) * kExtraFeatures);
    for (OpId v = 0; v < n; ++v) {
        const Op& op = g.op(v);
        const auto t = static_cast<size_t>(op.machineType);
        const double cap = std::max(capacity[t], 1e-12);
        float* r = f.data() + static_cast<size_t>(v) * kExtraFeatures;
        r[0] = static_cast<float>(op.resourceDemand / cap);
        r[1] = static_cast<float>(top[static_cast<size_t>(v)] + dur[static_cast<size_t>(v)]);
        r[2] = static_cast<float>(remaining[static_cast<size_t>(v)]);
        r[3] = static_cast<float>(work[t] / cap);
    }
    return f;
}

} // namespace sl::ps

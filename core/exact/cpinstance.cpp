// SPDX-License-Identifier: MIT
#include "core/exact/cpinstance.h"

#include "core/costmodel/cost.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace sl {

namespace {

[[noreturn]] void refuse(const std::string& why) {
    throw std::invalid_argument("exact-makespan cannot solve this problem exactly: " + why);
}

/// Gecode's integers reach about 2^31; leave room for sums of a start and a duration.
constexpr double kMaxModelTime = 1e9;
constexpr int kMaxDecimals = 4;

bool wholeAfter(double x, double scale) {
    const double y = x * scale;
    return std::abs(y - std::round(y)) <= 1e-9 * std::max(1.0, std::abs(y));
}

/// The smallest power of ten that makes every value whole, or 0.
double decimalScale(const std::vector<double>& values) {
    double scale = 1;
    for (int k = 0; k <= kMaxDecimals; ++k, scale *= 10)
        if (std::all_of(values.begin(), values.end(), [&](double x) { return wholeAfter(x, scale); })) return scale;
    return 0;
}

void checkObjective(const Problem& p) {
    if (p.objective.kind != Objective::Makespan)
        refuse("it minimises the makespan alone, and the objective is '" + toString(p.objective.kind) + "'");
    if (CostFunction(p).needsMemory())
        refuse("a device has a finite memory capacity, whose penalty the constraint model does not see "
               "(run without --memory-cap)");
}

/// A device of `type` whose capacity lets two of the type's ops run at once, or -1.
int sharedDevice(const Problem& p, const std::vector<int>& devices, const std::vector<OpId>& ops) {
    std::vector<double> demands;
    for (OpId v : ops) demands.push_back(p.g().op(v).resourceDemand);
    if (demands.size() < 2) return -1;
    std::partial_sort(demands.begin(), demands.begin() + 2, demands.end());
    for (int d : devices)
        if (demands[0] + demands[1] <= p.platform.devices[static_cast<size_t>(d)].resourceCapacity + 1e-9) return d;
    return -1;
}

void checkPool(const Problem& p, const CpInstance::Pool& pool) {
    const Graph& g = p.g();
    const auto& devices = p.platform.devices;
    if (const int d = sharedDevice(p, pool.devices, pool.ops); d >= 0)
        refuse("device '" + devices[static_cast<size_t>(d)].name +
               "' can run two ops at once (resource capacity), and the model runs one op at a time per device");
    if (pool.devices.size() < 2) return;
    for (OpId v : pool.ops)
        for (int d : pool.devices) {
            if (g.durationOn(v, d) != g.durationOn(v, pool.devices.front()))
                refuse("op '" + g.op(v).name + "' takes different times on the devices of its machine type; only "
                       "identical devices (or one device per type) are supported");
            if (g.op(v).resourceDemand > devices[static_cast<size_t>(d)].resourceCapacity)
                refuse("op '" + g.op(v).name + "' does not fit device '" + devices[static_cast<size_t>(d)].name +
                       "' of its machine type; only identical devices are supported");
        }
}

/// The lag of edge u -> v: the longest transfer among the tensors v reads from u, when they are on
/// different devices for sure; refused when whether they are is a choice of the search.
double edgeLag(const Problem& p, const CpInstance& in, OpId u, OpId v) {
    const Graph& g = p.g();
    const int pool = in.poolOf[static_cast<size_t>(u)];
    const bool samePool = pool == in.poolOf[static_cast<size_t>(v)];
    if (!p.platform.topology.empty() && !p.platform.transfersFree())
        refuse("a transfer's time depends on which two devices it joins (the platform has a topology); "
               "the model gives every pair one lag");
    double lag = 0;
    for (TensorId t : g.inputs(v))
        if (g.tensor(t).producer == u) lag = std::max(lag, p.platform.link.transferTime(g.tensor(t).bytes));   // one link: no topology here
    if (!samePool || lag == 0) return lag;
    if (in.pools[static_cast<size_t>(pool)].devices.size() == 1) return 0;   // one device: no transfer
    refuse("the transfer from '" + g.op(u).name + "' to '" + g.op(v).name +
           "' costs time only if they land on different devices of their type, which the model does not "
           "decide (use free transfers, or one device per machine type)");
}

} // namespace

CpInstance makeCpInstance(const Problem& p, double upperBound) {
    p.check();
    checkObjective(p);
    const Graph& g = p.g();
    const int n = g.opCount();
    CpInstance in;
    const auto byType = p.platform.devicesByType();
    std::vector<int> poolOfType(byType.size(), -1);
    in.poolOf.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v) {
        const auto type = static_cast<size_t>(g.op(v).machineType);
        if (poolOfType[type] < 0) {
            poolOfType[type] = static_cast<int>(in.pools.size());
            in.pools.push_back({byType[type], {}});
        }
        in.poolOf[static_cast<size_t>(v)] = poolOfType[type];
        in.pools[static_cast<size_t>(poolOfType[type])].ops.push_back(v);
    }
    for (const CpInstance::Pool& pool : in.pools) checkPool(p, pool);

    std::vector<double> durations(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v)
        durations[static_cast<size_t>(v)] = g.durationOn(v, in.pools[static_cast<size_t>(in.poolOf[static_cast<size_t>(v)])].devices.front());
    std::vector<double> lags;
    for (OpId u = 0; u < n; ++u)
        for (OpId v : g.successors(u)) {
            lags.push_back(edgeLag(p, in, u, v));
            in.arcs.push_back({u, v, 0});
        }

    std::vector<double> values = durations;
    values.insert(values.end(), lags.begin(), lags.end());
    in.scale = decimalScale(values);
    if (in.scale == 0)
        refuse("durations and transfer times do not become whole numbers when scaled by 10^" + std::to_string(kMaxDecimals));
    if (!(upperBound * in.scale <= kMaxModelTime))
        refuse("the schedule is too long for the solver's integers (" + std::to_string(upperBound) + " x " +
               std::to_string(in.scale) + " > " + std::to_string(kMaxModelTime) + ")");
    in.duration.resize(static_cast<size_t>(n));
    for (OpId v = 0; v < n; ++v)
        in.duration[static_cast<size_t>(v)] = static_cast<int>(std::lround(durations[static_cast<size_t>(v)] * in.scale));
    for (size_t i = 0; i < lags.size(); ++i) in.arcs[i].lag = static_cast<int>(std::lround(lags[i] * in.scale));
    return in;
}

} // namespace sl

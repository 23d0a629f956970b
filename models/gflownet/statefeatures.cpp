// SPDX-License-Identifier: MIT
#include "models/gflownet/statefeatures.h"

#include <algorithm>
#include <stdexcept>

namespace sl::gfn {

namespace {

/// Mean duration over the devices the op may use (its duration on identical devices).
std::vector<double> meanDurations(const ScheduleEnv& env) {
    std::vector<double> out(static_cast<size_t>(env.ops()), 0.0);
    for (OpId v = 0; v < env.ops(); ++v) {
        double sum = 0;
        int count = 0;
        for (int d = 0; d < env.devices(); ++d)
            if (env.allowed(v, d)) sum += env.duration(v, d), ++count;
        out[static_cast<size_t>(v)] = count ? sum / count : 0.0;
    }
    return out;
}

void encodeOne(const PartialSchedule& s, const std::vector<double>& rho, double rhoMax, double timeScale,
               float* node, float* pair, std::uint8_t* fwd, std::uint8_t* bwd) {
    const ScheduleEnv& env = s.env();
    const int n = env.ops(), m = env.devices();
    std::vector<double> startOn(static_cast<size_t>(m));
    for (OpId v = 0; v < n; ++v) {
        float* f = node + static_cast<size_t>(v) * kNodeFeatures;
        const bool on = s.scheduled(v), ready = s.ready(v), removable = s.removable(v);
        f[0] = static_cast<float>(std::max(rho[static_cast<size_t>(v)], 1e-6 * rhoMax) / rhoMax);
        f[1] = on ? static_cast<float>(s.start(v) / timeScale) : -1.0f;
        if (on) f[2 + std::min(s.device(v), kDeviceSlots - 1)] = 1.0f;
        f[2 + kDeviceSlots] = ready ? 1.0f : 0.0f;
        f[3 + kDeviceSlots] = removable ? 1.0f : 0.0f;
        f[4 + kDeviceSlots] = on ? 1.0f : 0.0f;
        f[5 + kDeviceSlots] = static_cast<float>(m) / kDeviceSlots;
        bwd[v] = removable ? 1 : 0;
        if (!ready) continue;
        double earliest = kInfinity;
        for (int d = 0; d < m; ++d) {
            startOn[static_cast<size_t>(d)] = env.allowed(v, d) ? s.startIf(v, d) : kInfinity;
            earliest = std::min(earliest, startOn[static_cast<size_t>(d)]);
        }
        for (int d = 0; d < m; ++d) {
            if (!env.allowed(v, d)) continue;
            fwd[static_cast<size_t>(v) * static_cast<size_t>(m) + static_cast<size_t>(d)] = 1;
            float* p = pair + (static_cast<size_t>(v) * static_cast<size_t>(m) + static_cast<size_t>(d)) * kPairFeatures;
            p[0] = static_cast<float>(s.tailEnd(d) / timeScale);
            p[1] = static_cast<float>(startOn[static_cast<size_t>(d)] / timeScale);
            p[2] = static_cast<float>((startOn[static_cast<size_t>(d)] - earliest) / timeScale);
            p[3] = s.chain(d).empty() ? 1.0f : 0.0f;
        }
    }
}

} // namespace

void encodeStates(const std::vector<PartialSchedule>& states, StateBatch& out) {
    if (states.empty()) throw std::invalid_argument("encodeStates: no states");
    const ScheduleEnv& env = states.front().env();
    const int b = static_cast<int>(states.size()), n = env.ops(), m = env.devices();
    out.batch = b;
    out.ops = n;
    out.devices = m;
    const size_t bn = static_cast<size_t>(b) * static_cast<size_t>(n);
    out.nodes.assign(bn * kNodeFeatures, 0.0f);
    out.pairs.assign(bn * static_cast<size_t>(m) * kPairFeatures, 0.0f);
    out.forwardMask.assign(bn * static_cast<size_t>(m), 0);
    out.backwardMask.assign(bn, 0);
    const std::vector<double> rho = meanDurations(env);
    double rhoMax = 0;
    for (double r : rho) rhoMax = std::max(rhoMax, r);
    if (rhoMax <= 0) rhoMax = 1;
    const double timeScale = env.work() > 0 ? env.work() / m : 1.0;   // start times over the ideal makespan sum rho / m
    for (int i = 0; i < b; ++i) {
        const size_t row = static_cast<size_t>(i) * static_cast<size_t>(n);
        encodeOne(states[static_cast<size_t>(i)], rho, rhoMax, timeScale, out.nodes.data() + row * kNodeFeatures,
                  out.pairs.data() + row * static_cast<size_t>(m) * kPairFeatures,
                  out.forwardMask.data() + row * static_cast<size_t>(m), out.backwardMask.data() + row);
    }
}

} // namespace sl::gfn

// SPDX-License-Identifier: MIT
#include "core/costmodel/target.h"

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/sharedlinks.h"
#include "core/util/random.h"

#include <cmath>
#include <stdexcept>

namespace sl {

std::string toString(TargetModel m) {
    switch (m) {
    case TargetModel::Proxy: return "proxy";
    case TargetModel::Noisy: return "noisy";
    case TargetModel::Bandwidth: return "bandwidth";
    case TargetModel::Latency: return "latency";
    case TargetModel::Measured: return "measured";
    case TargetModel::SharedLinks: return "shared-links";
    }
    return "proxy";
}

TargetModel targetModelFromString(const std::string& s) {
    if (s == "proxy") return TargetModel::Proxy;
    if (s == "noisy") return TargetModel::Noisy;
    if (s == "bandwidth") return TargetModel::Bandwidth;
    if (s == "latency") return TargetModel::Latency;
    if (s == "measured") return TargetModel::Measured;
    if (s == "shared-links") return TargetModel::SharedLinks;
    throw std::invalid_argument("unknown target model '" + s + "' (proxy, noisy, bandwidth, latency or shared-links)");
}

TransferDelay targetDelay(TargetModel m, double meanDuration) {
    // Calibrated so that list scheduling keeps the target / proxy ratios of the GFlowNet paper's
    // Table 1 (docs/costmodel.md, "Target models").
    if (m == TargetModel::Bandwidth) return {8 * meanDuration, 0.1 * meanDuration};
    if (m == TargetModel::Latency) return {0.1 * meanDuration, 2 * meanDuration};
    return {};
}

double memoryUnitBytes(const Graph& g) {
    double sum = 0;
    int count = 0;
    for (const Tensor& t : g.tensors())
        if (t.bytes > 0) {
            sum += t.bytes;
            ++count;
        }
    return count == 0 ? 0.0 : 2 * sum / count;   // mem ~ U(0, 1) has mean 1/2
}

Interconnect delayInterconnect(const Graph& g, TransferDelay delay) {
    if (delay.a < 0 || delay.b < 0 || !std::isfinite(delay.a) || !std::isfinite(delay.b))
        throw std::invalid_argument("a transfer delay needs finite a >= 0 and b >= 0");
    Interconnect link;
    link.latency = delay.b;
    const double unit = memoryUnitBytes(g);
    // a·mem = a·bytes/unit = bytes / (unit/a); no positive bytes: every mem is 0, no bandwidth term.
    if (delay.a > 0 && unit > 0) link.bandwidth = unit / delay.a;
    return link;
}

std::shared_ptr<Graph> noisyGraph(const Graph& g, std::uint64_t seed, double sigma) {
    if (!(sigma >= 0) || !std::isfinite(sigma)) throw std::invalid_argument("the duration noise needs a finite sigma >= 0");
    auto out = std::make_shared<Graph>(g);
    Rng rng(seed);
    for (OpId v = 0; v < out->opCount(); ++v) {
        const double factor = std::exp(sigma * rng.normal());
        Op& op = out->mutableOp(v);
        op.duration *= factor;
        for (double& d : op.deviceDurations) d *= factor;
    }
    out->finalize();
    return out;
}

Problem proxyProblem(const Problem& p) {
    Problem out = p;
    out.platform.link = Interconnect{};
    out.platform.topology = Topology{};
    return out;
}

Problem measuredTargetProblem(const Problem& p, std::shared_ptr<const Graph> measured) {
    if (!measured || measured->opCount() != p.g().opCount() || measured->tensorCount() != p.g().tensorCount())
        throw std::invalid_argument("the measured target needs the problem's own graph with measured times");
    Problem out = p;
    out.graph = std::move(measured);
    out.check();
    return out;
}

Problem targetProblem(const Problem& p, TargetModel m, std::uint64_t seed) {
    if (m == TargetModel::Measured)
        throw std::invalid_argument("the measured target needs a profile (--target measured:FILE)");
    p.check();
    if (m == TargetModel::SharedLinks) {
        Problem out = p;
        out.platform.topology.shared = true;   // nothing to share without routes: the machine's own link
        return out;
    }
    Problem out = proxyProblem(p);
    if (m == TargetModel::Noisy) out.graph = noisyGraph(p.g(), seed);
    const double mean = p.g().opCount() == 0 ? 0.0 : p.g().totalWork() / p.g().opCount();
    out.platform.link = delayInterconnect(p.g(), targetDelay(m, mean));
    return out;
}

double speedup(const Problem& p, const Schedule& s) {
    const double makespan = timeChainsOnPlatform(p, deviceChains(s, p.platform.deviceCount())).makespan;
    if (!(makespan > 0)) throw std::invalid_argument("speedup is undefined: the schedule's makespan is 0");
    return p.g().totalWork() / makespan;
}

double proxySpeedup(const Problem& p, const Schedule& s) { return speedup(proxyProblem(p), s); }

} // namespace sl

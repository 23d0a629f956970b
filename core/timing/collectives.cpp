// SPDX-License-Identifier: MIT
#include "core/timing/collectives.h"

#include <algorithm>
#include <stdexcept>

namespace sl {
namespace {

struct Ring {
    int ranks = 1;
    double alpha = 0;           ///< the slowest neighbour pair's latency
    double beta = kInfinity;    ///< the narrowest neighbour pair's bandwidth
};

/// The ring over devices 0 .. p-1: its slowest neighbour pair i -> i+1 (mod p).
Ring ringOf(const Platform& p, int ranks) {
    Ring r{ranks};
    for (int i = 0; i < ranks; ++i) {
        const int next = (i + 1) % ranks;
        r.alpha = std::max(r.alpha, p.pairLatency(i, next));
        r.beta = std::min(r.beta, p.pairBandwidth(i, next));
    }
    return r;
}

double bandwidthTerm(double bytes, double beta) { return beta == kInfinity ? 0.0 : bytes / beta; }

} // namespace

double collectiveTime(const Platform& p, const OpWork& work) {
    if (work.opClass != OpClass::Collective || work.collective == Collective::None)
        throw std::invalid_argument("collectiveTime: the op is not a collective");
    const int ranks = std::min(work.groupSize > 0 ? work.groupSize : p.deviceCount(), p.deviceCount());
    if (ranks < 2) return 0;
    const Ring r = ringOf(p, ranks);
    const double steps = ranks - 1;
    const double share = steps / ranks;   // (p - 1) / p
    const double n = work.commBytes;
    switch (work.collective) {
    case Collective::AllReduce: return 2 * steps * r.alpha + 2 * share * bandwidthTerm(n, r.beta);
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return steps * r.alpha + share * bandwidthTerm(n, r.beta);
    case Collective::Permute: return r.alpha + bandwidthTerm(n, r.beta);
    case Collective::Broadcast: return steps * r.alpha + bandwidthTerm(n, r.beta);
    case Collective::None: break;
    }
    return 0;
}

} // namespace sl

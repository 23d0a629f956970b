// SPDX-License-Identifier: MIT
#include "core/optimizer/candidates.h"

#include "core/costmodel/chaintiming.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace sl {

std::vector<int> topKByProxy(std::span<const double> proxySpeedups, int k) {
    std::vector<int> index(proxySpeedups.size());
    std::iota(index.begin(), index.end(), 0);
    std::stable_sort(index.begin(), index.end(), [&](int a, int b) {
        return proxySpeedups[static_cast<size_t>(a)] > proxySpeedups[static_cast<size_t>(b)];
    });
    index.resize(std::min(index.size(), static_cast<size_t>(std::max(k, 0))));
    return index;
}

namespace {

TargetOutcome evaluateOnTarget(const Problem& p, TargetModel model, const CandidateOptions& o,
                               std::span<const Schedule> candidates, const std::vector<int>& kept) {
    const Problem target = model == TargetModel::Measured ? measuredTargetProblem(p, o.measuredGraph) : targetProblem(p, model, o.targetSeed);
    TargetOutcome out;
    out.model = model;
    for (int i : kept) {
        const double u = targetSpeedup(target, candidates[static_cast<size_t>(i)]);
        if (out.best < 0) out.ofProxyTop1 = u;
        if (out.best < 0 || u > out.bestOfK) {   // ties: the better proxy candidate
            out.bestOfK = u;
            out.best = i;
        }
    }
    return out;
}

} // namespace

CandidateReport evaluateCandidates(const Problem& p, std::span<const Schedule> candidates, const CandidateOptions& o) {
    if (candidates.empty()) throw std::invalid_argument("the candidate protocol needs at least one candidate schedule");
    if (o.topK < 1) throw std::invalid_argument("the candidate protocol needs top-k >= 1");
    const Problem proxy = o.rankOnProblem ? p : proxyProblem(p);
    std::vector<Schedule> timed;   // on the proxy: its speedups rank, its start times measure diversity
    std::vector<double> speedups;
    timed.reserve(candidates.size());
    for (const Schedule& s : candidates) {
        timed.push_back(timeChains(proxy, deviceChains(s, proxy.platform.deviceCount())));
        speedups.push_back(speedup(proxy, timed.back()));
    }
    CandidateReport r;
    r.candidates = static_cast<int>(candidates.size());
    r.keptIndices = topKByProxy(speedups, o.topK);
    r.kept = static_cast<int>(r.keptIndices.size());
    r.proxyTop1 = speedups[static_cast<size_t>(r.keptIndices.front())];
    std::vector<Schedule> kept;
    for (int i : r.keptIndices) {
        r.proxyTopKMean += speedups[static_cast<size_t>(i)];
        kept.push_back(timed[static_cast<size_t>(i)]);
    }
    r.proxyTopKMean /= r.kept;
    for (TargetModel m : o.targets) r.targets.push_back(evaluateOnTarget(p, m, o, timed, r.keptIndices));
    r.diversity = diversity(kept, o.diversity);
    return r;
}

std::vector<Schedule> candidatesOf(const RunResult& r) {
    if (!r.candidates.empty()) return r.candidates;
    return {r.schedule};
}

} // namespace sl

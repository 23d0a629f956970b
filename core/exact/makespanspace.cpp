// SPDX-License-Identifier: MIT
#include "core/exact/makespanspace.h"

#include "core/exact/rankbrancher.h"
#include "core/util/random.h"

#include <numeric>

namespace sl {

using namespace Gecode;

namespace {

std::shared_ptr<const std::vector<int>> seededTieRanks(int n, std::uint64_t seed) {
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    Rng rng(seed);
    rng.shuffle(order);
    auto rank = std::make_shared<std::vector<int>>(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) (*rank)[static_cast<size_t>(order[static_cast<size_t>(i)])] = i;
    return rank;
}

} // namespace

MakespanSpace::MakespanSpace(const CpInstance& in, int lower, int upper, std::uint64_t seed)
    : m_instance(&in),
      m_tieRank(seededTieRanks(static_cast<int>(in.duration.size()), seed)),
      m_start(*this, static_cast<int>(in.duration.size()), 0, upper),
      m_makespan(*this, lower, upper) {
    const auto n = in.duration.size();
    m_rank.ranked.assign(n, 0);
    m_rank.excluded.assign(n, 0);
    for (const CpInstance::Pool& pool : in.pools)
        m_rank.unranked.push_back(pool.devices.size() == 1 ? static_cast<int>(pool.ops.size()) : 0);
    postPrecedence();
    postResources();
    postBranching();
}

MakespanSpace::MakespanSpace(MakespanSpace& other)
    : IntMinimizeSpace(other), m_instance(other.m_instance), m_tieRank(other.m_tieRank), m_pooledOps(other.m_pooledOps),
      m_rank(other.m_rank) {
    m_start.update(*this, other.m_start);
    m_makespan.update(*this, other.m_makespan);
}

Space* MakespanSpace::copy() { return new MakespanSpace(*this); }

void MakespanSpace::postPrecedence() {
    const CpInstance& in = *m_instance;
    std::vector<char> hasSuccessor(in.duration.size(), 0);
    for (const CpInstance::Arc& a : in.arcs) {
        const int gap = in.duration[static_cast<size_t>(a.from)] + a.lag;
        linear(*this, IntArgs({1, -1}), IntVarArgs({start(a.from), start(a.to)}), IRT_LQ, -gap);
        hasSuccessor[static_cast<size_t>(a.from)] = 1;
    }
    // Sinks end by the makespan; every other op ends before a successor starts.
    for (OpId v = 0; v < static_cast<OpId>(in.duration.size()); ++v)
        if (!hasSuccessor[static_cast<size_t>(v)])
            linear(*this, IntArgs({1, -1}), IntVarArgs({start(v), m_makespan}), IRT_LQ, -in.duration[static_cast<size_t>(v)]);
}

void MakespanSpace::postResources() {
    const CpInstance& in = *m_instance;
    for (const CpInstance::Pool& pool : in.pools) {
        IntVarArgs starts;
        IntArgs durations;
        for (OpId v : pool.ops)
            if (in.duration[static_cast<size_t>(v)] > 0) {
                starts << start(v);
                durations << in.duration[static_cast<size_t>(v)];
            }
        const int devices = static_cast<int>(pool.devices.size());
        if (starts.size() <= devices) continue;   // never short of a device
        if (devices == 1)
            unary(*this, starts, durations, IPL_BASIC_ADVANCED);
        else
            cumulative(*this, devices, starts, durations, IntArgs::create(starts.size(), 1, 0), IPL_BASIC_ADVANCED);
    }
}

void MakespanSpace::postBranching() {
    const CpInstance& in = *m_instance;
    branchByRank(*this);
    IntVarArgs pooled;
    auto ops = std::make_shared<std::vector<OpId>>();
    for (const CpInstance::Pool& pool : in.pools)
        if (pool.devices.size() > 1)
            for (OpId v : pool.ops) pooled << start(v), ops->push_back(v);
    m_pooledOps = std::move(ops);
    if (pooled.size() > 0) {
        // Ties go by the seeded rank, not Gecode's INT_VAR_RND: its Rnd leaks (seen by ASan in 6.2).
        auto seededTie = [](const Space& home, IntVar, int i) {
            const auto& s = static_cast<const MakespanSpace&>(home);
            return static_cast<double>(s.tieRank(s.pooledOp(i)));
        };
        branch(*this, pooled, tiebreak(INT_VAR_MIN_MIN(), INT_VAR_MIN_MAX(), INT_VAR_MERIT_MIN(seededTie)), INT_VAL_MIN());
    }
    branch(*this, m_start, INT_VAR_NONE(), INT_VAL_MIN());
    branch(*this, m_makespan, INT_VAL_MIN());
}

} // namespace sl

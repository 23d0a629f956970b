// SPDX-License-Identifier: MIT
#include "core/exact/rankbrancher.h"

#include "core/exact/makespanspace.h"

#include <limits>
#include <ostream>

namespace sl {

using namespace Gecode;

namespace {

/// "op `op` is next on pool `pool`" (alternative 0) or "it is not" (alternative 1).
class RankChoice : public Choice {
public:
    RankChoice(const Brancher& b, int pool, int op) : Choice(b, 2), pool(pool), op(op) {}
    void archive(Archive& e) const override {
        Choice::archive(e);
        e << pool << op;
    }
    int pool, op;
};

bool rankable(const RankState& state, int pool) { return state.unranked[static_cast<size_t>(pool)] >= 2; }

/// Latest end - earliest start - work of the pool's unranked ops: how much room the device has.
long long slack(const MakespanSpace& s, const CpInstance::Pool& pool) {
    long long earliest = std::numeric_limits<long long>::max(), latest = 0, work = 0;
    for (OpId v : pool.ops) {
        if (s.rank().ranked[static_cast<size_t>(v)]) continue;
        const int p = s.instance().duration[static_cast<size_t>(v)];
        earliest = std::min<long long>(earliest, s.start(v).min());
        latest = std::max<long long>(latest, static_cast<long long>(s.start(v).max()) + p);
        work += p;
    }
    return latest - earliest - work;
}

/// The pool to rank: the current one until it is done, else the most critical.
int selectPool(const MakespanSpace& s) {
    const RankState& state = s.rank();
    if (state.current >= 0 && rankable(state, state.current)) return state.current;
    const auto& pools = s.instance().pools;
    int best = -1;
    long long bestSlack = 0;
    for (int i = 0; i < static_cast<int>(pools.size()); ++i) {
        if (!rankable(state, i)) continue;
        const long long room = slack(s, pools[static_cast<size_t>(i)]);
        if (best < 0 || room < bestSlack) {
            best = i;
            bestSlack = room;
        }
    }
    return best;
}

/// The unranked, not yet refused op of `pool` with the earliest start, or -1.
int candidate(const MakespanSpace& s, int pool) {
    int best = -1;
    for (OpId v : s.instance().pools[static_cast<size_t>(pool)].ops) {
        if (s.rank().ranked[static_cast<size_t>(v)] || s.rank().excluded[static_cast<size_t>(v)]) continue;
        if (best < 0) {
            best = v;
            continue;
        }
        const IntVar &a = s.start(v), &b = s.start(best);
        if (a.min() != b.min() ? a.min() < b.min() : a.max() != b.max() ? a.max() < b.max() : s.tieRank(v) < s.tieRank(best))
            best = v;
    }
    return best;
}

class RankBrancher : public Brancher {
public:
    explicit RankBrancher(Home home) : Brancher(home) {}
    RankBrancher(Space& home, RankBrancher& b) : Brancher(home, b) {}
    Actor* copy(Space& home) override { return new (home) RankBrancher(home, *this); }
    size_t dispose(Space& home) override {
        (void)Brancher::dispose(home);
        return sizeof(*this);
    }
    bool status(const Space& home) const override { return selectPool(static_cast<const MakespanSpace&>(home)) >= 0; }
    const Choice* choice(Space& home) override {
        auto& s = static_cast<MakespanSpace&>(home);
        const int pool = selectPool(s);
        s.rank().current = pool;
        return new RankChoice(*this, pool, candidate(s, pool));
    }
    const Choice* choice(const Space&, Archive& e) override {
        int pool = 0, op = 0;
        e >> pool >> op;
        return new RankChoice(*this, pool, op);
    }
    ExecStatus commit(Space& home, const Choice& c, unsigned int alternative) override {
        auto& s = static_cast<MakespanSpace&>(home);
        const auto& choice = static_cast<const RankChoice&>(c);
        s.rank().current = choice.pool;
        return alternative == 0 ? next(s, choice.pool, choice.op) : notNext(s, choice.pool, choice.op);
    }
    void print(const Space&, const Choice& c, unsigned int alternative, std::ostream& o) const override {
        const auto& choice = static_cast<const RankChoice&>(c);
        o << "op " << choice.op << (alternative == 0 ? " next" : " not next") << " on pool " << choice.pool;
    }

private:
    static ExecStatus next(MakespanSpace& s, int pool, OpId op) {
        RankState& state = s.rank();
        const int p = s.instance().duration[static_cast<size_t>(op)];
        for (OpId v : s.instance().pools[static_cast<size_t>(pool)].ops) {
            state.excluded[static_cast<size_t>(v)] = 0;
            if (v == op || state.ranked[static_cast<size_t>(v)]) continue;
            linear(s, IntArgs({1, -1}), IntVarArgs({s.start(op), s.start(v)}), IRT_LQ, -p);
        }
        state.ranked[static_cast<size_t>(op)] = 1;
        --state.unranked[static_cast<size_t>(pool)];
        return s.failed() ? ES_FAILED : ES_OK;
    }

    /// Some other unranked op comes first, so `op` starts no earlier than the earliest of their ends.
    static ExecStatus notNext(MakespanSpace& s, int pool, OpId op) {
        RankState& state = s.rank();
        state.excluded[static_cast<size_t>(op)] = 1;
        long long earliestEnd = std::numeric_limits<long long>::max();
        bool open = false;
        for (OpId v : s.instance().pools[static_cast<size_t>(pool)].ops) {
            if (v == op || state.ranked[static_cast<size_t>(v)]) continue;
            earliestEnd = std::min<long long>(earliestEnd, static_cast<long long>(s.start(v).min()) + s.instance().duration[static_cast<size_t>(v)]);
            open = open || !state.excluded[static_cast<size_t>(v)];
        }
        if (!open) return ES_FAILED;   // every unranked op was refused at this rank
        rel(s, s.start(op), IRT_GQ, static_cast<int>(earliestEnd));
        return s.failed() ? ES_FAILED : ES_OK;
    }
};

} // namespace

void branchByRank(MakespanSpace& home) {
    if (home.failed()) return;
    (void)new (home) RankBrancher(home);
}

} // namespace sl

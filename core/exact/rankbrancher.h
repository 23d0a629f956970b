// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Rank branching for the one-device pools of exact-makespan's model (internal to core/exact).
///
/// A schedule is fixed, up to left-shifting, by the order of the ops on each device, so the search
/// builds those orders from the front: it takes the most critical device that still has two or
/// more unranked ops (least slack: latest end - earliest start - remaining work), ranks it to the
/// end, then the next. At each step the candidate is the unranked op with the earliest start (ties:
/// earliest latest start, then the seeded tie order); the choice is "it comes next" (every other
/// unranked op of the device starts after it ends) or "it does not" (it is not tried again at this
/// rank, and starts no earlier than the earliest end of the others). Every order is reachable, so
/// an exhausted search proves optimality.

namespace sl {

class MakespanSpace;

/// Posts the rank brancher on `home` (which holds the ranking state, MakespanSpace::rank()).
void branchByRank(MakespanSpace& home);

} // namespace sl

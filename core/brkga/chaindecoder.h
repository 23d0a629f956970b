// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The chain decoder of `brkga-chains`: the GFlowNet paper's BRKGA baseline (Zhang et al., ICLR
/// 2023, §5; the paper gives no encoding, ours is in docs/brkga.md, "Choices where the papers are
/// silent"), decoding into exactly the GFlowNet's action space (the paper's §2.3).
///
/// Chromosome: 2n keys, a priority k_i at i and a device key g_i at n + i. Decoding repeatedly
/// takes the ready op of highest k_i (ties: the smaller id) and appends it to the chain of device
/// allowed_i[min(c_i - 1, floor(g_i c_i))], where allowed_i are the c_i devices of the op's machine
/// type (on identical devices: floor(g_i m)). Each start is final when the op is appended
/// (sl::gfn::PartialSchedule: max of the inputs' arrivals and the chain's tail), so the schedule
/// is the GFlowNet's terminal state for the same chains.
///
/// With shared links (sl::linksShared) the ops are timed in the order they were taken, booking
/// their links (sl::BookedOrder), and that order is the schedule's: its own replay to the bit.
///
/// The cost is sl::CostFunction's: the makespan alone when the cost needs no memory (the chains'
/// latest end, what sl::scoreSchedule recomputes from the schedule), else sl::scoreSchedule of the
/// full schedule. One decoder per thread; with a makespan-only cost decode() does not allocate
/// after construction. The problem must outlive the decoder.
///
/// \code
///   sl::ChainDecoder dec(problem);
///   double cost = dec.decode(keys);                 // keys.size() == dec.size() == 2n
///   sl::Schedule s = dec.schedule(keys);            // scored, same cost to the bit
/// \endcode

#include "core/costmodel/cost.h"
#include "core/costmodel/linkbooker.h"
#include "core/gflownet/environment.h"
#include "core/util/priorityqueue.h"

#include <span>
#include <vector>

namespace sl {

class ChainDecoder {
public:
    /// Throws GraphError if the problem is not schedulable (see Problem::check()).
    explicit ChainDecoder(const Problem& problem);

    std::size_t size() const { return 2 * static_cast<std::size_t>(m_env.ops()); }
    double decode(std::span<const double> keys);
    /// The decoded schedule, scored (sl::scoreSchedule).
    Schedule schedule(std::span<const double> keys);

private:
    void build(std::span<const double> keys);
    /// The built state as a schedule on the problem's clock (booked in taking order when shared).
    Schedule timedState() const;
    int deviceOf(OpId v, double key) const;

    const Problem& m_problem;
    gfn::ScheduleEnv m_env;
    CostFunction m_cost;
    std::vector<std::vector<int>> m_devicesOfType;   ///< Platform::devicesByType()
    gfn::PartialSchedule m_state;
    PriorityQueue m_ready;
    bool m_sharedLinks;
    std::vector<OpId> m_taken;   ///< shared links: the ops in the order they were taken
    std::vector<int> m_device;   ///< shared links: the device of each op
    BookedOrder m_booked;
};

/// Keys that decode to `s`'s device chains (each device's ops by start time, ties by their place
/// in s.order, as sl::deviceChains), every op started as early as those chains allow; with shared
/// links, to `s`'s placement and order (the booking order): a schedule as a chromosome, to seed the population with it (a hand-edited schedule, `--start FILE`).
std::vector<double> chainKeysOf(const Problem& p, const Schedule& s);

} // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The GFlowNet scheduling environment (Zhang et al., ICLR 2023, Sec. 2.2-3), torch-free.
///
///  - a state is a partial schedule: one chain of ops per device, closed under predecessors;
///  - a forward action (op, device) appends a ready op (all predecessors scheduled) to the
///    device's chain; its start time is final at once (the proxy's Eq. 2, computed incrementally):
///        start = max(arrival of every input on that device, end of the device's current tail);
///  - a backward action removes a removable op: a chain tail none of whose successors is
///    scheduled. A state has at most m parents (one per chain tail).
/// With identical devices and free transfers this is the paper's proxy (Eq. 1-3). On other
/// platforms (our extension: docs/costmodel.md, "The GFlowNet environment on other platforms") an
/// op may only go on a device of its machine type, runs for its duration there,
/// and an input from another device arrives `Platform::transferTime` after its producer ends,
/// exactly as sl::validateSchedule reads a schedule.
///
/// \code
///   sl::gfn::ScheduleEnv env(problem);
///   sl::gfn::PartialSchedule s(env);
///   s.add(0, 1);                            // op 0 on device 1
///   if (s.removable(0)) s.remove(0);        // back to the empty state
///   ... until s.complete(); sl::Schedule x = s.toSchedule();
///   double u = env.speedup(s.makespan());   // U = work / T
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <vector>

namespace sl::gfn {

/// What every state of one problem shares. `problem` must outlive it (and every state).
class ScheduleEnv {
public:
    explicit ScheduleEnv(const Problem& problem);

    const Problem& problem() const { return m_problem; }
    const Graph& graph() const { return m_problem.g(); }
    int ops() const { return m_problem.g().opCount(); }
    int devices() const { return m_problem.platform.deviceCount(); }
    /// The op may run on the device (machine types match).
    bool allowed(OpId v, int device) const;
    double duration(OpId v, int device) const { return m_problem.g().durationOn(v, device); }
    /// Sum over ops of the shortest duration on an allowed device: sum of rho_i on identical devices.
    double work() const { return m_work; }
    /// Proxy speedup U = work / makespan (the paper's Sec. 2.3); m (the ideal) when the makespan is 0.
    double speedup(double makespan) const;
    /// log R = (U - m) / sigma (the paper's Sec. 3.2, "Reward temperature").
    double logReward(double makespan, double sigma) const;

private:
    const Problem& m_problem;
    double m_work = 0;
};

class PartialSchedule {
public:
    explicit PartialSchedule(const ScheduleEnv& env);

    const ScheduleEnv& env() const { return *m_env; }
    int scheduledCount() const { return m_count; }
    bool complete() const { return m_count == m_env->ops(); }

    bool scheduled(OpId v) const { return m_device[idx(v)] >= 0; }
    /// Unscheduled with every predecessor scheduled.
    bool ready(OpId v) const { return !scheduled(v) && m_missingPreds[idx(v)] == 0; }
    /// A valid forward action.
    bool canAdd(OpId v, int device) const { return ready(v) && m_env->allowed(v, device); }
    /// A valid backward action: a chain tail with no scheduled successor.
    bool removable(OpId v) const;
    std::vector<OpId> readyOps() const;
    std::vector<OpId> removableOps() const;

    int device(OpId v) const { return m_device[idx(v)]; }   ///< -1 when unscheduled
    double start(OpId v) const { return m_start[idx(v)]; }
    double end(OpId v) const { return m_end[idx(v)]; }
    const std::vector<OpId>& chain(int device) const { return m_chains[static_cast<size_t>(device)]; }
    /// End of the device's last op, 0 when its chain is empty.
    double tailEnd(int device) const;
    /// The start `v` would get on `device` (every predecessor must be scheduled).
    double startIf(OpId v, int device) const;
    /// Latest end of a scheduled op (0 for the empty state): the makespan once complete.
    double makespan() const;

    /// Appends `v` to `device`'s chain. Throws std::logic_error if it is not a valid action.
    void add(OpId v, int device);
    /// Removes `v` from the end of its chain. Throws std::logic_error if it is not removable.
    void remove(OpId v);
    /// Back to the empty state, keeping the storage (a decoder's per-chromosome reset).
    void clear();

    /// The complete state as a timed schedule: ops with device/start/end, `order` by start time
    /// (then end, then topological position: a topological order), the transfers the placement
    /// implies. Throws std::logic_error if the state is not complete.
    Schedule toSchedule() const;

    /// Same chains (the state; the order of insertions across devices is not part of it).
    bool operator==(const PartialSchedule& o) const { return m_chains == o.m_chains; }

private:
    static size_t idx(OpId v) { return static_cast<size_t>(v); }
    const ScheduleEnv* m_env;
    int m_count = 0;
    std::vector<int> m_device;
    std::vector<double> m_start, m_end;
    std::vector<int> m_missingPreds;     ///< unscheduled predecessors per op
    std::vector<int> m_scheduledSuccs;   ///< scheduled successors per op
    std::vector<std::vector<OpId>> m_chains;
};

} // namespace sl::gfn

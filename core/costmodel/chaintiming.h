// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The time clock for a schedule whose per-device order is fixed: every op starts as early as its
/// device chain and its inputs allow (Zhang et al. 2023, §2.2, Eq. 2, plus the transfer delays of
/// the target models, core/costmodel/target.h).
///
/// This is how a schedule found on one problem (the proxy) is timed on another (a target model,
/// core/costmodel/target.h): its placement and per-device order are kept, its times are not. It
/// uses the list scheduler's rules (sl::ListScheduler): a device runs one op at a time; an input
/// produced on device p reaches device q != p at end(producer) + Platform::transferTime(p, q, bytes),
/// contention-free; durations are Graph::durationOn. On a list schedule, re-timing its own chains
/// gives back its times (tst_costmodel checks it), so both paths are one clock.
///
/// \code
///   auto chains = sl::deviceChains(schedule, problem.platform.deviceCount());
///   sl::Schedule s = sl::timeChains(targetProblem, chains);   // s.makespan on the target
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <string>
#include <vector>

namespace sl {

/// One ordered op list per device.
using DeviceChains = std::vector<std::vector<OpId>>;

/// Each device's ops of `s` by start time, ties by position in `s.order` (zero-length ops), for
/// `devices` devices. Throws std::invalid_argument if an op's device is outside [0, devices).
DeviceChains deviceChains(const Schedule& s, int devices);

/// Times `chains` on `p`: ops, order (by start time; a topological order), transfers, makespan.
/// Contention-free even when Topology::shared is set (chains hold no order across devices, which
/// the link bookings need): the proxies and targets without routes use it; on shared links the
/// chain searches and the editor time chains with sl::timeChainsOnPlatform (sl::BookedChains), and
/// a caller holding a Schedule uses sl::retimeSchedule (core/costmodel/sharedlinks.h).
/// Memory values are left to sl::scoreSchedule. Throws std::invalid_argument if the chains do not
/// hold every op exactly once, use a missing device or one of another machine type, or contradict
/// the graph's precedence (a cycle through chain and graph edges), naming an op.
Schedule timeChains(const Problem& p, const DeviceChains& chains);

/// timeChains' checks but the cycle: every op once, on an existing device of its machine type;
/// throws std::invalid_argument naming the op.
void checkDeviceChains(const Problem& p, const DeviceChains& chains);
/// The message for chains and graph that form a cycle through op `stuck` (which never got timed).
std::string chainCycleError(const Graph& g, OpId stuck);

/// `timeChains(p, chains).makespan`.
double chainMakespan(const Problem& p, const DeviceChains& chains);

} // namespace sl

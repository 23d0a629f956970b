// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Shared links (docs/time.md, "Shared links"): when Topology::shared is set, a link carries one
/// transfer at a time. The one booking rule, replayed from a schedule's placement and order:
/// for each op v in `s.order`, for each input tensor t of v (Graph::inputs order) produced on
/// another device and not yet sent to v's device, the transfer is booked on route(src, dst) from
/// max(end(producer), latest end of earlier bookings on any link of the route) for
/// Platform::transferTime(src, dst, bytes); every link of the route is then busy until its end (no
/// filling of earlier gaps). v starts at max(end of the previous op on its device in the order,
/// arrivals of its inputs).
///
/// The engines book links as they schedule (sl::LinkBooker: the list scheduler, the chain clock
/// sl::BookedChains, HEFT, the decoders); sl::finishResult re-times every returned schedule by
/// this replay, and the validator checks schedules against it, so method output, validator,
/// evaluate and the views agree.
///
/// \code
///   if (sl::linksShared(problem.platform)) schedule = sl::timeOnSharedLinks(problem, schedule);
///   sl::scoreSchedule(problem, schedule);
/// \endcode

#include "core/costmodel/chaintiming.h"
#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <string>

namespace sl {

/// True when the platform has a topology whose links carry one transfer at a time (and take time:
/// on free links nothing waits).
bool linksShared(const Platform& platform);

/// What the links of `platform` do, for a status line: "shared (one transfer at a time per link)",
/// "free (contention-free)" on a topology whose links are not shared, "" on an abstract platform
/// (one latency and bandwidth for every pair, nothing to share).
std::string linksDescription(const Platform& platform);

/// The replay: `s`'s placement and order kept, ops and transfers re-timed by the booking rule,
/// transfer steps kept, makespan set; memory values are left to sl::scoreSchedule. When links are
/// not shared nothing waits for a link: the contention-free timing of `s`'s order.
/// Throws std::invalid_argument for a schedule whose order is not a topological permutation, an op
/// on a missing device or one of another machine type, or a problem with a device of resource
/// capacity other than 1 or an op demanding other than 1 (the rule times one op at a time per
/// device).
Schedule timeOnSharedLinks(const Problem& p, const Schedule& s);

/// With shared links, replaces `s` by its replay (method, seed and memory clock kept); otherwise
/// leaves it as it is. The step every method's epilogue takes before scoring.
void bookSharedLinks(const Problem& p, Schedule& s);

/// The schedule's own clock on `p`: the replay when links are shared, else sl::timeChains of its
/// device chains (of every device it used, so that one the platform lacks is named in timeChains'
/// error). For callers that hold a Schedule (views, the explorer's re-timing, benches).
Schedule retimeSchedule(const Problem& p, const Schedule& s);

/// sl::timeChains, or when links are shared the chains timed with bookings
/// (sl::timeChainsOnSharedLinks: the booking order is the order in which the ops' inputs would be
/// ready), so a chain search (tabu, the editor) is scored on what it optimises.
Schedule timeChainsOnPlatform(const Problem& p, const DeviceChains& chains);

} // namespace sl

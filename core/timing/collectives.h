// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The time of a collective (all-reduce, all-gather, reduce-scatter, all-to-all, collective-permute,
/// broadcast) on the links of the devices taking part, by the ring algorithms of Thakur,
/// Rabenseifner and Gropp, "Optimization of Collective Communication Operations in MPICH"
/// (IJHPCA 2005) and Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms" (JPDC 2009).
/// With p ranks in a ring, N the buffer (bytes), alpha the slowest neighbour pair's latency and
/// beta its bandwidth:
///
///   all-reduce                   2 (p - 1) alpha + 2 (p - 1) / p x N / beta
///   all-gather, reduce-scatter   (p - 1) alpha + (p - 1) / p x N / beta   (N: the gathered buffer)
///   all-to-all                   (p - 1) alpha + (p - 1) / p x N / beta   (pairwise exchange)
///   collective-permute           alpha + N / beta                         (one hop)
///   broadcast                    (p - 1) alpha + N / beta                 (pipelined ring)
///
/// The ring is the devices 0 .. p-1 of the platform in order (a rank is its device index).

#include "core/graph/opwork.h"
#include "core/platform/platform.h"

namespace sl {

/// In the platform's time unit (its links'). p = work.groupSize, or every device when 0, capped
/// at the platform's devices; one rank costs nothing. Refuses (std::invalid_argument) work that
/// is not a collective.
double collectiveTime(const Platform& p, const OpWork& work);

} // namespace sl

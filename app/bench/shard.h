// SPDX-License-Identifier: MIT
#pragma once
/// Benchmarks split over the ranks of a distributed run, with no change to how they print.
///
/// A benchmark wraps each unit of its work (one method on one graph, say) in shardItem(). Alone,
/// that just computes it. Over N ranks, runSharded() runs the benchmark twice:
///  1. on every rank, with standard output silenced: each rank computes the items it owns (item i
///     belongs to rank i mod N) and gets NaNs for the others;
///  2. after the ranks' numbers are gathered at rank 0 (LibTorch's c10d, core/dist), on rank 0
///     only, printing: shardItem() hands back each item's numbers, bit for bit, without computing.
/// So the table rank 0 prints is the one-process table, provided the benchmark enumerates its items
/// in the same order on every rank and its numbers depend only on the item (not on the clock).
///
/// \code
///   const std::vector<double> r = shardItem(2, [&] { auto x = run(m, p); return std::vector{x.cost, x.seconds}; });
/// \endcode

#include "core/dist/communicator.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace sl::cli {

/// One unit of work with `width` numbers (see above).
std::vector<double> shardItem(std::size_t width, const std::function<std::vector<double>()>& compute);

/// True while runSharded() runs a benchmark over several ranks (a timing part can refuse).
bool shardingActive();

/// Runs `bench` over the ranks of `comm` as above; returns its exit code (rank 0: the printing
/// pass's). A world of one runs it once.
int runSharded(const std::function<int()>& bench, dist::Communicator& comm);

} // namespace sl::cli

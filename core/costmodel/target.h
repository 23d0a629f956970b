// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Target cost models (Zhang et al., "Robust Scheduling with GFlowNets", ICLR 2023, §5.1 and
/// App. E.3): deliberately misspecified stand-ins for real hardware, against which schedules found
/// on the proxy are judged. The paper gives no noise model and no a, b: ours are in
/// docs/costmodel.md, "Choices where the papers are silent", "Target models".
///
///  - Proxy:     the time clock with zero-cost transfers (the paper's §2.2), durations as profiled;
///  - Noisy:     the proxy with every duration multiplied by exp(eps), eps ~ N(0, 0.5^2), drawn
///               once per graph from a seed (a systematic profiling error, not fresh noise);
///  - Bandwidth: the proxy plus a transfer delay a·mem + b on every cross-device edge, a = 8 ρ̄ per
///               unit of memory, b = 0.1 ρ̄ (ρ̄ = mean duration);
///  - Latency:   the same with a = 0.1 ρ̄, b = 2 ρ̄.
///
/// The delay is the platform's interconnect (latency b, bandwidth unit/a bytes per time unit), so
/// targets are ordinary Problems and every schedule is timed by the one clock
/// (core/costmodel/chaintiming.h). The unit of memory: our graphs carry bytes, the calibration
/// assumed mem ~ U(0, 1) (mean 1/2), so one unit is twice the graph's mean positive tensor
/// bytes. Every input tensor produced on another device pays its delay, zero-byte ones b (a
/// control dependency is a cross-device edge too); parallel tensors of one edge are separate,
/// contention-free transfers (the list scheduler's rule), so the edge waits for the largest.
///
/// \code
///   sl::Problem target = sl::targetProblem(problem, sl::TargetModel::Bandwidth);
///   double u = sl::targetSpeedup(target, schedule);   // Σρ' / makespan of its chains on target
///   double u0 = sl::proxySpeedup(problem, schedule);
/// \endcode

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <memory>
#include <string>

namespace sl {

/// Measured: the problem's own platform with measured op times (a profile applied to the graph):
/// a real machine as the target (docs/time.md, "A real target"); built by measuredTargetProblem.
/// SharedLinks: the problem's own machine with its links shared (docs/time.md, "Shared links"):
/// a schedule drawn on the contention-free proxy judged where its transfers queue; on a machine
/// without routes, its own interconnect (nothing to share).
enum class TargetModel { Proxy, Noisy, Bandwidth, Latency, Measured, SharedLinks };

std::string toString(TargetModel m);
/// "proxy", "noisy", "bandwidth", "latency", "measured" or "shared-links"; throws
/// std::invalid_argument otherwise.
TargetModel targetModelFromString(const std::string& s);

/// The transfer delay a·mem + b (time units; mem in units of memoryUnitBytes).
struct TransferDelay {
    double a = 0;
    double b = 0;
};

/// The calibrated delay (docs/costmodel.md, "Target models") for a graph of mean duration
/// `meanDuration`; {0, 0} for Proxy and Noisy.
TransferDelay targetDelay(TargetModel m, double meanDuration);
/// Bytes in one unit of memory: 2 x the mean of the positive tensor sizes (0 if there are none).
double memoryUnitBytes(const Graph& g);
/// The interconnect that charges `delay` on `g`'s tensors (free for {0, 0}).
Interconnect delayInterconnect(const Graph& g, TransferDelay delay);

inline constexpr double kNoisySigma = 0.5;
/// A finalized copy of `g` with every duration (and per-device duration) of op i multiplied by
/// exp(sigma · z_i), z_i standard normal, drawn in op order from sl::Rng(seed).
std::shared_ptr<Graph> noisyGraph(const Graph& g, std::uint64_t seed, double sigma = kNoisySigma);

/// `p` with zero-cost transfers: the clock optimizers see (the GFlowNet paper's proxy, §2.2).
Problem proxyProblem(const Problem& p);
/// `p`'s target under `m`: the proxy with the model's durations and interconnect. `seed` only
/// matters for Noisy. Measured needs its profile: std::invalid_argument (measuredTargetProblem).
Problem targetProblem(const Problem& p, TargetModel m, std::uint64_t seed = 1);

/// `p` judged on measured times: `measured` is p's graph with a profile applied (the same ops),
/// the platform and its links unchanged. Throws std::invalid_argument for another graph.
Problem measuredTargetProblem(const Problem& p, std::shared_ptr<const Graph> measured);
/// Σ durations / makespan of `s`'s device chains re-timed on `p` (sl::timeChainsOnPlatform: with
/// bookings when `p`'s links are shared). Throws
/// std::invalid_argument if the makespan is 0 (every duration zero) or the chains do not fit `p`.
double speedup(const Problem& p, const Schedule& s);
/// speedup() on proxyProblem(p).
double proxySpeedup(const Problem& p, const Schedule& s);
/// speedup() on a target built by targetProblem() (build it once for many schedules).
inline double targetSpeedup(const Problem& target, const Schedule& s) { return speedup(target, s); }

} // namespace sl

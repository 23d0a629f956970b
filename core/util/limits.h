// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What SchedLab accepts, in one place: every reader, the CLI and the explorer check against these
/// before they allocate or hand text to a third-party parser, and a refusal names the file, the item
/// and the limit. Real inputs are far below the defaults; a hostile or corrupt one must not exhaust
/// memory, stack or time. docs/reliability.md lists them.
///
/// The limits are process-wide and set once at start-up, before any worker thread runs (the CLI's
/// `--limit KEY=VALUE`, or the SCHEDLAB_LIMITS environment variable, "ops=1000000,devices=64").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

struct Limits {
    std::int64_t ops = 5'000'000;                  ///< ops in one graph
    std::int64_t edges = 50'000'000;               ///< tensor edges (producer-consumer pairs)
    std::int64_t devices = 4'096;                  ///< devices of a platform, job-shop machines
    std::int64_t threads = 256;                    ///< worker threads of one run
    std::int64_t textBytes = std::int64_t(1) << 30;   ///< one text file (JSON, DOT, STG, HLO, ...)
    std::int64_t lineBytes = std::int64_t(16) << 20;  ///< one line of a text file
    std::int64_t tokenBytes = std::int64_t(256) << 10;   ///< one name, quoted string or attribute value
    std::int64_t edgeChain = 2'000;                ///< edges in one DOT statement "a -> b -> c ..."
    double duration = 1e15;                        ///< one duration, in the graph's unit
    double totalDuration = 1e18;                   ///< sum of all durations (keeps every schedule time finite)
    double tensorBytes = 1125899906842624.0;       ///< one tensor or one op's parameters: 1 PiB
};

/// All tensors and parameters of a graph: 2^53 bytes. Not configurable: below it every memory sum
/// of the cost model is exact, so its clocks agree to the bit whatever order they add in.
inline constexpr double kMaxTotalBytes = 9007199254740992.0;

/// The limits in force.
const Limits& limits();
/// Replaces them (start-up only: not synchronised with running readers).
void setLimits(const Limits& l);

/// `base` with "key=value,key=value" applied; keys are the field names above in kebab-case
/// (ops, edges, devices, threads, text-bytes, line-bytes, token-bytes, edge-chain, duration,
/// total-duration, tensor-bytes). Throws std::invalid_argument naming the
/// key or value at fault.
Limits parseLimits(std::string_view spec, Limits base);

/// One line per limit, "key = value  (what it bounds)", for `--help` and the docs.
std::vector<std::string> describeLimits(const Limits& l);

/// Applies SCHEDLAB_LIMITS from the environment, if set. Throws std::invalid_argument on a bad value.
void applyLimitsFromEnvironment();

} // namespace sl

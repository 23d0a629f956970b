// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Pins: ops fixed by hand to a device, or to a device and a place among that device's pinned ops.
/// Part of the problem (Problem::pins), so every method reads them; a method that can keep them
/// says so (OptimizerInfo::acceptsPins) and the others are refused before they run
/// (checkPins, core/optimizer/optimizer.h). The validator checks every schedule against them.
///
/// A ranked pin orders the ranked ops of one device: the one of rank k runs after the one of the
/// next lower rank there; unranked ops (pinned or not) may run anywhere between them.
///
/// \code
///   problem.pins.pin(conv1, /*device=*/1);             // conv1 on device 1
///   problem.pins.pin(conv2, 1, /*rank=*/0);            // conv2 on device 1, before ...
///   problem.pins.pin(relu3, 1, /*rank=*/1);            // ... relu3
///   std::string why = pinViolation(problem, schedule); // empty when the schedule keeps them
/// \endcode

#include "core/graph/graph.h"
#include "core/schedule/schedule.h"

#include <string>
#include <vector>

namespace sl {

struct Platform;
struct Problem;

struct Pin {
    int device = -1;   ///< -1: not pinned
    int rank = -1;     ///< -1: pinned to the device only; else its place among the device's ranked pins
    bool operator==(const Pin&) const = default;
};

class Pins {
public:
    bool empty() const { return m_count == 0; }
    int count() const { return m_count; }
    Pin of(OpId v) const { return static_cast<std::size_t>(v) < m_pins.size() ? m_pins[static_cast<std::size_t>(v)] : Pin{}; }
    bool pinned(OpId v) const { return of(v).device >= 0; }
    void pin(OpId v, int device, int rank = -1);
    void unpin(OpId v);
    /// The ranked ops of `device`, by rank.
    std::vector<OpId> ranked(int device) const;
    bool operator==(const Pins& o) const;

private:
    std::vector<Pin> m_pins;   ///< by op; shorter than the graph when the last ops are free
    int m_count = 0;
};

/// Why no schedule can keep `pins` on this graph and platform, naming the op (a device that does
/// not exist or is of another machine type, two ops with one rank on a device, ranks against the
/// graph's precedence); empty when some schedule can.
std::string pinsError(const Graph& g, const Platform& platform, const Pins& pins);

/// The first pin `s` breaks, as a sentence naming the op; empty when it keeps them all.
std::string pinViolation(const Graph& g, const Pins& pins, const Schedule& s);

} // namespace sl

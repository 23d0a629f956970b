// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Makespan lower bounds that count transfers (docs/time.md, "Shared links"). Placement is free in
/// general, and co-locating an op with its producers avoids every transfer, so a transfer counts
/// only where the problem forces it: an op and its producer that can share no device (machine
/// types, pins). Both bounds hold for every schedule, on free and on shared links; they equal the
/// plain critical path (or 0) where nothing forces a transfer, e.g. identical GPUs with no pins.

#include "core/costmodel/problem.h"

#include <vector>

namespace sl {

struct TransferBounds {
    /// max over ops of min over the op's devices of its earliest finish, where an input made on
    /// another device arrives its transfer time after its producer's earliest finish there (the
    /// producer's device chosen best for each consumer device; devices' other work ignored).
    double criticalPath = 0;
    /// Shared links only (else 0): max over links of the one-machine bound (Jackson's preemptive
    /// schedule) of the transfers every placement sends over that link, each with its producer's
    /// earliest finish as head, its shortest transfer time as duration and its consumer's shortest
    /// remaining path as tail. A link carries one transfer at a time.
    double busiestLink = 0;
};

/// O(tensors x consumers x D^2) for D devices (the transfer table), plus O(links x T log T) for T
/// forced transfers. `p.graph` must be finalized.
TransferBounds transferBounds(const Problem& p);

/// The devices op `v` may run on: its pinned device, else every device of its machine type.
std::vector<int> allowedDevices(const Problem& p, OpId v);

}   // namespace sl

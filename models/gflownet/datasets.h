// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Training problems for the GFlowNet: identical devices, free transfers, makespan. Families:
/// "er" (Erdős–Rényi with p = min(1, 6 / n), the paper's p = 0.12 at n = 50, oriented by a random
/// permutation) and any sl::generateInstance family, their durations drawn rho ~ U(0, 1)
/// (clamped to >= 1e-3) as in the paper; "nn" (network-like inference graphs) and "nn-train"
/// (their training steps, core/graph/traininggraph.h) keep their own durations, scaled to a
/// longest op of 1. Machine types are dropped. Torch-free.

#include "core/costmodel/problem.h"

#include <cstdint>
#include <string>
#include <vector>

namespace sl::gfn {

/// One generated problem on `devices` identical devices. Throws std::invalid_argument for an unknown family.
Problem trainingProblem(const std::string& family, int nodes, int devices, std::uint64_t seed);

/// The problem of a graph file on `devices` identical devices (machine types kept only if the
/// file's ops all have type 0). Throws on I/O errors or typed graphs.
Problem fileProblem(const std::string& path, int devices);

} // namespace sl::gfn

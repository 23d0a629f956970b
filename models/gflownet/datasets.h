// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Training problems for the GFlowNet (spec/gflownet.md §7.2): identical devices, free transfers,
/// makespan, durations rho ~ U(0, 1) (clamped to >= 1e-3: positive durations, spec §4.1).
/// Families: "er" (Erdős–Rényi with p = min(1, 6 / n), spec §7.2's p = 0.12 at n = 50, oriented by
/// a random permutation) and any sl::generateInstance family (its DAG; machine types and
/// durations replaced). Torch-free.

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

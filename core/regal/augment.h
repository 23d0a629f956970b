// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The data augmentation of Paliwal et al. (ICLR 2020, App. A.1): a copy of a graph whose every
/// tensor size is multiplied by its own U(lo, hi) draw (one draw per tensor per copy), rounded to
/// whole bytes; zero stays zero, so control dependencies remain control dependencies. Ops, names
/// and structure are unchanged.

#include "core/graph/graph.h"

#include <cstdint>

namespace sl::regal {

/// Throws std::invalid_argument unless 0 < lo <= hi; the result is finalized.
Graph perturbTensorSizes(const Graph& g, std::uint64_t seed, double lo = 0.5, double hi = 1.5);

} // namespace sl::regal

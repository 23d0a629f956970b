// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The `priority-sampler` optimizer: learned logits -> Gumbel samples -> list scheduling through
/// the project's cost model; Greedy or best of S(k). Torch-free header.

#include "core/costmodel/problem.h"
#include "core/optimizer/optimizer.h"

#include <memory>
#include <string>

namespace sl::ps {

/// The weight file `run` uses for a problem when the `weights` option is empty: the shipped
/// job-shop model for job-shop-like problems (more than three machine types, one unit-capacity
/// device per type, unit demands), else the layered-typed model. Empty if none is installed.
std::string defaultWeightsFor(const Problem& problem);
/// Shipped weight file of a task ("layered-typed", "jobshop") in sl::models::modelsDir().
std::string shippedWeights(const std::string& task);

OptimizerInfo prioritySamplerInfo();
std::unique_ptr<Optimizer> makePrioritySampler();

/// Adds `priority-sampler` to the optimizer registry (once) and to the `train` command table.
void registerPrioritySampler();

} // namespace sl::ps

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The registered BRKGA optimizers:
///  - `brkga`: REGAL's chromosome (placement + order, sl::RegalDecoder), any objective;
///  - `brkga-order`: priorities only (sl::OrderDecoder), devices chosen by the list scheduler;
///    warm-started by default with the critical-path (list-cp) priorities;
///  - `brkga-chains`: a priority and a device key per op (sl::ChainDecoder), the GFlowNet paper's
///    baseline in the GFlowNet's action space (Zhang et al. 2023, §5; docs/brkga.md); makespan only.
/// Options (RunOptions::values, declared by optionSpecs()): population, elites, mutants, rho,
/// populations, exchange-interval, exchange-count, restart-stall, stall, alpha and beta (one
/// Beta distribution for all mutant and initial keys; 1, 1 = uniform), symmetry and placement,
/// balance, locality (brkga: placementOptionSpecs()) or warm-start (brkga-order). Budget defaults
/// to 5,000 evaluations.

#include "core/brkga/balancedplacement.h"
#include "core/brkga/brkga.h"
#include "core/optimizer/optimizer.h"

#include <memory>
#include <vector>

namespace sl::brkga {

enum class Chromosomes { Regal, Order, Chains };

std::vector<OptionSpec> optionSpecs(Chromosomes kind);
/// Engine parameters from declared options (defaults: the papers' 100 / 10 / 10 / 0.7).
Params paramsFromOptions(const RunOptions& o);
std::unique_ptr<Optimizer> makeOptimizer(Chromosomes kind);

/// How REGAL's decoder places ops, for `brkga` and `regal` alike: placement auto | affinity |
/// balanced (sl::BalancedPlacement), and the balanced rule's balance and locality.
std::vector<OptionSpec> placementOptionSpecs();
/// The rule `o` asks for on `problem`: "auto" (the default) is sl::kMemoryPlacement, with the
/// balance and locality given, for the peak memory of a training step (sl::isTrainingStep) and
/// affinity alone for anything else;
/// "affinity" is the papers' decoder. Throws std::invalid_argument for an unknown name.
PlacementRule placementRuleFromOptions(const RunOptions& o, const Problem& problem);

inline constexpr std::int64_t kDefaultBudget = 5000;

} // namespace sl::brkga

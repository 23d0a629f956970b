// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// `list-gumbel`: a temperature sampler without training, the baseline of the Temperature panel
/// and the sweep. Sample i draws priorities
///     key(v) = bottomLevel(v) / ρ̄ + Gumbel(0, σ)      (ρ̄ = the graph's mean op duration)
/// from the stream deriveSeed(seed, i) and list-schedules them on the proxy (sl::ListScheduler).
/// σ → 0 gives list-cp's schedule every time; σ ~ 1 lets ops one mean duration apart on the
/// critical path swap, so quality falls and diversity grows as σ rises, as the GFlowNet's should.
/// Dividing by ρ̄ makes σ unit-less: the same σ means the same thing on any time scale.

#include "core/optimizer/sampler.h"

#include <memory>

namespace sl {

/// The registry's entry: trained range [0, inf) (nothing to extrapolate).
SamplerInfo listGumbelInfo();
std::unique_ptr<TemperatureSampler> makeListGumbelSampler();

} // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Adds `priority-sampler` to the `schedlab-cli train` table (models/train/trainers.h).

namespace sl::ps {

void registerPrioritySamplerTrainer();

} // namespace sl::ps

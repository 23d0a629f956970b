// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Adds `gflownet` to the `schedlab-cli train` table (models/train/trainers.h).

namespace sl::gfn {

void registerGflowNetTrainer();

} // namespace sl::gfn

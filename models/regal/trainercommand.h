// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Adds `regal` to the `schedlab-cli train` table (models/train/trainers.h).

namespace sl::regal {

void registerRegalTrainer();

} // namespace sl::regal

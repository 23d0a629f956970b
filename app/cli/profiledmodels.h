// SPDX-License-Identifier: MIT
#pragma once
// `--from MODEL=PROFILE,MODEL=PROFILE`: models with a measured profile each, for `calibrate --from`
// and `bench cost-model --runtime` (core/profile/learnedmachine.h).

#include "args.h"

#include "core/profile/learnedmachine.h"

#include <string>
#include <vector>

namespace sl::cli {

/// Reads every MODEL=PROFILE pair of `text` (comma-separated). Throws UsageError for a pair
/// without '=', IoError naming a file that cannot be read or a profile of another model.
std::vector<ProfiledModel> readProfiledModels(const std::string& text, const std::string& option);

}   // namespace sl::cli

// SPDX-License-Identifier: MIT
#include "profiledmodels.h"

#include <sstream>

namespace sl::cli {

std::vector<ProfiledModel> readProfiledModels(const std::string& text, const std::string& option) {
    std::vector<ProfiledModel> out;
    std::stringstream list(text);
    for (std::string pair; std::getline(list, pair, ',');) {
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == pair.size())
            throw UsageError("--" + option +
                             " takes MODEL=PROFILE pairs (the model file, then its measured profile), got '" + pair +
                             "'");
        out.push_back(loadProfiledModel(pair.substr(0, eq), pair.substr(eq + 1)));
    }
    if (out.empty()) throw UsageError("--" + option + " names no MODEL=PROFILE pair");
    return out;
}

}   // namespace sl::cli

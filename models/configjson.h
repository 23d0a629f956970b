// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Reading the sizes of a model's stored configuration. nlohmann's get<int>() converts a JSON
/// 1e300 to int, which is undefined behaviour: a weight file is input, so every size goes through
/// here instead.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace sl::models {

/// `v` as an int: a JSON integer within int's range, else std::invalid_argument naming `what`.
inline int configIntValue(const nlohmann::json& v, const char* what) {
    if (!v.is_number_integer()) throw std::invalid_argument(std::string(what) + " is not a whole number");
    const bool fits = v.is_number_unsigned() ? v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                                             : v.get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                                                   v.get<std::int64_t>() <= std::numeric_limits<int>::max();
    if (!fits) throw std::invalid_argument(std::string(what) + " is out of range");
    return static_cast<int>(v.get<std::int64_t>());
}

/// `j[key]` as configIntValue() reads it; std::out_of_range (nlohmann's) when `key` is missing.
inline int configInt(const nlohmann::json& j, const char* key) { return configIntValue(j.at(key), key); }

/// configInt() when `key` is present, else `fallback`.
inline int configIntOr(const nlohmann::json& j, const char* key, int fallback) {
    return j.contains(key) ? configInt(j, key) : fallback;
}

} // namespace sl::models

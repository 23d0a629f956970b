// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Small text helpers shared by the readers.

#include <string_view>

namespace sl {

/// `s` without its leading and trailing blanks: spaces, tabs and carriage returns (a file written
/// on Windows).
inline std::string_view trimBlanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

} // namespace sl

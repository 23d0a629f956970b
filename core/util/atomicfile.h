// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Writes a whole file or nothing: the content goes to a temporary file in the same folder, which
/// is flushed and renamed over the target. Throws IoError (core/io/graphio.h) naming the path.

#include <string>
#include <string_view>

namespace sl {

void writeFileAtomically(const std::string& path, std::string_view content);
/// Reads a whole file; throws IoError naming the path. Refuses files above `maxBytes`.
std::string readFile(const std::string& path, std::size_t maxBytes = std::size_t(2) << 30);

} // namespace sl

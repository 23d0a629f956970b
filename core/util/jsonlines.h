// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Reading a file of JSON lines (a header line, then one record per line, as the label sets of
/// core/regal/labels.h and models/topoformer/labelset.h are kept): each line is parsed and handed
/// on with its number, and any failure, the parse's or the caller's, is reported as
/// "FILE:LINE: what".

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <string>

namespace sl {

/// Calls `onLine(lineNumber, json)` for every line of `path`, from 1. Throws IoError when the file
/// cannot be read, and std::runtime_error "path:line: reason" when a line does not parse or
/// `onLine` throws.
void forEachJsonLine(const std::string& path, const std::function<void(int lineNumber, const nlohmann::json& line)>& onLine);

} // namespace sl

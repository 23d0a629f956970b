// SPDX-License-Identifier: MIT
#include "core/io/importers.h"
#include "core/io/ioutil.h"
namespace sl::io_detail {
LoadedGraph readHlo(std::string_view, const std::string& source) { fail(source, "HLO: not implemented yet"); }
} // namespace sl::io_detail

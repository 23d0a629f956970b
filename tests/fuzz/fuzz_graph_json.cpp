// SPDX-License-Identifier: MIT
// libFuzzer target: the native graph JSON reader (sl::parseGraph with GraphFormat::Json).
#include "fuzzgraph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sl::fuzz::fuzzGraph(data, size, sl::GraphFormat::Json);
}

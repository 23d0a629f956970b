// SPDX-License-Identifier: MIT
// libFuzzer target: the WfCommons JSON reader (sl::parseGraph with GraphFormat::WfCommons).
#include "fuzzgraph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sl::fuzz::fuzzGraph(data, size, sl::GraphFormat::WfCommons);
}

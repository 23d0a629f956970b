// SPDX-License-Identifier: MIT
// libFuzzer target: the STG reader (sl::parseGraph with GraphFormat::Stg).
#include "fuzzgraph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sl::fuzz::fuzzGraph(data, size, sl::GraphFormat::Stg);
}

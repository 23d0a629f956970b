// SPDX-License-Identifier: MIT
// libFuzzer target: the XLA HLO text reader (sl::parseGraph with GraphFormat::Hlo).
#include "fuzzgraph.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sl::fuzz::fuzzGraph(data, size, sl::GraphFormat::Hlo);
}

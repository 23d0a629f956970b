// SPDX-License-Identifier: MIT
#pragma once
// What every graph-reader target does with one input: parse it as `format` through the public API
// and, when it reads, write it back as native JSON (a writer must take whatever a reader accepts).
// Only the documented refusals are swallowed; anything else escapes and libFuzzer reports it.

#include "core/io/graphio.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

namespace sl::fuzz {

inline int fuzzGraph(const std::uint8_t* data, std::size_t size, GraphFormat format) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const LoadedGraph g = parseGraph(text, format, "fuzz");
        (void)graphToJson(*g.graph, g.platform ? &*g.platform : nullptr);
    } catch (const GraphError&) {        // IoError too: the reader refused, naming the fault
    } catch (const std::invalid_argument&) {
    }
    return 0;
}

} // namespace sl::fuzz

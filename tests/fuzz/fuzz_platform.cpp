// SPDX-License-Identifier: MIT
// libFuzzer target: the platform JSON reader (sl::parsePlatform), then its writer.
#include "core/io/graphio.h"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const sl::Platform p = sl::parsePlatform(text, "fuzz");
        (void)sl::platformToJson(p);
    } catch (const sl::GraphError&) {
    } catch (const std::invalid_argument&) {
    }
    return 0;
}

// SPDX-License-Identifier: MIT
#pragma once
// Enough of a protobuf wire-format writer to hand-craft small ONNX models in tests (field numbers
// from onnx.proto): varints, varint fields and length-delimited fields.

#include <cstdint>
#include <string>

namespace sl::test {

inline std::string varint(std::uint64_t v) {
    std::string s;
    for (; v >= 0x80; v >>= 7) s += static_cast<char>((v & 0x7f) | 0x80);
    return s + static_cast<char>(v);
}
inline std::string field(int number, std::uint64_t v) { return varint(static_cast<std::uint64_t>(number) << 3) + varint(v); }
inline std::string field(int number, const std::string& bytes) {
    return varint((static_cast<std::uint64_t>(number) << 3) | 2) + varint(bytes.size()) + bytes;
}

} // namespace sl::test

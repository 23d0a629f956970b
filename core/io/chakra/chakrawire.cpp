// SPDX-License-Identifier: MIT
// The protobuf wire format of Chakra's `.et` traces (chakrawire.h): the field walker, and the
// scalars of AttributeProto's oneof, single or in lists.
#include "core/io/chakra/chakrawire.h"
#include "core/io/ioutil.h"

#include <algorithm>
#include <bit>

namespace sl::io_detail::chakra {

void Wire::failHere(std::size_t offset, const std::string& message) const {
    fail(m_source, "byte " + std::to_string(m_base + offset) + " (" + m_where + "): " + message);
}

std::uint64_t Wire::varint() {
    const std::size_t start = m_pos;
    std::uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (m_pos >= m_data.size())
            failHere(start, "truncated varint (the data ends inside a number; truncated file?)");
        const auto b = static_cast<unsigned char>(m_data[m_pos++]);
        if (shift == 63 && b > 1) failHere(start, "malformed varint (more than 64 bits)");
        v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    failHere(start, "malformed varint (more than 10 bytes)");
}

Field Wire::next() {
    Field f;
    f.offset = m_base + m_pos;
    const std::size_t start = m_pos;
    const std::uint64_t key = varint();
    f.number = static_cast<std::uint32_t>(std::min<std::uint64_t>(key >> 3, UINT32_MAX));
    f.wireType = static_cast<int>(key & 7);
    if (f.number == 0) failHere(start, "field number 0 (not protobuf data)");
    switch (f.wireType) {
    case 0: f.value = varint(); break;
    case 1: f.value = fixed(8, start); break;
    case 5: f.value = fixed(4, start); break;
    case 2: {
        const std::uint64_t length = varint();
        if (length > m_data.size() - m_pos)
            failHere(start,
                     "field " + std::to_string(f.number) + " claims " + std::to_string(length) + " bytes but only " +
                         std::to_string(m_data.size() - m_pos) + " remain in its message (truncated or corrupt file?)");
        f.bytes = m_data.substr(m_pos, static_cast<std::size_t>(length));
        m_pos += static_cast<std::size_t>(length);
        break;
    }
    default:
        failHere(start,
                 "field " + std::to_string(f.number) + " has wire type " + std::to_string(f.wireType) +
                     ", which proto3 does not write (not a Chakra trace?)");
    }
    return f;
}

void Wire::expect(const Field& f, int type, const char* name) const {
    if (f.wireType != type)
        failHere(f.offset - m_base,
                 std::string("field ") + std::to_string(f.number) + " (" + name + ") has wire type " +
                     std::to_string(f.wireType) + ", expected " + std::to_string(type) + " (not a Chakra trace?)");
}

Wire Wire::nested(const Field& f) const {
    return Wire(f.bytes, m_base + static_cast<std::size_t>(f.bytes.data() - m_data.data()), m_source, m_where);
}

std::uint64_t Wire::fixed(int width, std::size_t start) {
    if (m_data.size() - m_pos < static_cast<std::size_t>(width))
        failHere(start, "truncated fixed-width value (truncated file?)");
    std::uint64_t v = 0;
    for (int i = width - 1; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(m_data[m_pos + static_cast<std::size_t>(i)]);
    m_pos += static_cast<std::size_t>(width);
    return v;
}

Scalar scalarOfField(std::uint32_t number) {
    switch (number) {
    case 3: return Scalar::Double;
    case 5: return Scalar::Float;
    case 7: return Scalar::Int32;
    case 9: return Scalar::Int64;
    case 11:
    case 13: return Scalar::Unsigned;
    case 15:
    case 17: return Scalar::Zigzag;
    case 19: return Scalar::Fixed32;
    case 21: return Scalar::Fixed64;
    case 23: return Scalar::SFixed32;
    case 25: return Scalar::SFixed64;
    case 27: return Scalar::Bool;
    default: return Scalar::None;
    }
}

int wireTypeOf(Scalar s) {
    switch (s) {
    case Scalar::Double:
    case Scalar::Fixed64:
    case Scalar::SFixed64: return 1;
    case Scalar::Float:
    case Scalar::Fixed32:
    case Scalar::SFixed32: return 5;
    default: return 0;
    }
}

double scalarValue(Scalar s, std::uint64_t raw) {
    switch (s) {
    case Scalar::Double: return std::bit_cast<double>(raw);
    case Scalar::Float: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)));
    case Scalar::Int32: return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(raw)));
    case Scalar::Int64:
    case Scalar::SFixed64: return static_cast<double>(static_cast<std::int64_t>(raw));
    case Scalar::SFixed32: return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(raw)));
    case Scalar::Zigzag: return static_cast<double>(static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1)));
    case Scalar::Bool: return raw != 0;
    default: return static_cast<double>(raw);
    }
}

/// How many values a repeated scalar holds, packed (one length-delimited field) or not (one field each).
std::size_t countListValues(Wire& list, Scalar s) {
    std::size_t count = 0;
    while (list.more()) {
        const Field f = list.next();
        if (f.number != 1) continue;
        if (f.wireType == 2 && wireTypeOf(s) == 0) {
            Wire packed = list.nested(f);
            for (; packed.more(); ++count) packed.varint();
        } else if (f.wireType == 2) {   // packed fixed-width elements: the length over the width
            const std::size_t width = wireTypeOf(s) == 1 ? 8 : 4;
            if (f.bytes.size() % width != 0)
                list.nested(f).failHere(0, "a packed list whose length is not a multiple of its element size");
            count += f.bytes.size() / width;
        } else {
            list.expect(f, wireTypeOf(s), "values");
            ++count;
        }
    }
    return count;
}

}   // namespace sl::io_detail::chakra

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The protobuf wire format, walked by hand (no generated code): the fields of a message, and the
/// scalar kinds of et_def.proto's AttributeProto. Private to core/io (chakraformat.cpp).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sl::io_detail::chakra {

/// A field of a protobuf message: its number, wire type and value (varint and fixed values in
/// `value`, length-delimited ones in `bytes`).
struct Field {
    std::uint32_t number = 0;
    int wireType = 0;
    std::uint64_t value = 0;
    std::string_view bytes;
    std::size_t offset = 0;   ///< of the field's key in the file
};

/// Walks the fields of one message. `base` is the file offset of `data[0]`; `where` names the
/// record in messages ("record 3").
class Wire {
public:
    Wire(std::string_view data, std::size_t base, const std::string& source, const std::string& where)
        : m_data(data), m_base(base), m_source(source), m_where(where) {}

    bool more() const { return m_pos < m_data.size(); }
    std::size_t position() const { return m_pos; }

    [[noreturn]] void failHere(std::size_t offset, const std::string& message) const;

    std::uint64_t varint();
    Field next();

    /// Requires `f` to have wire type `type`; `name` is the schema's field name.
    void expect(const Field& f, int type, const char* name) const;

    /// The nested message of a length-delimited field.
    Wire nested(const Field& f) const;

private:
    std::uint64_t fixed(int width, std::size_t start);

    std::string_view m_data;
    std::size_t m_base;
    std::size_t m_pos = 0;
    const std::string& m_source;
    const std::string& m_where;
};

/// The scalar kinds of AttributeProto's oneof, by field number (their lists are number + 1).
enum class Scalar { None, Double, Float, Int32, Int64, Unsigned, Zigzag, Fixed32, Fixed64, SFixed32, SFixed64, Bool };

Scalar scalarOfField(std::uint32_t number);
int wireTypeOf(Scalar s);
double scalarValue(Scalar s, std::uint64_t raw);

/// How many values a repeated scalar holds, packed (one length-delimited field) or not (one field each).
std::size_t countListValues(Wire& list, Scalar s);

}   // namespace sl::io_detail::chakra

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The sizes of a Chakra node's IOInfo: the bytes and dtype its shapes and types (PyTorch's
/// spellings, as the trace holds them) come to. Private to core/io (chakraformat.cpp).

#include "core/graph/opwork.h"

#include <functional>
#include <string>
#include <string_view>

namespace sl::io_detail::chakra {

struct Literal;

/// What the sizes of one IOInfo (inputs or outputs) come to.
struct Sizes {
    double bytes = 0;
    bool known = true;              ///< recorded, and every tensor of it had a shape and a dtype we know
    DType dtype = DType::Unknown;   ///< of its first tensor
};

/// Reads IOInfo.shapes and IOInfo.types; `tooBig` is told of a tensor beyond limits().tensorBytes
/// (the reader's throws).
class SizeReader {
public:
    explicit SizeReader(const std::function<void(const std::string&)>& tooBig) : m_tooBig(tooBig) {}

    Sizes read(std::string_view shapes, std::string_view types);

private:
    void add(Sizes& out, std::string_view type, const Literal& shape);

    const std::function<void(const std::string&)>& m_tooBig;
};

}   // namespace sl::io_detail::chakra

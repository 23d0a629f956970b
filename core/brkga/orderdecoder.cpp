// SPDX-License-Identifier: MIT
#include "core/brkga/orderdecoder.h"

#include <stdexcept>
#include <string>

namespace sl {

void OrderDecoder::checkSize(std::span<const double> keys) const {
    if (keys.size() != m_size)
        throw std::invalid_argument("order decoder: expected " + std::to_string(m_size) + " keys, got " +
                                    std::to_string(keys.size()));
}

} // namespace sl

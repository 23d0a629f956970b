// SPDX-License-Identifier: MIT
#include "core/brkga/orderdecoder.h"

#include "core/localsearch/polish.h"

#include <stdexcept>
#include <string>

namespace sl {

double OrderDecoder::decode(std::span<const double> keys) {
    checkSize(keys);
    if (!m_localSearch) return m_evaluator.cost(keys);
    return polishScored(*m_problem, m_evaluator.costFunction(), m_evaluator.schedule(keys), 0, 0).cost;
}

Schedule OrderDecoder::schedule(std::span<const double> keys) {
    checkSize(keys);
    if (!m_localSearch) return m_evaluator.schedule(keys);
    return polishScored(*m_problem, m_evaluator.costFunction(), m_evaluator.schedule(keys), 0, 0).schedule;
}

void OrderDecoder::checkSize(std::span<const double> keys) const {
    if (keys.size() != m_size)
        throw std::invalid_argument("order decoder: expected " + std::to_string(m_size) + " keys, got " +
                                    std::to_string(keys.size()));
}

} // namespace sl

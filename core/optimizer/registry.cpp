// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"

#include <stdexcept>

namespace sl {

OptimizerRegistry& OptimizerRegistry::instance() {
    static OptimizerRegistry registry;
    return registry;
}

std::unique_ptr<Optimizer> OptimizerRegistry::create(const std::string& name) const {
    if (const auto factory = m_entries.factory(name)) return (*factory)();
    throw std::invalid_argument("unknown method '" + name + "' (see 'schedlab-cli methods')");
}

} // namespace sl

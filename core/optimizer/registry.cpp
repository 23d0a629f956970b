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

void checkStart(const OptimizerInfo& info, const RunOptions& o) {
    if (!o.start || info.acceptsStart) return;
    std::string can;
    for (const OptimizerInfo& m : OptimizerRegistry::instance().list())
        if (m.acceptsStart) can += (can.empty() ? "" : ", ") + m.name;
    throw std::invalid_argument(info.name + " cannot start from a given schedule; the methods that can: " + (can.empty() ? "none" : can));
}

} // namespace sl

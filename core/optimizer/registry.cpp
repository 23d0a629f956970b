// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"

#include <stdexcept>

namespace sl {

OptimizerRegistry& OptimizerRegistry::instance() {
    static OptimizerRegistry registry;
    return registry;
}

void OptimizerRegistry::add(OptimizerInfo info, Factory factory) {
    for (auto& [i, f] : m_entries)
        if (i.name == info.name) {   // re-registration replaces (keeps registerX() idempotent)
            i = std::move(info);
            f = std::move(factory);
            return;
        }
    m_entries.emplace_back(std::move(info), std::move(factory));
}

const OptimizerInfo* OptimizerRegistry::find(const std::string& name) const {
    for (const auto& [i, f] : m_entries)
        if (i.name == name) return &i;
    return nullptr;
}

std::unique_ptr<Optimizer> OptimizerRegistry::create(const std::string& name) const {
    for (const auto& [i, f] : m_entries)
        if (i.name == name) return f();
    throw std::invalid_argument("unknown method '" + name + "' (see 'schedlab-cli methods')");
}

std::vector<OptimizerInfo> OptimizerRegistry::list() const {
    std::vector<OptimizerInfo> out;
    for (const auto& [i, f] : m_entries) out.push_back(i);
    return out;
}

} // namespace sl

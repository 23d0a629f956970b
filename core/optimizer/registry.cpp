// SPDX-License-Identifier: MIT
#include "core/optimizer/optimizer.h"

#include <algorithm>
#include <stdexcept>

namespace sl {

std::string choiceValue(const RunOptions& o, const OptionSpec& spec, const std::string& method) {
    std::string name = o.getString(spec.key, "");
    if (name.empty()) {
        const double last = static_cast<double>(spec.choices.size()) - 1;
        name = spec.choices.at(static_cast<size_t>(std::clamp(o.get(spec.key, spec.defaultValue), 0.0, last)));
    }
    if (std::find(spec.choices.begin(), spec.choices.end(), name) == spec.choices.end()) {
        std::string known;
        for (const std::string& c : spec.choices) known += (known.empty() ? "" : ", ") + c;
        throw std::invalid_argument(method + ": unknown " + spec.key + " '" + name + "' (" + known + ")");
    }
    return name;
}

OptimizerRegistry& OptimizerRegistry::instance() {
    static OptimizerRegistry registry;
    return registry;
}

std::unique_ptr<Optimizer> OptimizerRegistry::create(const std::string& name) const {
    if (const auto factory = m_entries.factory(name)) return (*factory)();
    throw std::invalid_argument("unknown method '" + name + "' (see 'schedlab-cli methods')");
}

namespace {

/// "a, b, c": the registered methods whose info has `can` set.
std::string methodsThat(bool OptimizerInfo::*can) {
    std::string names;
    for (const OptimizerInfo& m : OptimizerRegistry::instance().list())
        if (m.*can) names += (names.empty() ? "" : ", ") + m.name;
    return names.empty() ? "none" : names;
}

} // namespace

void checkStart(const OptimizerInfo& info, const RunOptions& o) {
    if (!o.start || info.acceptsStart) return;
    throw std::invalid_argument(info.name + " cannot start from a given schedule; the methods that can: " + methodsThat(&OptimizerInfo::acceptsStart));
}

void checkPins(const OptimizerInfo& info, const Problem& p) {
    if (p.pins.empty() || info.acceptsPins) return;
    throw std::invalid_argument(info.name + " cannot keep pinned ops where they are pinned; the methods that can: " +
                                methodsThat(&OptimizerInfo::acceptsPins));
}

} // namespace sl

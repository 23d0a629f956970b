// SPDX-License-Identifier: MIT
#include "neural.h"

namespace sl::cli {

const neural::ModuleStatus& loadNeuralMethods() { return neural::ensureNeuralMethods(); }

const OptimizerInfo* findMethod(const std::string& name) {
    if (const OptimizerInfo* info = OptimizerRegistry::instance().find(name)) return info;
    loadNeuralMethods();
    return OptimizerRegistry::instance().find(name);
}

const SamplerInfo* findSampler(const std::string& name) {
    if (const SamplerInfo* info = SamplerRegistry::instance().find(name)) return info;
    loadNeuralMethods();
    return SamplerRegistry::instance().find(name);
}

std::string neuralUnavailableNote() {
    const neural::ModuleStatus& s = loadNeuralMethods();
    return s.available ? std::string() : "\n(the neural methods are unavailable: " + s.error + ")";
}

} // namespace sl::cli

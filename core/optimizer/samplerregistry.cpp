// SPDX-License-Identifier: MIT
#include "core/optimizer/sampler.h"

#include <cmath>
#include <stdexcept>

namespace sl {

SamplerRegistry& SamplerRegistry::instance() {
    static SamplerRegistry registry;
    return registry;
}

std::unique_ptr<TemperatureSampler> SamplerRegistry::create(const std::string& name, const SamplerConfig& config) const {
    if (const auto factory = m_entries.factory(name)) return (*factory)(config);
    const std::string known = names();
    throw std::invalid_argument("unknown sampler '" + name + "' (this build has: " + (known.empty() ? "none" : known) + ")");
}

void checkSampleRequest(const SampleRequest& r) {
    if (!(r.temperature > 0) || !std::isfinite(r.temperature))
        throw std::invalid_argument("the temperature must be a positive number, not " + std::to_string(r.temperature));
    if (r.count < 1) throw std::invalid_argument("the sample count must be at least 1");
    if (r.threads < 1) throw std::invalid_argument("threads must be at least 1");
}

} // namespace sl

// SPDX-License-Identifier: MIT
#include "core/optimizer/sampler.h"

#include <cmath>
#include <stdexcept>

namespace sl {

SamplerRegistry& SamplerRegistry::instance() {
    static SamplerRegistry registry;
    return registry;
}

void SamplerRegistry::add(SamplerInfo info, Factory factory) {
    for (auto& [i, f] : m_entries)
        if (i.name == info.name) {
            i = std::move(info);
            f = std::move(factory);
            return;
        }
    m_entries.emplace_back(std::move(info), std::move(factory));
}

const SamplerInfo* SamplerRegistry::find(const std::string& name) const {
    for (const auto& [i, f] : m_entries)
        if (i.name == name) return &i;
    return nullptr;
}

std::unique_ptr<TemperatureSampler> SamplerRegistry::create(const std::string& name) const {
    for (const auto& [i, f] : m_entries)
        if (i.name == name) return f();
    std::string known;
    for (const auto& [i, f] : m_entries) known += (known.empty() ? "" : ", ") + i.name;
    throw std::invalid_argument("unknown sampler '" + name + "' (this build has: " + (known.empty() ? "none" : known) + ")");
}

std::vector<SamplerInfo> SamplerRegistry::list() const {
    std::vector<SamplerInfo> out;
    for (const auto& [i, f] : m_entries) out.push_back(i);
    return out;
}

void checkSampleRequest(const SampleRequest& r) {
    if (!(r.temperature > 0) || !std::isfinite(r.temperature))
        throw std::invalid_argument("the temperature must be a positive number, not " + std::to_string(r.temperature));
    if (r.count < 1) throw std::invalid_argument("the sample count must be at least 1");
    if (r.threads < 1) throw std::invalid_argument("threads must be at least 1");
}

} // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Temperature-conditioned samplers (Zhang et al., ICLR 2023, §3.3): draw N schedules of a graph at a
/// reward temperature σ. Low σ concentrates on the best schedules, high σ spreads out; the
/// explorer's Temperature panel and the sweep (core/sweep/sweep.h) read them through this
/// interface only, so a sampler may live in models/ (the GFlowNet) without the UI seeing torch.
///
/// Contract of TemperatureSampler::sample():
///  - samples on the proxy of the problem (sl::proxyProblem: free transfers, the paper's §2.2);
///  - returns `count` schedules (fewer when stopped: `cancelled` set) with their proxy speedups,
///    in sample order; sample i depends on (seed, i) only, so the set is the same for any
///    `threads`;
///  - calls `progress` (may be empty) from the calling thread with the share done and the proxy
///    speedups of the samples drawn so far (a prefix, in sample order), so that a view can refine
///    while the rest are drawn;
///  - checks `stop` between samples; throws std::exception with a readable message on bad input.
///
/// \code
///   sl::registerCoreSamplers();
///   auto sampler = sl::SamplerRegistry::instance().create("list-gumbel");
///   sl::SampleSet s = sampler->sample(problem, {.temperature = 0.01, .count = 1000}, {}, {});
/// \endcode

#include "core/costmodel/problem.h"
#include "core/optimizer/namedregistry.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

struct SampleRequest {
    double temperature = 0.005;   ///< σ > 0 (unit-less: relative to the reward's scale)
    int count = 1000;             ///< samples N >= 1
    std::uint64_t seed = 1;
    int threads = 1;
};

struct SampleSet {
    std::vector<Schedule> schedules;       ///< timed on the proxy, sample order
    std::vector<double> proxySpeedups;     ///< U = Σ durations / proxy makespan, one per schedule
    bool cancelled = false;
};

struct SampleProgress {
    double fraction = 0;                ///< share of the request drawn
    std::span<const double> speedups;   ///< the drawn samples' proxy speedups (valid during the call)
};
using SampleProgressFn = std::function<void(const SampleProgress& progress)>;

class TemperatureSampler {
public:
    virtual ~TemperatureSampler() = default;
    virtual SampleSet sample(const Problem& problem, const SampleRequest& request, std::stop_token stop,
                             const SampleProgressFn& progress) = 0;
};

/// Temperatures a sampler was trained on; outside it, it extrapolates (the UI shades it).
struct TemperatureRange {
    double min = 0;
    double max = std::numeric_limits<double>::infinity();
    bool contains(double t) const { return t >= min && t <= max; }
};

struct SamplerInfo {
    std::string name;       ///< e.g. "list-gumbel"
    std::string summary;    ///< one line
    TemperatureRange trainedTemperatureRange;   ///< [0, inf) for a sampler that needs no training
};

/// How to build a sampler beyond its defaults.
struct SamplerConfig {
    std::string weights;   ///< a learned sampler's weight file; empty: its shipped weights (others ignore it)
};

class SamplerRegistry {
public:
    using Factory = std::function<std::unique_ptr<TemperatureSampler>(const SamplerConfig&)>;
    static SamplerRegistry& instance();

    /// Adds or (same name) replaces a sampler: registerX() functions stay idempotent. Thread-safe.
    void add(SamplerInfo info, Factory factory) { m_entries.add(std::move(info), std::move(factory)); }
    /// Throws std::invalid_argument naming the samplers there are if `name` is unknown.
    std::unique_ptr<TemperatureSampler> create(const std::string& name, const SamplerConfig& config = {}) const;
    const SamplerInfo* find(const std::string& name) const { return m_entries.find(name); }
    std::vector<SamplerInfo> list() const { return m_entries.list(); }   ///< in registration order
    std::string names() const { return m_entries.names(); }             ///< "a, b"

private:
    NamedRegistry<SamplerInfo, Factory> m_entries;
};

/// Registers the samplers of core (list-gumbel). Idempotent; registerCoreOptimizers() calls it.
void registerCoreSamplers();

/// Shared check of a request; throws std::invalid_argument naming the bad field.
void checkSampleRequest(const SampleRequest& r);

} // namespace sl

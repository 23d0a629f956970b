// SPDX-License-Identifier: MIT
// `schedlab-cli bench gflownet --only speed`: how long GFlowNet sampling takes (the speed target
// of docs/gflownet.md: a 20-temperature sweep of a 25-op graph in under 30 s on 2 cores). Per weight file and thread
// count: seconds for N samples at sigma 0.005, and seconds for the whole temperature sweep
// (core/sweep/sweep.h, the same work as `schedlab-cli sweep --sampler gflownet`), of which the
// sampling. A checksum of every sampled schedule shows that the samples do not depend on the
// thread count (and lets two builds be compared).
#include "bench_gflownet_speed.h"

#include "core/costmodel/target.h"
#include "core/optimizer/sampler.h"
#include "core/sweep/sweep.h"
#include "core/util/fnv.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>

namespace sl::cli {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// Placement and order of every schedule, in draw order.
void hashSchedules(const std::vector<Schedule>& schedules, Fnv1a64& h) {
    for (const Schedule& s : schedules) {
        const std::vector<int> placement = s.placement();
        h.bytes(placement.data(), placement.size() * sizeof(int));
        h.bytes(s.order.data(), s.order.size() * sizeof(OpId));
    }
}

/// The registry's gflownet sampler with a chosen weight file and thread count, timing its draws
/// and hashing what it drew (the sweep then summarises exactly these samples).
class TimedSampler : public TemperatureSampler {
public:
    TimedSampler(const std::string& weights, int threads)
        : m_sampler(SamplerRegistry::instance().create("gflownet", {.weights = weights})), m_threads(threads) {}

    SampleSet sample(const Problem& problem, const SampleRequest& request, std::stop_token stop,
                     const SampleProgressFn&) override {
        SampleRequest r = request;
        r.threads = m_threads;
        const auto t0 = Clock::now();
        SampleSet out = m_sampler->sample(problem, r, stop, {});
        m_seconds += secondsSince(t0);
        hashSchedules(out.schedules, m_hash);
        return out;
    }
    /// Draws without counting them (the one-temperature timing).
    void sampleUncounted(const Problem& problem, const SampleRequest& request) { m_sampler->sample(problem, request, {}, {}); }
    double seconds() const { return m_seconds; }
    std::uint64_t checksum() const { return m_hash.value(); }

private:
    std::unique_ptr<TemperatureSampler> m_sampler;
    int m_threads;
    double m_seconds = 0;
    Fnv1a64 m_hash;
};

struct SpeedRow {
    double oneTemperature = 0, sweep = 0, sampling = 0;
    std::uint64_t checksum = 0;
};

SpeedRow measure(const Problem& p, const std::string& weights, int threads, const SpeedSetup& s) {
    TimedSampler sampler(weights, threads);
    SpeedRow row;
    auto t0 = Clock::now();
    sampler.sampleUncounted(p, {.temperature = 0.005, .count = s.samples, .seed = 1, .threads = threads});
    row.oneTemperature = secondsSince(t0);
    SweepOptions o;
    o.temperatures = logSpacedTemperatures(s.temperatures);
    o.samples = s.samples;
    o.threads = threads;
    t0 = Clock::now();
    runSweep(p, "gflownet", sampler, o, {}, {});
    row.sweep = secondsSince(t0);
    row.sampling = sampler.seconds();
    row.checksum = sampler.checksum();
    return row;
}

} // namespace

int runGflowNetSpeedBench(const Problem& p, const SpeedSetup& s) {
    std::printf("GFlowNet sampling speed: %s (%d ops), %d devices; %d samples per temperature; sweep: %d temperatures\n"
                "log-spaced in [0.001, 1], top 100, the three targets (as `schedlab-cli sweep --sampler gflownet`)\n\n",
                fs::path(s.graphPath).filename().string().c_str(), p.g().opCount(), p.platform.deviceCount(), s.samples,
                s.temperatures);
    std::printf("%-24s %7s %14s %10s %17s  %s\n", "weights", "threads", "s, sigma 0.005", "s, sweep", "of which sampling",
                "samples checksum");
    for (const std::string& weights : s.weights)
        for (int threads : s.threads) {
            const SpeedRow r = measure(p, weights, threads, s);
            std::printf("%-24s %7d %14.2f %10.2f %17.2f  %016llx\n", fs::path(weights).filename().string().c_str(), threads,
                        r.oneTemperature, r.sweep, r.sampling, static_cast<unsigned long long>(r.checksum));
            std::fflush(stdout);
        }
    std::printf("\nseconds are wall clock on this machine (noisy when it is shared); the checksum hashes every\n"
                "sweep sample's placement and order: equal checksums, equal samples\n");
    return 0;
}

} // namespace sl::cli

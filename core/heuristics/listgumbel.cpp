// SPDX-License-Identifier: MIT
#include "core/heuristics/listgumbel.h"

#include "core/analysis/levels.h"
#include "core/costmodel/listscheduler.h"
#include "core/costmodel/target.h"
#include "core/util/random.h"
#include "core/util/workerpool.h"

#include <algorithm>
#include <atomic>
#include <optional>

namespace sl {
namespace {

/// Bottom levels in units of the mean op duration (all-zero durations: the raw levels).
std::vector<double> scaledBottomLevels(const Graph& g) {
    std::vector<double> bl = bottomLevels(g);
    const double mean = g.opCount() > 0 ? g.totalWork() / g.opCount() : 0;
    if (mean > 0)
        for (double& x : bl) x /= mean;
    return bl;
}

class ListGumbelSampler : public TemperatureSampler {
public:
    SampleSet sample(const Problem& p, const SampleRequest& r, std::stop_token stop, const SampleProgressFn& progress) override {
        checkSampleRequest(r);
        p.check();
        const Problem proxy = proxyProblem(p);
        const std::vector<double> base = scaledBottomLevels(proxy.g());
        const double work = proxy.g().totalWork();
        const int threads = std::min(r.threads, r.count);
        std::vector<std::optional<ListScheduler>> schedulers(static_cast<size_t>(threads));
        std::vector<std::vector<double>> keys(static_cast<size_t>(threads), base);
        SampleSet out;
        out.schedules.resize(static_cast<size_t>(r.count));
        out.proxySpeedups.resize(static_cast<size_t>(r.count));
        std::vector<char> done(static_cast<size_t>(r.count), 0);
        // batches keep the stop check and the progress report on the calling thread
        const int batch = std::max(16, threads * 16);
        WorkerPool pool(threads);
        for (int first = 0; first < r.count; first += batch) {
            if (first > 0 && stop.stop_requested()) {
                out.cancelled = true;
                break;
            }
            const int n = std::min(batch, r.count - first);
            pool.run(n, [&](int item, int worker) {
                const int i = first + item;
                auto& scheduler = schedulers[static_cast<size_t>(worker)];
                if (!scheduler) scheduler.emplace(proxy);
                std::vector<double>& key = keys[static_cast<size_t>(worker)];
                Rng rng(deriveSeed(r.seed, static_cast<std::uint64_t>(i)));
                for (size_t v = 0; v < key.size(); ++v) key[v] = base[v] + r.temperature * rng.gumbel();
                Schedule s = scheduler->schedule(key);
                s.method = "list-gumbel";
                s.seed = r.seed;
                out.proxySpeedups[static_cast<size_t>(i)] = s.makespan > 0 ? work / s.makespan : 0;
                out.schedules[static_cast<size_t>(i)] = std::move(s);
                done[static_cast<size_t>(i)] = 1;
            });
            if (progress)
                progress({static_cast<double>(first + n) / r.count,
                          std::span<const double>(out.proxySpeedups.data(), static_cast<size_t>(first + n))});
        }
        if (out.cancelled) {   // keep the finished prefix only: a stopped set is still in sample order
            const auto kept = static_cast<size_t>(std::find(done.begin(), done.end(), 0) - done.begin());
            out.schedules.resize(kept);
            out.proxySpeedups.resize(kept);
        }
        return out;
    }
};

} // namespace

SamplerInfo listGumbelInfo() {
    return {"list-gumbel", "critical-path list scheduling with Gumbel(0, σ) noise on the bottom levels (no training)", {}};
}

std::unique_ptr<TemperatureSampler> makeListGumbelSampler() { return std::make_unique<ListGumbelSampler>(); }

void registerCoreSamplers() {
    SamplerRegistry::instance().add(listGumbelInfo(), [](const SamplerConfig&) { return makeListGumbelSampler(); });
}

} // namespace sl

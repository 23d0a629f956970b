// SPDX-License-Identifier: MIT
#include "models/prioritysampler/optimizer.h"

#include "models/prioritysampler/features.h"
#include "models/prioritysampler/gumbel.h"
#include "models/prioritysampler/network.h"
#include "models/prioritysampler/samplescorer.h"
#include "models/prioritysampler/trainercommand.h"

#include "models/objectives.h"

#include "core/heuristics/evaluate.h"
#include "core/localsearch/polish.h"
#include "core/util/deadline.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>

namespace sl::ps {

namespace {

bool jobShopLike(const Problem& p) {
    const Graph& g = p.g();
    const int types = machineTypeCount(g);
    if (types <= 3) return false;
    std::map<int, int> devices;
    for (const Device& d : p.platform.devices) {
        if (d.resourceCapacity != 1) return false;
        ++devices[d.machineType];
    }
    for (const auto& [type, count] : devices)
        if (count != 1) return false;
    for (const Op& op : g.ops())
        if (op.resourceDemand != 1) return false;
    return true;
}

double secondsSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// The candidate protocol's share (Zhang et al. 2023, §5, "Candidate sampler"): the `o.candidates` cheapest samples,
/// ties to the earlier sample, rebuilt from their noise streams.
void keepTopSamples(SampleScorer& scorer, std::span<const double> logits, const SampleBatch& batch,
                    const RunOptions& o, RunResult& r) {
    if (o.candidates <= 0) return;
    std::vector<int> index;
    for (int i = 0; i < static_cast<int>(batch.costs.size()); ++i)
        if (std::isfinite(batch.costs[static_cast<size_t>(i)])) index.push_back(i);   // unscored: +inf
    std::stable_sort(index.begin(), index.end(), [&](int a, int b) {
        return batch.costs[static_cast<size_t>(a)] < batch.costs[static_cast<size_t>(b)];
    });
    index.resize(std::min(index.size(), static_cast<size_t>(o.candidates)));
    for (int i : index) r.candidates.push_back(scorer.schedule(perturbedKeys(logits, o.seed, static_cast<std::uint64_t>(i))));
}

class PrioritySampler : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        models::requireDeclaredObjective(prioritySamplerInfo(), p);
        RunMonitor monitor(o, progress);
        RunResult r;
        std::string weights = o.getString("weights", "");
        if (weights.empty()) weights = defaultWeightsFor(p);
        if (weights.empty() || !std::filesystem::exists(weights))
            throw std::runtime_error("priority-sampler: no weight file" + (weights.empty() ? std::string() : " " + weights) +
                                     " (train one with 'schedlab-cli train priority-sampler' or pass --weights FILE)");
        const auto t0 = std::chrono::steady_clock::now();
        PrioritySamplerNet net = loadSampler(weights);
        double prepareSeconds = 0;
        std::vector<double> logits = inferLogits(net, p, &prepareSeconds);
        // Inference-only temperature (our extension; the paper has none, i.e. samples at T = 1).
        const double temperature = o.get("temperature", 1.0);
        if (temperature <= 0) throw std::invalid_argument("priority-sampler: --temperature must be positive");
        if (temperature != 1.0)
            for (double& l : logits) l /= temperature;
        const double encoderSeconds = secondsSince(t0);

        const bool greedy = o.get("greedy", 0) != 0;
        const int samples = static_cast<int>(o.budget > 0 ? o.budget : static_cast<std::int64_t>(o.get("samples", 64)));
        const bool withGreedy = o.get("include-greedy", 0) != 0;
        SampleScorer scorer(p, o.threads);
        const auto t1 = std::chrono::steady_clock::now();
        char note[256];
        if (greedy) {
            r.schedule = scorer.schedule(logits);
            r.evaluations = 1;
            std::snprintf(note, sizeof note, "greedy; features and masks %.3f s, network %.3f s, list scheduling %.3f s",
                          prepareSeconds, encoderSeconds - prepareSeconds, secondsSince(t1));
        } else {
            // the time limit counts from the run's start: the network's time is already spent
            const DeadlineStop limited(stop, o.timeLimit > 0 ? std::max(1e-6, o.timeLimit - monitor.seconds()) : 0);
            const SampleBatch batch = scorer.sample(logits, std::max(samples, 1), o.seed, false, limited.token());
            r.evaluations = batch.scored;
            r.cancelled = stop.stop_requested();
            double greedyCost = kInfinity;
            if (withGreedy) {
                greedyCost = scorer.greedyCost(logits);
                ++r.evaluations;
            }
            keepTopSamples(scorer, logits, batch, o, r);
            if (greedyCost <= batch.bestCost)
                r.schedule = scorer.schedule(logits);
            else
                r.schedule = scorer.schedule(perturbedKeys(logits, o.seed, static_cast<std::uint64_t>(batch.best)));
            std::snprintf(note, sizeof note, "S(%d)%s; features and masks %.3f s, network %.3f s, sampling and list scheduling %.3f s",
                          samples, withGreedy ? " + greedy" : "", prepareSeconds, encoderSeconds - prepareSeconds,
                          secondsSince(t1));
            if (batch.scored < samples && !stop.stop_requested())
                std::snprintf(note + std::strlen(note), sizeof note - std::strlen(note), "; time limit after %lld samples",
                              static_cast<long long>(batch.scored));
        }
        r.note = std::string(note) + "; weights " + std::filesystem::path(weights).filename().string();
        polishResult(p, r, static_cast<std::int64_t>(o.get("polish", 0)), o.seed, [&] { return stop.stop_requested() || monitor.timeUp(); });
        finishResult(r, p, "priority-sampler", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

std::string defaultWeightsFor(const Problem& problem) {
    const std::string preferred = shippedWeights(jobShopLike(problem) ? "jobshop" : "layered-typed");
    if (std::filesystem::exists(preferred)) return preferred;
    const std::string fallback = shippedWeights("layered-typed");
    return std::filesystem::exists(fallback) ? fallback : std::string();
}

OptimizerInfo prioritySamplerInfo() {
    using K = OptionSpec::Kind;
    OptimizerInfo info;
    info.name = "priority-sampler";
    info.summary = "one-shot neural priorities (Topoformer encoder), Gumbel samples, list scheduling: greedy or best of S(k)";
    info.family = "neural";
    // Trained and tested on makespan only (the REINFORCE reward is the list schedule's makespan).
    info.objectives = {Objective::Makespan};
    info.options = {
        {.key = "samples", .label = "Samples", .kind = K::Int, .defaultValue = 64, .min = 1, .max = 1e6,
         .help = "k of S(k): Gumbel samples scored, the best kept (--budget overrides)"},
        {.key = "greedy", .label = "Greedy", .kind = K::Bool, .defaultValue = 0, .min = 0, .max = 1,
         .help = "one schedule from the noise-free logits instead of S(k)"},
        {.key = "temperature", .label = "Temperature", .kind = K::Double, .defaultValue = 1, .min = 1e-3, .max = 1e3,
         .help = "sample from logits / T (an extension; the paper uses T = 1)"},
        {.key = "include-greedy", .label = "Include greedy", .kind = K::Bool, .defaultValue = 0, .min = 0, .max = 1,
         .help = "S(k): also score the greedy order and keep it if best"},
        polishOption(),
    };
    info.usesBudget = true;
    info.usesSeed = true;
    return info;
}

std::unique_ptr<Optimizer> makePrioritySampler() { return std::make_unique<PrioritySampler>(); }

void registerPrioritySampler() {
    registerPrioritySamplerTrainer();   // idempotent: a second add replaces the first
    auto& reg = OptimizerRegistry::instance();
    if (reg.find("priority-sampler")) return;
    reg.add(prioritySamplerInfo(), [] { return makePrioritySampler(); });
}

} // namespace sl::ps

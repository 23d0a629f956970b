// SPDX-License-Identifier: MIT
#include "models/gflownet/optimizer.h"

#include "models/gflownet/sampler.h"
#include "models/gflownet/temperaturesampler.h"
#include "models/gflownet/trainercommand.h"

#include "models/objectives.h"

#include "core/costmodel/cost.h"
#include "core/heuristics/evaluate.h"
#include "core/localsearch/polish.h"
#include "core/optimizer/candidates.h"

#include <cstdio>
#include <filesystem>

namespace sl::gfn {

namespace {

class GflowNetOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        models::requireDeclaredObjective(gflownetInfo(), p);
        RunMonitor monitor(o, progress);
        std::string weights = o.getString("weights", "");
        if (weights.empty()) weights = defaultWeightsFor(p);
        if (weights.empty() || !std::filesystem::exists(weights))
            throw std::runtime_error("gflownet: no weight file" + (weights.empty() ? std::string() : " " + weights) +
                                     " (install models/weights/gflownet.slw, train one with 'schedlab-cli train gflownet'"
                                     " or pass --weights FILE)");
        const double temperature = o.get("temperature", 0.005);
        if (!(temperature > 0)) throw std::invalid_argument("gflownet: --temperature must be positive");
        const int samples = static_cast<int>(o.budget > 0 ? o.budget : static_cast<std::int64_t>(o.get("samples", 1000)));
        const int k = o.candidates > 0 ? o.candidates : 100;   // the candidate protocol's k (docs/gflownet.md)
        GflowNetSampler sampler(weights);
        RunResult r;
        // The result is the sample of lowest cost: the best proxy makespan (earliest at ties), unless
        // a memory cap makes the cost read memory too. Progress per chunk reports the best so far,
        // never less than the final cost; the time limit is checked per chunk.
        const CostFunction costOf(p);
        std::vector<double> costs;
        size_t bestIndex = 0;
        const std::vector<Candidate> c = sampler.sample(p, temperature, std::max(samples, 1), o.seed, stop,
                                                        [&](const std::vector<Candidate>& drawn) {
            for (size_t i = costs.size(); i < drawn.size(); ++i) {
                Schedule scored = drawn[i].schedule;
                costs.push_back(costOf.needsMemory() ? scoreSchedule(p, scored, costOf) : costOf(drawn[i].makespan, 0, {}));
                if (costs[i] < costs[bestIndex]) bestIndex = i;
            }
            monitor.report(r, costs[bestIndex], costs[bestIndex], static_cast<double>(drawn.size()) / std::max(samples, 1));
            return !monitor.timeUp();
        }, o.threads);
        std::vector<double> speedups;
        for (const Candidate& x : c) speedups.push_back(x.speedup);
        const std::vector<int> top = topKByProxy(speedups, k);
        if (o.candidates > 0)
            for (int i : top) r.candidates.push_back(c[static_cast<size_t>(i)].schedule);
        double topMean = 0;
        for (int i : top) topMean += c[static_cast<size_t>(i)].speedup;
        topMean /= static_cast<double>(top.size());
        r.schedule = c[bestIndex].schedule;
        r.evaluations = static_cast<std::int64_t>(c.size());
        r.cancelled = static_cast<int>(c.size()) < samples;
        char note[256];
        std::snprintf(note, sizeof note, "%zu samples at sigma %g: best proxy speedup %.4f, top-%zu mean %.4f; weights %s",
                      c.size(), temperature, c[static_cast<size_t>(top.front())].speedup, top.size(), topMean,
                      std::filesystem::path(weights).filename().string().c_str());
        r.note = note;
        polishResult(p, r, static_cast<std::int64_t>(o.get("polish", 0)), o.seed, [&] { return stop.stop_requested() || monitor.timeUp(); });
        finishResult(r, p, "gflownet", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

OptimizerInfo gflownetInfo() {
    using K = OptionSpec::Kind;
    OptimizerInfo info;
    info.name = "gflownet";
    info.summary = "GFlowNet candidate sampler (temperature-conditioned Topoformer): N samples, best proxy makespan";
    info.family = "neural";
    info.objectives = {Objective::Makespan};   // the reward is the proxy speedup
    info.options = {
        {.key = "temperature", .label = "Temperature", .kind = K::Double, .defaultValue = 0.005, .min = 1e-4, .max = 10,
         .help = "sigma of the reward exp((U - m) / sigma); lower: better, less diverse (trained on 0.01-1)"},
        {.key = "samples", .label = "Samples", .kind = K::Int, .defaultValue = 1000, .min = 1, .max = 1e6,
         .help = "schedules sampled (--budget overrides)"},
        polishOption(),
    };
    info.usesBudget = true;
    info.usesSeed = true;
    return info;
}

std::unique_ptr<Optimizer> makeGflowNetOptimizer() { return std::make_unique<GflowNetOptimizer>(); }

void registerGflowNet() {
    registerGflowNetTrainer();
    registerGflowNetSampler();
    auto& reg = OptimizerRegistry::instance();
    if (reg.find("gflownet")) return;
    reg.add(gflownetInfo(), [] { return makeGflowNetOptimizer(); });
}

} // namespace sl::gfn

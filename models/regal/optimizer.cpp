// SPDX-License-Identifier: MIT
#include "models/regal/optimizer.h"

#include "core/brkga/brkgaoptimizer.h"
#include "core/brkga/regaldecoder.h"
#include "core/graph/graphkind.h"
#include "core/heuristics/evaluate.h"
#include "models/encoder/encoder.h"
#include "models/encoder/maththreads.h"
#include "models/objectives.h"
#include "models/regal/run.h"
#include "models/regal/trainercommand.h"

#include <cstdio>
#include <filesystem>

namespace sl::regal {

namespace {

class RegalOptimizer final : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        models::requireDeclaredObjective(regalInfo(), p);
        std::string weights = o.getString("weights", "");
        if (weights.empty()) weights = defaultWeightsFor(p);
        if (!std::filesystem::exists(weights))
            throw std::runtime_error("regal: no weight file " + weights + " (train one with 'schedlab-cli train regal' or pass --weights FILE)");
        const models::MathThreads pin(1);   // the same actions in any environment
        RegalPolicy policy = cachedPolicy(weights);
        if (policy->config().objective != toString(p.objective.kind))
            throw std::invalid_argument("regal: " + weights + " was trained for the " + policy->config().objective +
                                        " objective, not " + toString(p.objective.kind));

        RunConfig c;
        c.budget = o.budget > 0 ? o.budget : 5000;
        c.steerAfter = static_cast<int>(o.get("steer-after", kDefaultSteerAfter));
        c.seed = o.seed;
        c.threads = std::max(1, o.threads);
        c.greedy = o.get("sample", 0) == 0;
        c.placement = brkga::placementRuleFromOptions(o, p);
        // Heads the model was not trained to steer stay Uniform whatever the options say.
        c.learned = {.placement = o.get("learn-placement", 1) != 0 && policy->config().learnsPlacement,
                     .scheduling = o.get("learn-scheduling", 1) != 0 && policy->config().learnsScheduling};

        RunResult r;
        RunMonitor monitor(o, progress);
        const auto observer = [&](const brkga::Status& s) {   // every generation into the curve, as brkga's
            r.evaluations = s.evaluations;
            monitor.record(r, s.best, s.mean, std::min(1.0, static_cast<double>(s.evaluations) / static_cast<double>(c.budget)));
            return monitor.timeUp();
        };
        const RunOutcome out = runRegal(p, policy, c, observer, stop);
        r.schedule = RegalDecoder(p, c.symmetry, c.placement).schedule(out.best);
        r.evaluations = out.evaluations;
        r.cancelled = stop.stop_requested();
        char note[256];
        const std::string weightsName = std::filesystem::path(weights).filename().string();
        if (out.steeredAt < 0)
            std::snprintf(note, sizeof note, "plain BRKGA throughout: the budget ended before the policy steers; weights %s", weightsName.c_str());
        else
            std::snprintf(note, sizeof note, "plain BRKGA for %lld evaluations (best %.6g), then %d of %zu keys steered; policy %.3f s; weights %s",
                          static_cast<long long>(out.steeredAt), out.bestBeforeSteering, out.actions.steered(), out.actions.shift.size(),
                          out.policySeconds, weightsName.c_str());
        r.note = note;
        finishResult(r, p, "regal", o, monitor);
        monitor.report(r, r.cost, r.history.empty() ? r.cost : r.history.back().mean, 1.0, true);   // the last population's mean
        return r;
    }
};

} // namespace

std::string defaultWeightsFor(const Problem& problem) {
    // Forward graphs and other DAGs are where order moves the peak (docs/regal.md, "Where order
    // matters"); a training step's peak is its loss cut, whatever the order.
    const Graph& g = problem.g();
    const bool forward =
        problem.objective.kind == Objective::Memory && !isTrainingStep(g) && graphKind(g) == GraphKind::Other;
    const std::string name =
        forward ? std::string(kForwardMemoryWeights) : "regal-" + toString(problem.objective.kind) + ".slw";
    return (std::filesystem::path(models::modelsDir()) / name).string();
}

OptimizerInfo regalInfo() {
    using K = OptionSpec::Kind;
    OptimizerInfo info;
    info.name = "regal";
    info.summary = "REGAL: a graph network picks each op's BRKGA key distributions (Paliwal et al., ICLR 2020)";
    info.family = "neural";
    info.objectives = {Objective::Memory, Objective::Makespan};
    info.options = {
        {.key = "steer-after", .label = "Plain generations", .kind = K::Int, .defaultValue = kDefaultSteerAfter, .min = 0, .max = 1000,
         .help = "generations of plain BRKGA before the policy reads the population and steers the rest"},
        {.key = "sample", .label = "Sample actions", .kind = K::Bool, .defaultValue = 0, .min = 0, .max = 1,
         .help = "draw the key distributions from the policy (as in training) instead of taking its means"},
        {.key = "learn-placement", .label = "Learned placement", .kind = K::Bool, .defaultValue = 1, .min = 0, .max = 1,
         .help = "affinity keys follow the policy (else Uniform)"},
        {.key = "learn-scheduling", .label = "Learned priorities", .kind = K::Bool, .defaultValue = 1, .min = 0, .max = 1,
         .help = "priority keys follow the policy (else Uniform)"},
    };
    for (OptionSpec& s : brkga::placementOptionSpecs()) info.options.push_back(std::move(s));
    info.usesBudget = true;
    info.usesSeed = true;
    info.devices = 0;   // any count: the heads are shared by the devices
    return info;
}

std::unique_ptr<Optimizer> makeRegalOptimizer() { return std::make_unique<RegalOptimizer>(); }

void registerRegal() {
    registerRegalTrainer();
    auto& reg = OptimizerRegistry::instance();
    if (reg.find("regal")) return;
    reg.add(regalInfo(), [] { return makeRegalOptimizer(); });
}

} // namespace sl::regal

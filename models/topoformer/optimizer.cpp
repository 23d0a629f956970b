// SPDX-License-Identifier: MIT
// The `topoformer` optimizer: one encoder pass gives op priorities, then greedy, best-of-K
// sampling or beam search decodes single-device orders (Gagrani et al. 2022, §4.2); by default the
// classic memory orders are scored beside the decoded order and the lowest peak is kept.
#include "models/topoformer/optimizer.h"

#include "models/encoder/maththreads.h"
#include "models/objectives.h"
#include "models/topoformer/decoding.h"
#include "models/topoformer/model.h"

#include "core/heuristics/evaluate.h"
#include "core/heuristics/memoryorders.h"

#include <ATen/ATen.h>

#include <cstdio>
#include <filesystem>

namespace sl::models {

namespace {

/// The classic memory orders scored as extra candidates (core/heuristics/memoryorders.h), by
/// the names of their registered optimizers. Each is O((V + E) log V) at most.
struct ClassicRule {
    const char* name;
    std::vector<OpId> (*order)(const Graph&);
};
constexpr ClassicRule kClassicRules[] = {
    {"mem-dfs", &dfsOrder}, {"mem-bfs", &bfsOrder}, {"mem-postorder", &postOrder}, {"mem-xla-list", &xlaListOrder}};

std::string bytesText(double bytes) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.15g", bytes);
    return buf;
}

/// Scores the classic orders with the step clock and replaces `order` by the first one strictly
/// below it (the network's order wins ties). Returns the note's suffix naming the winner.
std::string scoreClassicCandidates(const Graph& g, std::vector<OpId>& order, RunResult& r) {
    StepMemory mem(g, 1);
    const double network = mem.peak(order);
    double best = network;
    const char* winner = nullptr;
    for (const ClassicRule& rule : kClassicRules) {
        std::vector<OpId> candidate = rule.order(g);
        const double peak = mem.peak(candidate);
        ++r.evaluations;
        if (peak < best) {
            best = peak;
            winner = rule.name;
            order = std::move(candidate);
        }
    }
    if (!winner)
        return "; classic candidates: the network's order kept (peak " + bytesText(network) +
            " bytes, no classic order lower)";
    return std::string("; classic candidates: ") + winner + " won (peak " + bytesText(best) +
        " bytes against the network's " + bytesText(network) + ")";
}

/// Beam "auto" decodes beam search up to this many ops, as wide as fits about a second on one core:
/// its cost grows about threefold per doubling of the width (the PyTorch/XLA linear pipeline step,
/// 237 ops: 0.2, 0.6 and 1.4 s at widths 16, 32, 64; the Llama 2 step, 641 ops: 1.2 s at 16). On the
/// training steps of docs/topoformer.md beam-16 is never above sample-16 (mean +0.01 % against
/// +0.10 % above the optimum on the CNN steps); width 32 finds the linear step's optimum (184 bytes)
/// where 16 stops at 200.
constexpr int kAutoBeamOps = 1000;
int autoBeamWidth(int ops) { return ops <= 150 ? 64 : ops <= 400 ? 32 : 16; }
constexpr int kDefaultSamples = 16;

struct Decoding {
    int beam = 0;      ///< > 0: beam search of this width
    int samples = 0;   ///< else the best of this many sampled orders
};

/// Beam and samples are "auto" at their defaults (-1, 0): beam search (autoBeamWidth) up to
/// kAutoBeamOps ops, sample-16 above. A width, a sample count or a budget given wins; beam 0 asks for sampling.
Decoding chooseDecoding(const Graph& g, const RunOptions& o) {
    const int beam = static_cast<int>(o.get("beam", -1));
    const int samples = o.budget > 0 ? static_cast<int>(o.budget) : static_cast<int>(o.get("samples", 0));
    if (beam > 0) return {beam, 0};
    if (samples > 0) return {0, samples};
    if (beam < 0 && g.opCount() <= kAutoBeamOps) return {autoBeamWidth(g.opCount()), 0};
    return {0, kDefaultSamples};
}

class TopoformerOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        p.check();
        requireDeclaredObjective(topoformerInfo(), p);
        RunMonitor monitor(o, progress);
        RunResult r;
        const Graph& g = p.g();
        const TopoformerWeightsChoice weights = topoformerWeightsFor(g, o.getString("weights", ""));
        const auto model = cachedTopoformer(weights.path);
        const std::vector<double> prio = topoformerPriorities(**model, g);
        const bool greedy = o.get("greedy", 0) != 0;
        const Decoding decoding = chooseDecoding(g, o);
        const int beam = decoding.beam;
        const int samples = decoding.samples;
        const bool classic = o.get("classic-candidates", 1) != 0;
        std::vector<OpId> order;
        if (stop.stop_requested() || greedy) {
            order = greedyOrder(g, prio);
            r.evaluations = 1;
            r.note = "greedy";
        } else if (beam > 0) {
            DecodeResult d = beamSearch(g, prio, beam);
            order = std::move(d.order);
            r.evaluations = d.evaluated;
            r.note = "beam " + std::to_string(beam);
        } else {
            Rng rng(o.seed);
            StepMemory mem(g, 1);
            double best = kInfinity;
            // Samples are ranked by their step-clock peak (the paper's); only on that clock is it
            // the problem's cost, so only then may a progress report call it the best cost so far.
            const bool stepCost = p.objective.kind == Objective::Memory && p.objective.memoryClock == MemoryClock::Step;
            for (int s = 0; s < std::max(1, samples); ++s) {
                std::vector<OpId> cand = sampleOrder(g, prio, rng);
                const double peak = mem.peak(cand);
                ++r.evaluations;
                if (peak < best) {
                    best = peak;
                    order = std::move(cand);
                }
                monitor.report(r, stepCost ? best : kInfinity, stepCost ? peak : kInfinity, static_cast<double>(s + 1) / std::max(1, samples));
                if (stop.stop_requested() || monitor.timeUp()) {
                    r.cancelled = stop.stop_requested();
                    break;
                }
            }
            r.note = "best of " + std::to_string(r.evaluations) + " samples";
        }
        r.note += classic ? scoreClassicCandidates(g, order, r) : "; no classic candidates (the paper's method alone)";
        r.note += "; weights " + std::filesystem::path(weights.path).filename().string() + " (" + weights.why + ")";
        r.schedule = sequentialSchedule(p, order);
        finishResult(r, p, "topoformer", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

std::vector<double> topoformerPriorities(TopoformerModelImpl& model, const Graph& g) {
    at::NoGradGuard noGrad;
    const MathThreads pin(1);   // the same priorities whatever the thread settings
    const at::Tensor y = model.forward(topoformerInput(g, model.config())).to(at::kDouble).contiguous();
    const double* d = y.data_ptr<double>();
    return {d, d + y.numel()};
}

std::unique_ptr<Optimizer> makeTopoformerOptimizer() { return std::make_unique<TopoformerOptimizer>(); }

OptimizerInfo topoformerInfo() {
    OptionSpec samples{.key = "samples",
                       .label = "Samples",
                       .kind = OptionSpec::Kind::Int,
                       .defaultValue = 0,
                       .min = 0,
                       .max = 1e6,
                       .help = "best of K sampled orders instead of beam search (0 = auto: 16 where the beam is off "
                               "or the graph has over 1,000 ops; --budget overrides)",
                       .minimumMeans = "auto"};
    OptionSpec beam{.key = "beam",
                    .label = "Beam width",
                    .kind = OptionSpec::Kind::Int,
                    .defaultValue = -1,
                    .min = -1,
                    .max = 4096,
                    .help = "beam search of this width (-1 = auto: 64 up to 150 ops, 32 up to 400, 16 up to 1,000, "
                            "unless samples are given; 0 = sampling)",
                    .minimumMeans = "auto"};
    OptionSpec greedy{.key = "greedy", .label = "Greedy", .kind = OptionSpec::Kind::Bool, .defaultValue = 0, .min = 0,
                      .max = 1, .help = "one greedy order (highest priority first), deterministic"};
    OptionSpec classic{.key = "classic-candidates",
                       .label = "Classic candidates",
                       .kind = OptionSpec::Kind::Bool,
                       .defaultValue = 1,
                       .min = 0,
                       .max = 1,
                       .help = "also score mem-dfs, mem-bfs, mem-postorder and mem-xla-list and keep the lowest peak "
                               "(default 1; 0 = the paper's decoding alone)"};
    return {.name = "topoformer",
            .summary = "Topoformer (NeurIPS 2022): learned priorities, sampled/beam/greedy single-device memory "
                       "orders; the classic orders also scored",
            .family = "neural",
            .objectives = {Objective::Memory},
            .options = {samples, beam, greedy, classic},
            .usesBudget = true,
            .usesSeed = true};
}

} // namespace sl::models

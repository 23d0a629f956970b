// SPDX-License-Identifier: MIT
#include "core/brkga/brkgaoptimizer.h"

#include "core/brkga/beta.h"
#include "core/brkga/chaindecoder.h"
#include "core/brkga/decoderbasics.h"
#include "core/brkga/orderdecoder.h"
#include "core/brkga/regaldecoder.h"
#include "core/costmodel/sharedlinks.h"
#include "core/graph/graphkind.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace sl::brkga {

std::vector<OptionSpec> optionSpecs(Chromosomes kind) {
    using K = OptionSpec::Kind;
    std::vector<OptionSpec> specs = {
        {"population", "Population", K::Int, 100, 2, 100000, "chromosomes per population"},
        {"elites", "Elites", K::Int, 10, 1, 100000, "best chromosomes kept unchanged each generation"},
        {"mutants", "Mutants", K::Int, 10, 0, 100000, "fresh random chromosomes each generation"},
        {"rho", "Elite inheritance", K::Double, 0.7, 0.5, 1, "probability a child gene comes from its elite parent"},
        {"populations", "Populations", K::Int, 1, 1, 64, "independent populations sharing the budget"},
        {"exchange-interval", "Exchange interval", K::Int, 10, 1, 100000, "generations between elite exchanges"},
        {"exchange-count", "Exchanged elites", K::Int, 2, 0, 1000, "best chromosomes copied between populations"},
        {"restart-stall", "Restart after", K::Int, 0, 0, 1e9, "generations without improvement before a restart (0 = never)"},
        {"stall", "Stop after stall", K::Int, 0, 0, 1e9, "stop after this many generations without improvement (0 = never)"},
        {"alpha", "Beta alpha", K::Double, 1, 0.05, 100, "mutant / initial keys ~ Beta(alpha, beta); 1, 1 = uniform"},
        {"beta", "Beta beta", K::Double, 1, 0.05, 100, "mutant / initial keys ~ Beta(alpha, beta); 1, 1 = uniform"},
    };
    if (kind == Chromosomes::Regal) {
        specs.push_back({"symmetry", "Symmetry breaking", K::Bool, 1, 0, 1,
                         "fix the op with the largest memory on device 0 (identical devices)"});
        for (OptionSpec& s : placementOptionSpecs()) specs.push_back(std::move(s));
    } else if (kind == Chromosomes::Order) {
        specs.push_back({"warm-start", "Warm start (list-cp)", K::Bool, 1, 0, 1,
                         "seed the population with list-cp and list-mopnr priorities"});
        specs.push_back({"local-search", "Local search", K::Bool, 0, 0, 1,
                         "improve every decoded schedule by descent on its critical path (slower decodes, better ones)"});
    }
    return specs;
}

Params paramsFromOptions(const RunOptions& o) {
    auto integer = [&](const char* key, int fallback) { return static_cast<int>(std::lround(o.get(key, fallback))); };
    Params p;
    p.population = integer("population", 100);
    p.elites = integer("elites", 10);
    p.mutants = integer("mutants", 10);
    p.rho = o.get("rho", 0.7);
    p.populations = integer("populations", 1);
    p.exchangeInterval = integer("exchange-interval", 10);
    p.exchangeCount = integer("exchange-count", 2);
    p.restartAfterStall = integer("restart-stall", 0);
    p.check();
    return p;
}

namespace {

/// A warm-started run is never worse than its start: its chains decode to their earliest times,
/// which a memory cost may like less than the start's own.
void keepStartIfBetter(const Problem& problem, const Schedule& start, RunResult& out) {
    Schedule s = start;
    bookSharedLinks(problem, s);
    const double cost = scoreSchedule(problem, s);
    if (!(cost < out.cost)) return;
    s.method = out.schedule.method;
    s.seed = out.schedule.seed;
    out.schedule = std::move(s);
    out.cost = cost;
    out.note += "; the start schedule kept (nothing better found)";
}

const char* methodName(Chromosomes kind) {
    switch (kind) {
    case Chromosomes::Regal: return "brkga";
    case Chromosomes::Order: return "brkga-order";
    case Chromosomes::Chains: return "brkga-chains";
    }
    return "brkga";
}

template <typename DecoderT>
class BrkgaOptimizer final : public Optimizer {
public:
    explicit BrkgaOptimizer(Chromosomes kind) : m_kind(kind) {}

    RunResult run(const Problem& problem, const RunOptions& options, const ProgressFn& progress,
                  std::stop_token stop) override {
        problem.check();
        const Params params = paramsFromOptions(options);
        const int threads = std::max(1, options.threads);
        std::vector<std::unique_ptr<DecoderT>> decoders;
        for (int t = 0; t < threads; ++t) decoders.push_back(make(problem, options));
        const std::size_t genes = size(*decoders[0]);

        StopCriteria criteria;
        criteria.budget = options.budget > 0 ? options.budget : kDefaultBudget;
        criteria.timeLimit = options.timeLimit;
        criteria.stallGenerations = static_cast<int>(options.get("stall", 0));

        std::vector<Chromosome> warm;
        if (m_kind == Chromosomes::Order && options.get("warm-start", 1) != 0)
            warm = listHeuristicKeys(problem.g());
        if constexpr (std::is_same_v<DecoderT, ChainDecoder>)
            if (options.start) warm.push_back(chainKeysOf(problem, *options.start));

        Engine engine(genes, [&](std::span<double> keys, int worker) {
            return decoders[static_cast<size_t>(worker)]->decode(keys);
        }, params, threads);

        const double alpha = options.get("alpha", 1), beta = options.get("beta", 1);
        if (!(alpha > 0 && beta > 0)) throw std::invalid_argument("brkga: alpha and beta must be positive");
        if (alpha != 1 || beta != 1)
            engine.setDistributions({.mutant = [table = BetaQuantiles::shared(alpha, beta)](std::span<double> k, Rng& rng) {
                for (double& x : k) x = (*table)(rng);   // the table once, not a locked lookup per chromosome
            }});

        RunResult out;
        auto lastReport = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        auto observer = [&](const Status& s) {
            Progress p{s.evaluations, s.best, s.mean, s.diversity, s.seconds, 0};
            p.fraction = std::min(1.0, static_cast<double>(s.evaluations) / static_cast<double>(criteria.budget));
            if (criteria.timeLimit > 0) p.fraction = std::max(p.fraction, std::min(1.0, s.seconds / criteria.timeLimit));
            out.history.push_back(p);
            const auto now = std::chrono::steady_clock::now();
            if (progress && now - lastReport >= std::chrono::milliseconds(20)) {   // throttled for the eye
                lastReport = now;
                progress(p);
            }
            return false;
        };
        const Result r = engine.run(options.seed, criteria, warm, observer, stop);
        if (progress && !out.history.empty()) progress(out.history.back());

        for (const Chromosome& keys : engine.ranked(options.candidates))   // the final population's top k
            out.candidates.push_back(decoders[0]->schedule(keys));
        for (Schedule& c : out.candidates) bookSharedLinks(problem, c);
        out.schedule = decoders[0]->schedule(r.best);
        bookSharedLinks(problem, out.schedule);   // decoded on contention-free times (docs/time.md)
        out.schedule.method = methodName(m_kind);
        out.schedule.seed = options.seed;
        out.cost = scoreSchedule(problem, out.schedule);   // what `evaluate` reports, and r.bestCost
        out.evaluations = r.evaluations;
        out.seconds = r.seconds;
        out.cancelled = r.stop == StopReason::Cancelled;
        out.note = "stopped on " + toString(r.stop) + " after " + std::to_string(r.generations) + " generations" +
                   (r.restarts ? ", " + std::to_string(r.restarts) + " restarts" : std::string());
        if (options.start) keepStartIfBetter(problem, *options.start, out);
        return out;
    }

private:
    static std::unique_ptr<DecoderT> make(const Problem& p, const RunOptions& o) {
        if constexpr (std::is_same_v<DecoderT, RegalDecoder>)
            return std::make_unique<RegalDecoder>(p, o.get("symmetry", 1) != 0, placementRuleFromOptions(o, p));
        else if constexpr (std::is_same_v<DecoderT, OrderDecoder>)
            return std::make_unique<OrderDecoder>(p, o.get("local-search", 0) != 0);
        else
            return std::make_unique<DecoderT>(p);
    }
    static std::size_t size(const DecoderT& d) {
        if constexpr (std::is_same_v<DecoderT, RegalDecoder>)
            return d.layout().size();
        else
            return d.size();
    }
    Chromosomes m_kind;
};

} // namespace

std::vector<OptionSpec> placementOptionSpecs() {
    using K = OptionSpec::Kind;
    return {
        {.key = "placement",
         .label = "Placement",
         .kind = K::Choice,
         .defaultValue = 0,
         .min = 0,
         .max = 2,
         .help =
             "how the decoder places ops: auto (balanced for a training step's peak memory, else affinity), affinity (the papers'), balanced",
         .choices = {"auto", "affinity", "balanced"}},
        {.key = "balance",
         .label = "Memory balance",
         .kind = K::Double,
         .defaultValue = kMemoryPlacement.balance,
         .min = 0,
         .max = 10,
         .help = "balanced placement: weight of the device's share of live bytes against the op's affinity key"},
        {.key = "locality",
         .label = "Locality",
         .kind = K::Double,
         .defaultValue = kMemoryPlacement.locality,
         .min = 0,
         .max = 1,
         .help = "balanced placement: weight of the share of the op's inputs that would be copied to the device"},
    };
}

PlacementRule placementRuleFromOptions(const RunOptions& o, const Problem& problem) {
    const std::string name = choiceValue(o, placementOptionSpecs()[0], "brkga");
    // auto: balanced where it was chosen and measured to gain, the peak memory of training steps
    // (docs/brkga.md, "Placement that sees memory"); on forward graphs it gains or loses by family.
    const bool trainingStepMemory = problem.objective.kind == Objective::Memory && isTrainingStep(problem.g());
    if (name == "affinity" || (name == "auto" && !trainingStepMemory)) return {};
    return {.balance = o.get("balance", kMemoryPlacement.balance),
            .locality = o.get("locality", kMemoryPlacement.locality)};
}

std::unique_ptr<Optimizer> makeOptimizer(Chromosomes kind) {
    switch (kind) {
    case Chromosomes::Regal: return std::make_unique<BrkgaOptimizer<RegalDecoder>>(kind);
    case Chromosomes::Order: return std::make_unique<BrkgaOptimizer<OrderDecoder>>(kind);
    case Chromosomes::Chains: return std::make_unique<BrkgaOptimizer<ChainDecoder>>(kind);
    }
    throw std::logic_error("brkga: unknown chromosome kind");
}

} // namespace sl::brkga

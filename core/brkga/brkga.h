// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A biased random-key genetic algorithm (BRKGA, Gonçalves & Resende 2011; as REGAL uses it,
/// Paliwal et al., ICLR 2020, §3.2),
/// minimising the cost a decoder assigns to a vector of keys in [0, 1].
///
/// Each generation keeps the `elites` best chromosomes unchanged (their cost is cached, not
/// re-evaluated), adds population - elites - mutants children of a uniform elite x non-elite pair
/// (biased uniform crossover: gene i from the elite with probability rho_i) and `mutants` fresh
/// samples of the mutant distribution. Extras: several populations with elite exchange, restarts
/// on stall, warm start, exact evaluation budget (a budget that ends mid-generation evaluates
/// children then mutants in order, then stops: docs/brkga.md, "Choices where the papers are
/// silent").
///
/// The API follows BRKGA-MP-IPR: run() for a whole run, or the steps it is made of —
/// initialize(), then evolve() (one generation), restart(), exchangeElite(), reading status() and
/// best() in between.
///
/// Contract:
///  - Decoder (the `Decoder` concept): `double(std::span<double> keys, int worker)` returns the cost
///    (lower is better, may be +inf for "invalid"; NaN counts as +inf); it may rewrite `keys`
///    (Lamarckian repair). It is called concurrently from `threads` threads with distinct `worker`
///    indices in [0, threads): keep one workspace per worker and no other shared mutable state.
///  - Reproducible: every chromosome is built from its own random stream derived from
///    (seed, population, generation, slot), so the result for a seed does not depend on the
///    number of threads (cancellation and time limits are the only non-deterministic stops).
///  - Cancel: the stop_token is checked before every decode; a cancelled run returns the best so
///    far after at most one decode per thread.
///  - Cost per generation: O(population x genes) sampling plus the decodes; no allocation after
///    initialize() (run() adds one history entry per generation).
///
/// \code
///   sl::brkga::Engine engine(n, [&](std::span<double> keys, int worker) {
///       return decoders[worker].decode(keys);
///   }, {.population = 100, .elites = 10, .mutants = 10, .rho = 0.7}, /*threads=*/2);
///   sl::brkga::Result r = engine.run(/*seed=*/7, {.budget = 5000}, /*warm=*/{},
///       [](const sl::brkga::Status& s) { std::cout << s.best << "\n"; return false; });
///   // r.best, r.bestCost, r.evaluations, r.stop
///
///   // The same by steps (run() also handles the stop criteria, restarts, exchanges, history):
///   engine.initialize(7, {}, {.budget = 5000});
///   while (!engine.limitReached()) engine.evolve();
///   // engine.best(), engine.bestCost(), engine.status()
/// \endcode

#include "core/util/random.h"

#include <concepts>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <vector>

namespace sl::brkga {

using Chromosome = std::vector<double>;

struct Params {
    int population = 100;        ///< chromosomes per population
    int elites = 10;             ///< kept unchanged each generation
    int mutants = 10;            ///< fresh samples each generation; the rest are children
    double rho = 0.7;            ///< elite-inheritance probability (unless per-gene rho is given)
    int populations = 1;         ///< independent populations, evolved side by side
    int exchangeInterval = 10;   ///< generations between elite exchanges (populations > 1)
    int exchangeCount = 2;       ///< best chromosomes of each population copied into the others
    int restartAfterStall = 0;   ///< generations without improvement before re-sampling all but
                                 ///< the best chromosome; 0 = never
    /// Throws std::invalid_argument when the numbers cannot work (e.g. elites >= population).
    void check() const;
};

/// Pluggable distributions (generalized BRKGA, REGAL §3.2): REGAL passes per-gene Betas and rho_i here.
struct Distributions {
    /// Fills a fresh chromosome (mutants). Empty: i.i.d. Uniform[0, 1).
    std::function<void(std::span<double> keys, Rng& rng)> mutant;
    /// Fills a chromosome of the initial population (and of restarts). Empty: `mutant`.
    std::function<void(std::span<double> keys, Rng& rng)> initial;
    /// Per-gene elite-inheritance probability. Empty: Params::rho for every gene.
    std::vector<double> rho;
};

struct StopCriteria {
    std::int64_t budget = 5000;   ///< evaluations (decodes); <= 0 = unlimited
    double timeLimit = 0;         ///< seconds; 0 = none
    int stallGenerations = 0;     ///< stop after this many generations without improvement; 0 = never
    double target = -std::numeric_limits<double>::infinity();   ///< stop once best <= target
};

/// What the observer sees after the initial population and after every generation.
struct Status {
    std::int64_t evaluations = 0;
    int generation = 0;      ///< 0 = the initial population
    double best = 0;         ///< best cost ever seen
    double mean = 0;         ///< mean finite cost of the current population(s)
    double diversity = 0;    ///< mean |key - best key| over individuals and (up to 256) genes;
                             ///< about 1/3 for a uniform random population, 0 when converged
    double seconds = 0;
    int restarts = 0;
};

/// Return true to stop the run.
using Observer = std::function<bool(const Status&)>;

/// What the engine decodes with: callable as `double(std::span<double> keys, int worker)` (see the
/// contract above). A lambda over per-worker decoders, a functor, or a std::function.
template <typename D>
concept Decoder = std::invocable<D&, std::span<double>, int> &&
                  std::convertible_to<std::invoke_result_t<D&, std::span<double>, int>, double>;

/// Bounds that the step API applies inside a generation; run() derives them from StopCriteria.
struct Limits {
    std::int64_t budget = 0;   ///< evaluations since initialize(); <= 0 = unlimited. A generation
                               ///< that reaches it decodes children, then mutants, in slot order
                               ///< up to it and leaves the rest undecoded (cost +inf)
    double timeLimit = 0;      ///< seconds since initialize(), checked before every decode; 0 = none
    std::stop_token cancel;    ///< checked before every decode
};

enum class StopReason { Budget, TimeLimit, Stall, Target, Cancelled, Observer };
std::string toString(StopReason r);

struct Result {
    Chromosome best;   ///< as stored after decoding (includes any Lamarckian rewrite)
    double bestCost = std::numeric_limits<double>::infinity();
    std::int64_t evaluations = 0;
    int generations = 0;   ///< completed generations after the initial population
    int restarts = 0;
    double seconds = 0;
    StopReason stop = StopReason::Budget;
    std::vector<Status> history;   ///< one entry per observer call
};

/// A run between generations, enough to continue it exactly in another Engine of the same genes,
/// parameters and decoder: every chromosome's random stream derives from (seed, population,
/// generation, slot), so nothing else carries over. The distributions are not part of it.
struct Snapshot {
    std::uint64_t seed = 0;
    std::vector<std::vector<double>> keys, cost;   ///< per population: slots' keys back to back, costs
    Chromosome best;
    double bestCost = std::numeric_limits<double>::infinity();
    std::int64_t evaluations = 0;
    int generation = 0, restarts = 0, stall = 0;
};

class Engine {
public:
    /// `genes` keys per chromosome; `decoder` is kept (by value) for the engine's lifetime, so
    /// whatever it refers to must outlive the runs. Throws std::invalid_argument.
    template <Decoder D>
    Engine(std::size_t genes, D decoder, Params params = {}, int threads = 1)
        : Engine(genes, DecodeFunction(std::move(decoder)), params, threads, Typed{}) {}
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    /// The mutant / initial distributions and per-gene rho. Called during a run (e.g. from the
    /// observer), it applies from the next generation on: REGAL's policy steers a run mid-way.
    void setDistributions(Distributions d);
    const Params& params() const { return m_params; }
    std::size_t genes() const { return m_genes; }

    /// Evolves until a stop criterion holds: initialize(), then evolve() each generation, restart()
    /// after `restartAfterStall` generations without improvement, exchangeElite() every
    /// `exchangeInterval` generations. The observer and Result::history see status() after the
    /// initial population and after every generation. `warmStart`: see initialize().
    Result run(std::uint64_t seed, const StopCriteria& stop, std::span<const Chromosome> warmStart = {},
               const Observer& observer = {}, std::stop_token cancel = {});
    /// run() from a snapshot instead of a fresh start: the same run as the one the snapshot was
    /// taken from, continued. The budget counts the snapshot's evaluations; the time limit and the
    /// history start now. Throws std::invalid_argument when the snapshot does not fit this engine.
    Result resume(const Snapshot& from, const StopCriteria& stop, const Observer& observer = {}, std::stop_token cancel = {});
    /// The current run, between generations (e.g. from the observer).
    Snapshot snapshot() const;

    // ---- Step API (what run() is made of). Every step but initialize() needs a started run.

    /// Starts a run (discarding any previous one): samples the initial population(s) from the
    /// initial distribution and decodes them within `limits`; generation 0. `warmStart`
    /// chromosomes (each of `genes` keys, clamped to [0, 1]) replace the first random members,
    /// round-robin over the populations; extra ones beyond the population size are ignored.
    void initialize(std::uint64_t seed, std::span<const Chromosome> warmStart = {}, Limits limits = {});
    /// One generation in every population: the elites are kept (cost cached), then children and
    /// mutants are built and decoded, and each population is re-ranked. Once a limit is reached it
    /// decodes nothing and every non-elite slot costs +inf: check limitReached() first, as run() does.
    void evolve();
    /// Re-samples every chromosome but the best ever seen (kept as population 0's first) from the
    /// initial distribution and decodes them; counts as a generation and resets the stall count.
    void restart();
    /// Copies the `exchangeCount` best chromosomes of each population over the worst of every other
    /// one and re-ranks (no decode). Does nothing with one population.
    void exchangeElite();

    /// The evaluations, generation, best and population statistics of the current run.
    Status status() const;
    const Chromosome& best() const;   ///< best chromosome ever seen, as stored after decoding
    /// Up to `k` chromosomes of the current population(s) with a finite cost, cheapest first (ties:
    /// lower population, then the population's ranking); e.g. the final population's top k
    /// (the GFlowNet paper's candidates, Zhang et al. 2023, §5). Copies k x genes keys.
    std::vector<Chromosome> ranked(int k) const;
    double bestCost() const;          ///< +inf before anything decoded to a finite cost
    std::int64_t evaluations() const;
    int generation() const;           ///< 0 = the initial population
    int restarts() const;
    int stalledGenerations() const;   ///< generations since the best improved (or the last restart)
    double seconds() const;           ///< since initialize()
    bool budgetSpent() const;
    bool timeUp() const;
    bool cancelled() const;
    bool limitReached() const { return budgetSpent() || timeUp() || cancelled(); }

private:
    using DecodeFunction = std::function<double(std::span<double> keys, int worker)>;
    struct Typed {};
    Engine(std::size_t genes, DecodeFunction decoder, Params params, int threads, Typed);

    struct State;   ///< one run: populations, best, counters, worker pool (brkga.cpp)
    State& state() const;
    bool shouldStop(const StopCriteria& stop, const Observer& observer, Result& result) const;
    Result evolveUntilStopped(const StopCriteria& stop, const Observer& observer);

    std::size_t m_genes;
    DecodeFunction m_decoder;
    Params m_params;
    int m_threads;
    Distributions m_dist;
    std::unique_ptr<State> m_state;
};

} // namespace sl::brkga

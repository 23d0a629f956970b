// SPDX-License-Identifier: MIT
#include "core/brkga/brkga.h"

#include "core/util/workerpool.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace sl::brkga {

void Params::check() const {
    auto fail = [](const std::string& m) { throw std::invalid_argument("brkga: " + m); };
    if (population < 2) fail("population must be at least 2");
    if (elites < 1 || elites >= population) fail("elites must be in [1, population)");
    if (mutants < 0 || elites + mutants > population) fail("mutants must be in [0, population - elites]");
    if (!(rho >= 0 && rho <= 1)) fail("rho must be in [0, 1]");
    if (populations < 1) fail("populations must be at least 1");
    if (populations > 1 && (exchangeInterval < 1 || exchangeCount < 0 ||
                            (populations - 1) * exchangeCount >= population - elites + 1))
        fail("elite exchange needs exchangeInterval >= 1 and (populations-1)*exchangeCount < population-elites");
    if (restartAfterStall < 0) fail("restartAfterStall must be >= 0");
}

std::string toString(StopReason r) {
    switch (r) {
    case StopReason::Budget: return "budget";
    case StopReason::TimeLimit: return "time limit";
    case StopReason::Stall: return "stall";
    case StopReason::Target: return "target";
    case StopReason::Cancelled: return "cancelled";
    case StopReason::Observer: return "observer";
    }
    return "budget";
}

Engine::Engine(std::size_t genes, DecodeFunction decoder, Params params, int threads, Typed)
    : m_genes(genes), m_decoder(std::move(decoder)), m_params(params), m_threads(std::max(threads, 1)) {
    if (genes == 0) throw std::invalid_argument("brkga: a chromosome needs at least one gene");
    if (!m_decoder) throw std::invalid_argument("brkga: no decoder");
    m_params.check();
}

Engine::~Engine() = default;

namespace {

using Clock = std::chrono::steady_clock;
using Sampler = std::function<void(std::span<double> keys, Rng& rng)>;
constexpr double kInf = std::numeric_limits<double>::infinity();

void uniformKeys(std::span<double> keys, Rng& rng) {
    for (double& k : keys) k = rng.uniform();
}

/// `first ? a : b` without a branch: crossover's choices are random, so a branch mispredicts often.
double pick(bool first, double a, double b) {
    const std::uint64_t mask = 0 - static_cast<std::uint64_t>(first);
    return std::bit_cast<double>((std::bit_cast<std::uint64_t>(a) & mask) | (std::bit_cast<std::uint64_t>(b) & ~mask));
}

} // namespace

/// One population: keys of `size` chromosomes back to back, their costs and the ranking. The next
/// generation is built in nextKeys/nextCost, then the buffers swap. Not in the anonymous
/// namespace: Engine::State, a type with linkage, holds it (GCC warns in a unity build).
struct Population {
    std::vector<double> keys, nextKeys;
    std::vector<double> cost, nextCost;
    std::vector<int> rank;   ///< rank[r] = slot of the r-th best

    Population(int size, std::size_t genes)
        : keys(static_cast<size_t>(size) * genes), nextKeys(keys.size()), cost(static_cast<size_t>(size), kInf),
          nextCost(cost.size()), rank(cost.size()) {}

    std::span<double> at(std::vector<double>& buf, int slot, std::size_t genes) {
        return {buf.data() + static_cast<std::size_t>(slot) * genes, genes};
    }
    const double* at(int slot, std::size_t genes) const { return keys.data() + static_cast<std::size_t>(slot) * genes; }
    /// By cost, ties to the lower slot (what a stable sort gives), without a stable sort's buffer.
    void sortRanks() {
        std::iota(rank.begin(), rank.end(), 0);
        std::sort(rank.begin(), rank.end(), [&](int a, int b) {
            const double ca = cost[static_cast<size_t>(a)], cb = cost[static_cast<size_t>(b)];
            return ca < cb || (!(cb < ca) && a < b);
        });
    }
};

/// What a batch builds: the initial population, a generation's offspring, or a restart.
enum class Batch { Initial, Offspring, Restart };

/// One run: the populations, the best so far and the counters, and the pool that decodes.
struct Engine::State {
    struct Item {
        int pop, slot;
    };

    State(const Engine& engine, std::uint64_t seed, const Limits& limits);
    /// Samplers and crossover thresholds from `d` (at the start, or between generations).
    void adopt(const Distributions& d);

    // Fixed for the run.
    const Engine& engine;
    const std::size_t genes;
    const Params& params;
    const std::uint64_t seed;
    const Limits limits;
    const Clock::time_point start;
    const Clock::time_point deadline;
    std::vector<std::uint64_t> threshold;   ///< crossover: elite gene when a 32-bit draw is below
    Sampler mutant, initial;

    // Working buffers, sized once.
    WorkerPool pool;
    std::vector<Population> pops;
    std::vector<Item> items;     ///< what the current batch builds, in budget order
    std::vector<char> decoded;   ///< per item: built and decoded (not skipped by a limit)
    std::vector<double> migrantKeys, migrantCost;   ///< exchangeElite()'s snapshot

    // Progress.
    Chromosome best;
    double bestCost = kInf;
    std::int64_t evaluations = 0;
    int generation = 0;
    int restarts = 0;
    int stall = 0;
    bool improved = false;
    std::atomic<bool> deadlinePassed{false};

    double seconds() const { return std::chrono::duration<double>(Clock::now() - start).count(); }
    bool timed() const { return limits.timeLimit > 0; }
    void beginGeneration();
    void queueSlots(int pop, int firstSlot);
    void carryElites(Population& pop);
    void keepBestInFirstSlot(Population& pop);
    void decodeBatch(Batch batch, std::span<const Chromosome> warmStart = {});
    std::int64_t affordable() const;
    bool mayDecode();
    void buildAndDecode(Batch batch, int item, int worker, std::span<const Chromosome> warmStart);
    void build(Batch batch, const Item& item, std::span<double> child, Rng& rng,
               std::span<const Chromosome> warmStart) const;
    void crossover(const Population& pop, std::span<double> child, Rng& rng) const;
    void recordBatch();
    void promoteNextGeneration();
    void exchangeElite();
    Status status() const;
};

Engine::State::State(const Engine& e, std::uint64_t seed_, const Limits& limits_)
    : engine(e), genes(e.m_genes), params(e.m_params), seed(seed_), limits(limits_), start(Clock::now()),
      deadline(start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.timeLimit))),
      threshold(genes), pool(e.m_threads), best(genes, 0.0) {
    adopt(e.m_dist);
    const int K = params.populations, p = params.population;
    pops.reserve(static_cast<size_t>(K));
    for (int k = 0; k < K; ++k) pops.emplace_back(p, genes);
    items.reserve(static_cast<size_t>(K) * static_cast<size_t>(p));
    decoded.resize(static_cast<size_t>(K) * static_cast<size_t>(p));
    const auto migrants = static_cast<size_t>(K) * static_cast<size_t>(params.exchangeCount);
    migrantKeys.resize(K > 1 ? migrants * genes : 0);
    migrantCost.resize(K > 1 ? migrants : 0);
}

void Engine::State::adopt(const Distributions& d) {
    mutant = d.mutant ? d.mutant : Sampler(uniformKeys);
    initial = d.initial ? d.initial : mutant;
    // Crossover thresholds on 32-bit draws: two genes per 64-bit random number.
    for (std::size_t i = 0; i < genes; ++i) {
        const double r = d.rho.empty() ? params.rho : d.rho[i];
        threshold[i] = static_cast<std::uint64_t>(std::ldexp(r, 32));
    }
}

void Engine::State::beginGeneration() {
    ++generation;
    improved = false;
    items.clear();
}

void Engine::State::queueSlots(int pop, int firstSlot) {
    for (int slot = firstSlot; slot < params.population; ++slot) items.push_back({pop, slot});
}

void Engine::State::carryElites(Population& pop) {
    for (int r = 0; r < params.elites; ++r) {
        const int from = pop.rank[static_cast<size_t>(r)];
        const double* src = pop.at(from, genes);
        std::copy(src, src + genes, pop.at(pop.nextKeys, r, genes).begin());
        pop.nextCost[static_cast<size_t>(r)] = pop.cost[static_cast<size_t>(from)];
    }
}

void Engine::State::keepBestInFirstSlot(Population& pop) {
    std::copy(best.begin(), best.end(), pop.nextKeys.begin());
    pop.nextCost[0] = bestCost;
}

/// Builds and decodes the queued items (up to the budget) into nextKeys/nextCost, records the
/// results in item order, then makes the next generation current.
void Engine::State::decodeBatch(Batch batch, std::span<const Chromosome> warmStart) {
    std::fill(decoded.begin(), decoded.end(), 0);
    pool.run(static_cast<int>(affordable()),
             [&](int i, int worker) { buildAndDecode(batch, i, worker, warmStart); });
    recordBatch();
    promoteNextGeneration();
}

/// The queued items the budget still pays for: children first, then mutants (docs/brkga.md,
/// "Choices where the papers are silent").
std::int64_t Engine::State::affordable() const {
    const auto queued = static_cast<std::int64_t>(items.size());
    if (limits.budget <= 0) return queued;
    return std::min(queued, std::max<std::int64_t>(limits.budget - evaluations, 0));
}

/// Checked before every decode, on every worker: cancel and the time limit.
bool Engine::State::mayDecode() {
    if (limits.cancel.stop_requested()) return false;
    if (timed() && (deadlinePassed.load(std::memory_order_relaxed) || Clock::now() >= deadline)) {
        deadlinePassed.store(true, std::memory_order_relaxed);
        return false;
    }
    return true;
}

void Engine::State::buildAndDecode(Batch batch, int i, int worker, std::span<const Chromosome> warmStart) {
    if (!mayDecode()) return;
    const Item it = items[static_cast<size_t>(i)];
    Population& pop = pops[static_cast<size_t>(it.pop)];
    std::span<double> child = pop.at(pop.nextKeys, it.slot, genes);
    // The chromosome's own stream: the result does not depend on which worker builds it.
    const auto stream = static_cast<std::uint64_t>(it.pop) * static_cast<std::uint64_t>(params.population) +
                        static_cast<std::uint64_t>(it.slot);
    Rng rng(deriveSeed(deriveSeed(seed, static_cast<std::uint64_t>(generation)), stream));
    build(batch, it, child, rng, warmStart);
    pop.nextCost[static_cast<size_t>(it.slot)] = engine.m_decoder(child, worker);
    decoded[static_cast<size_t>(i)] = 1;
}

void Engine::State::build(Batch batch, const Item& it, std::span<double> child, Rng& rng,
                          std::span<const Chromosome> warmStart) const {
    if (batch == Batch::Initial) {
        // Warm chromosomes take the first slots, round-robin over the populations.
        const auto warm = static_cast<size_t>(it.slot) * pops.size() + static_cast<size_t>(it.pop);
        if (warm < warmStart.size())
            for (std::size_t g = 0; g < genes; ++g) child[g] = std::clamp(warmStart[warm][g], 0.0, 1.0);
        else
            initial(child, rng);
    } else if (batch == Batch::Restart) {
        initial(child, rng);
    } else if (it.slot < params.population - params.mutants) {
        crossover(pops[static_cast<size_t>(it.pop)], child, rng);
    } else {
        mutant(child, rng);
    }
}

/// Biased uniform crossover of a uniform elite and a uniform non-elite parent. Each 64-bit draw
/// decides two genes (low half first), with the gene's threshold on 32 bits.
void Engine::State::crossover(const Population& pop, std::span<double> child, Rng& rng) const {
    const int e = params.elites, p = params.population;
    const double* elite = pop.at(pop.rank[static_cast<size_t>(rng.integer(0, e - 1))], genes);
    const double* other = pop.at(pop.rank[static_cast<size_t>(rng.integer(e, p - 1))], genes);
    const std::uint64_t* thr = threshold.data();
    double* out = child.data();
    std::size_t g = 0;
    for (; g + 1 < genes; g += 2) {
        const std::uint64_t bits = rng.bits();
        out[g] = pick((bits & 0xffffffffu) < thr[g], elite[g], other[g]);
        out[g + 1] = pick((bits >> 32) < thr[g + 1], elite[g + 1], other[g + 1]);
    }
    if (g < genes) out[g] = pick((rng.bits() & 0xffffffffu) < thr[g], elite[g], other[g]);
}

/// Sequential bookkeeping in item order, so ties resolve the same whatever the threads.
void Engine::State::recordBatch() {
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Item it = items[i];
        Population& pop = pops[static_cast<size_t>(it.pop)];
        double& cost = pop.nextCost[static_cast<size_t>(it.slot)];
        if (!decoded[i]) {
            cost = kInf;
            continue;
        }
        ++evaluations;
        if (std::isnan(cost)) cost = kInf;
        if (cost < bestCost) {
            bestCost = cost;
            const auto src = pop.at(pop.nextKeys, it.slot, genes);
            std::copy(src.begin(), src.end(), best.begin());
            improved = true;
        }
    }
}

void Engine::State::promoteNextGeneration() {
    for (auto& pop : pops) {
        pop.keys.swap(pop.nextKeys);
        pop.cost.swap(pop.nextCost);
        pop.sortRanks();
    }
}

void Engine::State::exchangeElite() {
    const int K = params.populations, count = params.exchangeCount;
    if (K < 2 || count == 0) return;
    // Snapshot every population's best first: the copies must not see each other.
    for (int k = 0; k < K; ++k)
        for (int x = 0; x < count; ++x) {
            const Population& pop = pops[static_cast<size_t>(k)];
            const int slot = pop.rank[static_cast<size_t>(x)];
            const auto idx = static_cast<size_t>(k * count + x);
            const double* src = pop.at(slot, genes);
            std::copy(src, src + genes, migrantKeys.begin() + static_cast<std::ptrdiff_t>(idx * genes));
            migrantCost[idx] = pop.cost[static_cast<size_t>(slot)];
        }
    for (int k = 0; k < K; ++k) {
        Population& pop = pops[static_cast<size_t>(k)];
        int worst = params.population - 1;
        for (int j = 0; j < K; ++j) {
            if (j == k) continue;
            for (int x = 0; x < count; ++x, --worst) {
                const int slot = pop.rank[static_cast<size_t>(worst)];
                const auto idx = static_cast<size_t>(j * count + x);
                const auto from = migrantKeys.begin() + static_cast<std::ptrdiff_t>(idx * genes);
                std::copy(from, from + static_cast<std::ptrdiff_t>(genes), pop.at(pop.keys, slot, genes).begin());
                pop.cost[static_cast<size_t>(slot)] = migrantCost[idx];
            }
        }
        pop.sortRanks();
    }
}

Status Engine::State::status() const {
    Status s;
    s.evaluations = evaluations;
    s.generation = generation;
    s.best = bestCost;
    s.seconds = seconds();
    s.restarts = restarts;
    double sum = 0, div = 0;
    std::int64_t finite = 0, samples = 0;
    const std::size_t stride = std::max<std::size_t>(1, genes / 256);
    for (const auto& pop : pops)
        for (int i = 0; i < params.population; ++i) {
            const double cst = pop.cost[static_cast<size_t>(i)];
            if (std::isfinite(cst)) {
                sum += cst;
                ++finite;
            }
            const double* k = pop.at(i, genes);
            for (std::size_t g = 0; g < genes; g += stride, ++samples) div += std::abs(k[g] - best[g]);
        }
    s.mean = finite ? sum / static_cast<double>(finite) : kInf;
    s.diversity = samples ? div / static_cast<double>(samples) : 0;
    return s;
}

// ---- Engine: the step API over State.

void Engine::setDistributions(Distributions d) {
    if (!d.rho.empty() && d.rho.size() != m_genes)
        throw std::invalid_argument("brkga: per-gene rho needs one value per gene");
    for (double r : d.rho)
        if (!(r >= 0 && r <= 1)) throw std::invalid_argument("brkga: per-gene rho must be in [0, 1]");
    m_dist = std::move(d);
    if (m_state) m_state->adopt(m_dist);   // a live run: from its next generation on
}


Engine::State& Engine::state() const {
    if (!m_state) throw std::logic_error("brkga: initialize() the engine before stepping it");
    return *m_state;
}

void Engine::initialize(std::uint64_t seed, std::span<const Chromosome> warmStart, Limits limits) {
    for (const Chromosome& w : warmStart)
        if (w.size() != m_genes)
            throw std::invalid_argument("brkga: a warm-start chromosome has " + std::to_string(w.size()) +
                                        " keys, expected " + std::to_string(m_genes));
    m_state.reset();   // one pool at a time
    m_state = std::make_unique<State>(*this, seed, limits);
    State& s = *m_state;
    for (int slot = 0; slot < m_params.population; ++slot)
        for (int k = 0; k < m_params.populations; ++k) s.items.push_back({k, slot});
    s.decodeBatch(Batch::Initial, warmStart);
}

void Engine::evolve() {
    State& s = state();
    s.beginGeneration();
    // Items are population-major, children before mutants within a population (budget order).
    for (int k = 0; k < m_params.populations; ++k) {
        s.carryElites(s.pops[static_cast<size_t>(k)]);
        s.queueSlots(k, m_params.elites);
    }
    s.decodeBatch(Batch::Offspring);
    s.stall = s.improved ? 0 : s.stall + 1;
}

void Engine::restart() {
    State& s = state();
    s.beginGeneration();
    s.keepBestInFirstSlot(s.pops[0]);
    for (int k = 0; k < m_params.populations; ++k) s.queueSlots(k, k == 0 ? 1 : 0);
    s.decodeBatch(Batch::Restart);
    ++s.restarts;
    s.stall = 0;
}

void Engine::exchangeElite() { state().exchangeElite(); }

Status Engine::status() const { return state().status(); }
const Chromosome& Engine::best() const { return state().best; }
double Engine::bestCost() const { return state().bestCost; }

std::vector<Chromosome> Engine::ranked(int k) const {
    const State& s = state();
    struct Entry {
        double cost;
        int pop, rank;
    };
    std::vector<Entry> entries;
    for (int q = 0; q < m_params.populations; ++q) {
        const Population& pop = s.pops[static_cast<size_t>(q)];
        for (int r = 0; r < m_params.population; ++r) {
            const double cost = pop.cost[static_cast<size_t>(pop.rank[static_cast<size_t>(r)])];
            if (std::isfinite(cost)) entries.push_back({cost, q, r});   // undecoded slots cost +inf
        }
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.cost < b.cost; });
    entries.resize(std::min(entries.size(), static_cast<size_t>(std::max(k, 0))));
    std::vector<Chromosome> out;
    for (const Entry& e : entries) {
        const Population& pop = s.pops[static_cast<size_t>(e.pop)];
        const double* keys = pop.at(pop.rank[static_cast<size_t>(e.rank)], m_genes);
        out.emplace_back(keys, keys + m_genes);
    }
    return out;
}
std::int64_t Engine::evaluations() const { return state().evaluations; }
int Engine::generation() const { return state().generation; }
int Engine::restarts() const { return state().restarts; }
int Engine::stalledGenerations() const { return state().stall; }
double Engine::seconds() const { return state().seconds(); }

bool Engine::budgetSpent() const {
    const State& s = state();
    return s.limits.budget > 0 && s.evaluations >= s.limits.budget;
}

bool Engine::timeUp() const {
    const State& s = state();
    return s.deadlinePassed.load() || (s.timed() && Clock::now() >= s.deadline);
}

bool Engine::cancelled() const { return state().limits.cancel.stop_requested(); }

// ---- run(): the loop over the steps.

/// Records the status, then tests the stop criteria in a fixed order; sets result.stop.
bool Engine::shouldStop(const StopCriteria& stop, const Observer& observer, Result& result) const {
    const Status s = status();
    result.history.push_back(s);
    auto stopOn = [&](StopReason reason) { return result.stop = reason, true; };
    if (cancelled()) return stopOn(StopReason::Cancelled);
    if (bestCost() <= stop.target) return stopOn(StopReason::Target);
    if (observer && observer(s)) return stopOn(StopReason::Observer);
    if (budgetSpent()) return stopOn(StopReason::Budget);
    if (timeUp()) return stopOn(StopReason::TimeLimit);
    if (stop.stallGenerations > 0 && stalledGenerations() >= stop.stallGenerations) return stopOn(StopReason::Stall);
    return false;
}

Result Engine::run(std::uint64_t seed, const StopCriteria& stop, std::span<const Chromosome> warmStart,
                   const Observer& observer, std::stop_token cancel) {
    initialize(seed, warmStart, {.budget = stop.budget, .timeLimit = stop.timeLimit, .cancel = std::move(cancel)});
    return evolveUntilStopped(stop, observer);
}

Result Engine::resume(const Snapshot& from, const StopCriteria& stop, const Observer& observer, std::stop_token cancel) {
    const auto K = static_cast<std::size_t>(m_params.populations), P = static_cast<std::size_t>(m_params.population);
    bool fits = from.keys.size() == K && from.cost.size() == K && from.best.size() == m_genes;
    for (std::size_t k = 0; fits && k < K; ++k) fits = from.keys[k].size() == P * m_genes && from.cost[k].size() == P;
    if (!fits) throw std::invalid_argument("brkga: the snapshot is of another engine shape (genes, population or populations)");
    m_state.reset();
    m_state = std::make_unique<State>(*this, from.seed,
                                      Limits{.budget = stop.budget, .timeLimit = stop.timeLimit, .cancel = std::move(cancel)});
    State& s = *m_state;
    for (std::size_t k = 0; k < K; ++k) {
        s.pops[k].keys = from.keys[k];
        s.pops[k].cost = from.cost[k];
        s.pops[k].sortRanks();
    }
    s.best = from.best;
    s.bestCost = from.bestCost;
    s.evaluations = from.evaluations;
    s.generation = from.generation;
    s.restarts = from.restarts;
    s.stall = from.stall;
    return evolveUntilStopped(stop, observer);
}

Snapshot Engine::snapshot() const {
    const State& s = state();
    Snapshot out{.seed = s.seed, .best = s.best, .bestCost = s.bestCost, .evaluations = s.evaluations,
                 .generation = s.generation, .restarts = s.restarts, .stall = s.stall};
    for (const Population& pop : s.pops) {
        out.keys.push_back(pop.keys);
        out.cost.push_back(pop.cost);
    }
    return out;
}

Result Engine::evolveUntilStopped(const StopCriteria& stop, const Observer& observer) {
    Result result;
    const Params& P = m_params;
    while (!shouldStop(stop, observer, result)) {
        if (P.restartAfterStall > 0 && stalledGenerations() >= P.restartAfterStall)
            restart();
        else
            evolve();
        if (P.populations > 1 && generation() % P.exchangeInterval == 0) exchangeElite();
    }
    result.best = best();
    result.bestCost = bestCost();
    result.evaluations = evaluations();
    result.generations = generation();
    result.restarts = restarts();
    result.seconds = seconds();
    return result;
}

} // namespace sl::brkga

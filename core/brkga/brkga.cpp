// SPDX-License-Identifier: MIT
#include "core/brkga/brkga.h"

#include "core/util/workerpool.h"

#include <algorithm>
#include <atomic>
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

Engine::Engine(std::size_t genes, Decoder decoder, Params params, int threads)
    : m_genes(genes), m_decoder(std::move(decoder)), m_params(params), m_threads(std::max(threads, 1)) {
    if (genes == 0) throw std::invalid_argument("brkga: a chromosome needs at least one gene");
    if (!m_decoder) throw std::invalid_argument("brkga: no decoder");
    m_params.check();
}

Engine::~Engine() = default;

void Engine::setDistributions(Distributions d) {
    if (!d.rho.empty() && d.rho.size() != m_genes)
        throw std::invalid_argument("brkga: per-gene rho needs one value per gene");
    for (double r : d.rho)
        if (!(r >= 0 && r <= 1)) throw std::invalid_argument("brkga: per-gene rho must be in [0, 1]");
    m_dist = std::move(d);
}

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kInf = std::numeric_limits<double>::infinity();

void uniformKeys(std::span<double> keys, Rng& rng) {
    for (double& k : keys) k = rng.uniform();
}

/// One population: keys of `size` chromosomes back to back, their costs and the ranking.
struct Population {
    std::vector<double> keys, nextKeys;
    std::vector<double> cost, nextCost;
    std::vector<int> rank;   ///< rank[r] = slot of the r-th best

    std::span<double> at(std::vector<double>& buf, int slot, std::size_t genes) {
        return {buf.data() + static_cast<std::size_t>(slot) * genes, genes};
    }
    void sortRanks() {
        std::iota(rank.begin(), rank.end(), 0);
        std::stable_sort(rank.begin(), rank.end(), [&](int a, int b) {
            return cost[static_cast<size_t>(a)] < cost[static_cast<size_t>(b)];
        });
    }
};

enum class Kind { Initial, Offspring, Restart };

} // namespace

Result Engine::run(std::uint64_t seed, const StopCriteria& stop, std::span<const Chromosome> warmStart,
                   const Observer& observer, std::stop_token cancel) {
    const Params& P = m_params;
    const std::size_t G = m_genes;
    const int K = P.populations, p = P.population, e = P.elites, m = P.mutants, c = p - e - m;
    for (const Chromosome& w : warmStart)
        if (w.size() != G)
            throw std::invalid_argument("brkga: a warm-start chromosome has " + std::to_string(w.size()) +
                                        " keys, expected " + std::to_string(G));

    const auto start = Clock::now();
    const bool timed = stop.timeLimit > 0;
    const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(stop.timeLimit));
    auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };

    // Crossover thresholds on 32-bit draws: two genes per 64-bit random number.
    std::vector<std::uint64_t> threshold(G);
    for (std::size_t i = 0; i < G; ++i) {
        const double r = m_dist.rho.empty() ? P.rho : m_dist.rho[i];
        threshold[i] = static_cast<std::uint64_t>(std::ldexp(r, 32));
    }
    const auto mutantFn = m_dist.mutant ? m_dist.mutant : std::function<void(std::span<double>, Rng&)>(uniformKeys);
    const auto initialFn = m_dist.initial ? m_dist.initial : mutantFn;

    std::vector<Population> pops(static_cast<size_t>(K));
    for (auto& pop : pops) {
        pop.keys.assign(static_cast<size_t>(p) * G, 0.0);
        pop.nextKeys.assign(static_cast<size_t>(p) * G, 0.0);
        pop.cost.assign(static_cast<size_t>(p), kInf);
        pop.nextCost.assign(static_cast<size_t>(p), kInf);
        pop.rank.resize(static_cast<size_t>(p));
    }

    Result result;
    result.best.assign(G, 0.0);
    int stall = 0;
    bool improved = false;
    WorkerPool pool(m_threads);
    std::atomic<bool> timeUp{false};

    struct Item {
        int pop, slot;
    };
    std::vector<Item> items;
    items.reserve(static_cast<size_t>(K) * static_cast<size_t>(p));
    std::vector<char> decoded(static_cast<size_t>(K) * static_cast<size_t>(p));
    // Warm-start chromosome per (pop, slot), or null.
    auto warmFor = [&](int k, int slot) -> const Chromosome* {
        const auto idx = static_cast<size_t>(slot) * static_cast<size_t>(K) + static_cast<size_t>(k);
        return idx < warmStart.size() ? &warmStart[idx] : nullptr;
    };

    // Builds and decodes every item of `items` (up to the remaining budget) into nextKeys/nextCost.
    auto evaluate = [&](Kind kind, int generation) {
        std::int64_t count = static_cast<std::int64_t>(items.size());
        if (stop.budget > 0) count = std::min(count, std::max<std::int64_t>(stop.budget - result.evaluations, 0));
        std::fill(decoded.begin(), decoded.end(), 0);
        const std::uint64_t genSeed = deriveSeed(seed, static_cast<std::uint64_t>(generation));
        pool.run(static_cast<int>(count), [&](int i, int worker) {
            if (cancel.stop_requested()) return;
            if (timed && (timeUp.load(std::memory_order_relaxed) || Clock::now() >= deadline)) {
                timeUp.store(true, std::memory_order_relaxed);
                return;
            }
            const Item it = items[static_cast<size_t>(i)];
            Population& pop = pops[static_cast<size_t>(it.pop)];
            std::span<double> child = pop.at(pop.nextKeys, it.slot, G);
            Rng rng(deriveSeed(genSeed, static_cast<std::uint64_t>(it.pop) * static_cast<std::uint64_t>(p) +
                                            static_cast<std::uint64_t>(it.slot)));
            if (kind == Kind::Initial) {
                if (const Chromosome* w = warmFor(it.pop, it.slot))
                    for (std::size_t g = 0; g < G; ++g) child[g] = std::clamp((*w)[g], 0.0, 1.0);
                else
                    initialFn(child, rng);
            } else if (kind == Kind::Restart) {
                initialFn(child, rng);
            } else if (it.slot < e + c) {   // child of an elite and a non-elite
                const int a = pop.rank[static_cast<size_t>(rng.integer(0, e - 1))];
                const int b = pop.rank[static_cast<size_t>(rng.integer(e, p - 1))];
                const double* ka = pop.keys.data() + static_cast<size_t>(a) * G;
                const double* kb = pop.keys.data() + static_cast<size_t>(b) * G;
                for (std::size_t g = 0; g < G; g += 2) {
                    const std::uint64_t bits = rng.bits();
                    child[g] = (bits & 0xffffffffu) < threshold[g] ? ka[g] : kb[g];
                    if (g + 1 < G) child[g + 1] = (bits >> 32) < threshold[g + 1] ? ka[g + 1] : kb[g + 1];
                }
            } else {
                mutantFn(child, rng);
            }
            pop.nextCost[static_cast<size_t>(it.slot)] = m_decoder(child, worker);
            decoded[static_cast<size_t>(i)] = 1;
        });
        // Sequential bookkeeping in item order, so ties resolve the same whatever the threads.
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(items.size()); ++i) {
            const Item it = items[static_cast<size_t>(i)];
            Population& pop = pops[static_cast<size_t>(it.pop)];
            double& cost = pop.nextCost[static_cast<size_t>(it.slot)];
            if (!decoded[static_cast<size_t>(i)]) {
                cost = kInf;
                continue;
            }
            ++result.evaluations;
            if (std::isnan(cost)) cost = kInf;
            if (cost < result.bestCost) {
                result.bestCost = cost;
                const auto src = pop.at(pop.nextKeys, it.slot, G);
                std::copy(src.begin(), src.end(), result.best.begin());
                improved = true;
            }
        }
        for (auto& pop : pops) {
            pop.keys.swap(pop.nextKeys);
            pop.cost.swap(pop.nextCost);
            pop.sortRanks();
        }
    };

    auto status = [&](int generation) {
        Status s;
        s.evaluations = result.evaluations;
        s.generation = generation;
        s.best = result.bestCost;
        s.seconds = seconds();
        s.restarts = result.restarts;
        double sum = 0, div = 0;
        std::int64_t finite = 0, samples = 0;
        const std::size_t stride = std::max<std::size_t>(1, G / 256);
        for (auto& pop : pops)
            for (int i = 0; i < p; ++i) {
                const double cst = pop.cost[static_cast<size_t>(i)];
                if (std::isfinite(cst)) {
                    sum += cst;
                    ++finite;
                }
                const double* k = pop.keys.data() + static_cast<size_t>(i) * G;
                for (std::size_t g = 0; g < G; g += stride, ++samples) div += std::abs(k[g] - result.best[g]);
            }
        s.mean = finite ? sum / static_cast<double>(finite) : kInf;
        s.diversity = samples ? div / static_cast<double>(samples) : 0;
        return s;
    };

    // Returns true (and sets result.stop) when the run must end.
    auto shouldStop = [&](int generation) {
        const Status s = status(generation);
        result.history.push_back(s);
        if (cancel.stop_requested()) return result.stop = StopReason::Cancelled, true;
        if (result.bestCost <= stop.target) return result.stop = StopReason::Target, true;
        if (observer && observer(s)) return result.stop = StopReason::Observer, true;
        if (stop.budget > 0 && result.evaluations >= stop.budget) return result.stop = StopReason::Budget, true;
        if (timeUp.load() || (timed && Clock::now() >= deadline)) return result.stop = StopReason::TimeLimit, true;
        if (stop.stallGenerations > 0 && stall >= stop.stallGenerations) return result.stop = StopReason::Stall, true;
        return false;
    };

    // Initial population(s).
    for (int slot = 0; slot < p; ++slot)
        for (int k = 0; k < K; ++k) items.push_back({k, slot});
    evaluate(Kind::Initial, 0);

    int generation = 0;
    while (!shouldStop(generation)) {
        ++generation;
        improved = false;
        const bool restart = P.restartAfterStall > 0 && stall >= P.restartAfterStall;
        items.clear();
        for (int k = 0; k < K; ++k) {
            Population& pop = pops[static_cast<size_t>(k)];
            if (restart) {
                // Keep only the best chromosome ever seen (in population 0); re-sample the rest.
                const int first = k == 0 ? 1 : 0;
                if (k == 0) {
                    std::copy(result.best.begin(), result.best.end(), pop.nextKeys.begin());
                    pop.nextCost[0] = result.bestCost;
                }
                for (int slot = first; slot < p; ++slot) items.push_back({k, slot});
                continue;
            }
            for (int r = 0; r < e; ++r) {   // elites survive unchanged, cost cached
                const int from = pop.rank[static_cast<size_t>(r)];
                const auto src = pop.at(pop.keys, from, G);
                std::copy(src.begin(), src.end(), pop.nextKeys.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(r) * G));
                pop.nextCost[static_cast<size_t>(r)] = pop.cost[static_cast<size_t>(from)];
            }
            for (int slot = e; slot < p; ++slot) items.push_back({k, slot});
        }
        // Items are population-major; keep them so (children before mutants within a population).
        evaluate(restart ? Kind::Restart : Kind::Offspring, generation);
        if (restart) {
            ++result.restarts;
            stall = 0;
        } else {
            stall = improved ? 0 : stall + 1;
        }
        result.generations = generation;

        if (K > 1 && P.exchangeCount > 0 && generation % P.exchangeInterval == 0) {
            // Snapshot every population's best, then overwrite the others' worst.
            std::vector<double> bestKeys(static_cast<size_t>(K * P.exchangeCount) * G);
            std::vector<double> bestCost(static_cast<size_t>(K * P.exchangeCount));
            for (int k = 0; k < K; ++k)
                for (int x = 0; x < P.exchangeCount; ++x) {
                    Population& pop = pops[static_cast<size_t>(k)];
                    const int slot = pop.rank[static_cast<size_t>(x)];
                    const auto src = pop.at(pop.keys, slot, G);
                    const auto idx = static_cast<size_t>(k * P.exchangeCount + x);
                    std::copy(src.begin(), src.end(), bestKeys.begin() + static_cast<std::ptrdiff_t>(idx * G));
                    bestCost[idx] = pop.cost[static_cast<size_t>(slot)];
                }
            for (int k = 0; k < K; ++k) {
                Population& pop = pops[static_cast<size_t>(k)];
                int worst = p - 1;
                for (int j = 0; j < K; ++j) {
                    if (j == k) continue;
                    for (int x = 0; x < P.exchangeCount; ++x, --worst) {
                        const int slot = pop.rank[static_cast<size_t>(worst)];
                        const auto idx = static_cast<size_t>(j * P.exchangeCount + x);
                        std::copy(bestKeys.begin() + static_cast<std::ptrdiff_t>(idx * G),
                                  bestKeys.begin() + static_cast<std::ptrdiff_t>((idx + 1) * G),
                                  pop.keys.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(slot) * G));
                        pop.cost[static_cast<size_t>(slot)] = bestCost[idx];
                    }
                }
                pop.sortRanks();
            }
        }
    }
    result.seconds = seconds();
    return result;
}

} // namespace sl::brkga

// SPDX-License-Identifier: MIT
#include "models/regal/labelreport.h"

#include "core/regal/actions.h"
#include "core/regal/features.h"
#include "core/regal/oracle.h"
#include "core/regal/search.h"
#include "core/util/workerpool.h"
#include "models/regal/imitation.h"
#include "models/train/trainers.h"

#include <torch/torch.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace sl::regal {

namespace {

/// One op of one (entry, seed): what the policy and the population say, judged by the label.
struct OpRecord {
    int devices = 0;
    std::array<float, kNodeWidth> node{};
    bool bestRight = false, policyRight = false;
    bool moved = false;                                    ///< the policy pushes the op off the population best's device
    double policyRankError = 0, populationRankError = 0;   ///< |rank - label's rank| / ops
    double affinityPush = 0;                               ///< the policy's largest affinity mean, log shape units
};

struct EntryRecord {
    int devices = 0;
    double rhoPolicy = 0, rhoPopulation = 0;
    double labelLocal = 0, bestLocal = 0;   ///< share of edges whose ends share a device
};

GraphFeatures featuresAtSteering(const Problem& problem, std::uint64_t seed, int steerAfter) {
    std::optional<GraphFeatures> features;
    SearchRequest r;
    r.seed = seed;
    r.budget = evaluationsThrough(r.params, steerAfter);
    r.steering.afterGeneration = steerAfter;
    r.steering.choose = [&](std::span<const brkga::Chromosome> population) {
        features = computeFeatures(problem, population);
        return brkga::Distributions{};
    };
    search(problem, r);
    if (!features) throw std::logic_error("REGAL label report: the run never reached its steering point");
    return std::move(*features);
}

/// Rank of every op (0 first) when sorted by `key` ascending, ties by op id.
std::vector<int> ranksOf(std::span<const double> key) {
    std::vector<int> order(key.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return key[static_cast<std::size_t>(a)] < key[static_cast<std::size_t>(b)]; });
    std::vector<int> rank(key.size());
    for (std::size_t i = 0; i < order.size(); ++i) rank[static_cast<std::size_t>(order[i])] = static_cast<int>(i);
    return rank;
}

/// Spearman's rho of two rankings of the same ops (permutations of 0..n-1); 1 below two ops.
double spearman(const std::vector<int>& a, const std::vector<int>& b) {
    const double n = static_cast<double>(a.size());
    if (n < 2) return 1;
    double squares = 0;
    for (std::size_t i = 0; i < a.size(); ++i) squares += std::pow(a[i] - b[i], 2);
    return 1 - 6 * squares / (n * (n * n - 1));
}

/// The records of one labelled entry seen at one seed.
void recordEntry(const OracleLabel& label, const GraphFeatures& f, const PolicyOutput& out, std::vector<OpRecord>& ops,
                 std::vector<EntryRecord>& entries) {
    const int d = f.devices, n = f.ops;
    const torch::Tensor affinity = out.affinity.contiguous(), priority = out.priority.contiguous();
    const float* aff = affinity.data_ptr<float>();
    const float* pri = priority.data_ptr<float>();
    std::vector<float> bestOneHot(static_cast<std::size_t>(n * d), 0.0f);
    std::vector<int> bestDevice(static_cast<std::size_t>(n), 0);
    for (int v = 0; v < n; ++v)
        for (int q = 0; q < d; ++q)
            if (f.pairAt(v, q, 1) > 0.5f) {
                bestDevice[static_cast<std::size_t>(v)] = q;
                bestOneHot[static_cast<std::size_t>(v * d + q)] = 1;
            }
    const std::vector<int> perm = closestLabelling(label.placement, bestOneHot, d);
    std::vector<int> labelRank(static_cast<std::size_t>(n));
    const std::vector<OpId> order = orderOf(label);
    for (std::size_t r = 0; r < order.size(); ++r) labelRank[static_cast<std::size_t>(order[r])] = static_cast<int>(r);
    std::vector<double> policyKey(static_cast<std::size_t>(n)), populationKey(static_cast<std::size_t>(n));
    for (int v = 0; v < n; ++v) {
        policyKey[static_cast<std::size_t>(v)] = -pri[v];   // the decoder runs the highest priority first
        populationKey[static_cast<std::size_t>(v)] = f.at(v, 6);
    }
    const std::vector<int> policyRank = ranksOf(policyKey), populationRank = ranksOf(populationKey);
    entries.push_back({d, spearman(policyRank, labelRank), spearman(populationRank, labelRank),
                       edgesKept(label.placement, f.edgeSource, f.edgeTarget), edgesKept(bestDevice, f.edgeSource, f.edgeTarget)});
    for (int v = 0; v < n; ++v) {
        const auto vi = static_cast<std::size_t>(v);
        const float* row = aff + static_cast<std::ptrdiff_t>(v) * d;
        const int pushedTo = static_cast<int>(std::max_element(row, row + d) - row);
        // a mean that rounds to shift 0 leaves the keys Uniform: the op stays where the population has it
        const bool pushes = row[pushedTo] >= kShiftStep / 2;
        const int policyDevice = pushes ? pushedTo : bestDevice[vi];
        const int oracleDevice = perm[static_cast<std::size_t>(label.placement[vi])];
        OpRecord r;
        r.devices = d;
        for (int c = 0; c < kNodeWidth; ++c) r.node[static_cast<std::size_t>(c)] = f.at(v, c);
        r.bestRight = bestDevice[vi] == oracleDevice;
        r.policyRight = policyDevice == oracleDevice;
        r.affinityPush = row[pushedTo];
        r.moved = policyDevice != bestDevice[vi];
        r.policyRankError = std::abs(policyRank[vi] - labelRank[vi]) / static_cast<double>(n);
        r.populationRankError = std::abs(populationRank[vi] - labelRank[vi]) / static_cast<double>(n);
        ops.push_back(r);
    }
}

struct Tally {
    long opCount = 0, bestRight = 0, policyRight = 0, moved = 0, movedRight = 0, movedFromRight = 0;
    double policyRankError = 0, populationRankError = 0, push = 0;
    void add(const OpRecord& r) {
        ++opCount;
        bestRight += r.bestRight;
        policyRight += r.policyRight;
        moved += r.moved;
        movedRight += r.moved && r.policyRight;
        movedFromRight += r.moved && r.bestRight;
        policyRankError += r.policyRankError;
        populationRankError += r.populationRankError;
        push += r.affinityPush;
    }
    static double pct(long a, long b) { return b > 0 ? 100.0 * static_cast<double>(a) / static_cast<double>(b) : 0.0; }
    std::string columns() const {
        const double n = static_cast<double>(std::max(1L, opCount));
        return models::formatText("%7ld | %10.1f %% | %12.1f %% | %5.1f %% | %17.1f %% | %17.1f %% | %15.3f | %19.3f | %4.2f", opCount,
                                  pct(bestRight, opCount), pct(policyRight, opCount), pct(moved, opCount), pct(movedRight, moved),
                                  pct(movedFromRight, moved), policyRankError / n, populationRankError / n, push / n);
    }
};

const char* const kTallyHeader =
    "    ops | best = label | policy = label |   moved | moved, label agrees | moved off the label | rank err policy | rank err population | push";

void printByDevices(const std::vector<OpRecord>& ops, const std::vector<EntryRecord>& entries,
                    const std::function<void(const std::string&)>& print) {
    std::map<int, Tally> byDevices;
    std::map<int, std::array<double, 5>> rho;   // entries, sums of rho policy, rho population, label and best locality
    for (const OpRecord& r : ops) byDevices[r.devices].add(r);
    for (const EntryRecord& e : entries) {
        auto& s = rho[e.devices];
        s[0] += 1;
        s[1] += e.rhoPolicy;
        s[2] += e.rhoPopulation;
        s[3] += e.labelLocal;
        s[4] += e.bestLocal;
    }
    print("");
    print(models::formatText("| devices | runs | %s | rho policy | rho population | edges kept: label | edges kept: best |", kTallyHeader));
    for (const auto& [d, t] : byDevices) {
        const auto& s = rho[d];
        print(models::formatText("| %7d | %4.0f | %s | %10.3f | %14.3f | %15.1f %% | %14.1f %% |", d, s[0], t.columns().c_str(),
                                 s[1] / s[0], s[2] / s[0], 100 * s[3] / s[0], 100 * s[4] / s[0]));
    }
}

void printByFeature(const std::vector<OpRecord>& ops, int column, const std::string& name,
                    const std::function<void(const std::string&)>& print) {
    std::vector<float> values;
    for (const OpRecord& r : ops) values.push_back(r.node[static_cast<std::size_t>(column)]);
    std::sort(values.begin(), values.end());
    std::array<float, 5> edge{};
    for (int k = 0; k <= 4; ++k)
        edge[static_cast<std::size_t>(k)] = values[std::min(values.size() - 1, values.size() * static_cast<std::size_t>(k) / 4)];
    std::array<Tally, 4> bins;
    for (const OpRecord& r : ops) {
        int k = 0;
        while (k < 3 && r.node[static_cast<std::size_t>(column)] >= edge[static_cast<std::size_t>(k + 1)]) ++k;
        bins[static_cast<std::size_t>(k)].add(r);
    }
    for (int k = 0; k < 4; ++k) {
        if (bins[static_cast<std::size_t>(k)].opCount == 0) continue;
        print(models::formatText("| %-22s | %5.3f-%5.3f | %s |", k == 0 ? name.c_str() : "", edge[static_cast<std::size_t>(k)],
                                 edge[static_cast<std::size_t>(k + 1)], bins[static_cast<std::size_t>(k)].columns().c_str()));
    }
}

/// % better than plain BRKGA at the same seed and budget, per run: the label itself, REGAL's run
/// steered toward the label (both key types, placement only, order only), plain BRKGA at another seed.
struct OracleParts {
    int devices = 0;
    double label = 0, both = 0, placement = 0, order = 0, otherSeed = 0;
};

OracleParts oracleParts(const OracleLabel& l, std::uint64_t seed, const LabelReportConfig& c) {
    SearchRequest r;
    r.seed = seed;
    r.budget = c.budget;
    const double plain = search(l.problem, r).result.bestCost;
    const auto better = [&](double cost) { return 100 * (plain - cost) / plain; };
    const OracleGuide label{l.placement, orderOf(l), l.cost};
    const auto steered = [&](LearnedKeys keys) { return better(steeredToward(l.problem, label, c.budget, seed, c.steerAfter, keys)); };
    OracleParts o;
    o.devices = l.spec.devices;
    o.label = better(l.cost);
    o.both = steered({});
    o.placement = steered({.placement = true, .scheduling = false});
    o.order = steered({.placement = false, .scheduling = true});
    r.seed = seed + 1000;
    o.otherSeed = better(search(l.problem, r).result.bestCost);
    return o;
}

void printOracleParts(const std::vector<OracleParts>& runs, const std::function<void(const std::string&)>& print) {
    std::map<int, std::vector<const OracleParts*>> byDevices;
    for (const OracleParts& o : runs) byDevices[o.devices].push_back(&o);
    print("");
    print(
        "| devices | runs | label (long run) |  oracle | oracle, placement only | oracle, order only | plain, another seed: mean | mean |x| |");
    for (const auto& [d, list] : byDevices) {
        std::array<double, 6> sum{};
        for (const OracleParts* o : list) {
            const std::array<double, 6> x{o->label, o->both, o->placement, o->order, o->otherSeed, std::abs(o->otherSeed)};
            for (std::size_t k = 0; k < x.size(); ++k) sum[k] += x[k] / static_cast<double>(list.size());
        }
        print(models::formatText("| %7d | %4zu | %+14.2f %% | %+5.2f %% | %+20.2f %% | %+16.2f %% | %+23.2f %% | %6.2f %% |", d,
                                 list.size(), sum[0], sum[1], sum[2], sum[3], sum[4], sum[5]));
    }
}

} // namespace

double rankCorrelation(std::span<const double> a, std::span<const double> b) {
    if (a.size() != b.size()) throw std::invalid_argument("rankCorrelation: two orders of the same ops");
    return spearman(ranksOf(a), ranksOf(b));   // no ties: ties are broken by op id
}

double edgesKept(std::span<const int> placement, std::span<const std::int32_t> source, std::span<const std::int32_t> target) {
    if (source.empty()) return 1;
    double kept = 0;
    for (std::size_t e = 0; e < source.size(); ++e)
        kept += placement[static_cast<std::size_t>(source[e])] == placement[static_cast<std::size_t>(target[e])];
    return kept / static_cast<double>(source.size());
}

void printLabelReport(RegalPolicy& policy, const OracleLabelSet& labels, const LabelReportConfig& config,
                      const std::function<void(const std::string&)>& print) {
    std::vector<const OracleLabel*> chosen;
    for (const OracleLabel& l : config.validationEntries ? labels.validation : labels.train)
        if (l.spec.objective == config.objective) chosen.push_back(&l);
    if (chosen.empty()) throw std::invalid_argument("REGAL label report: no entry of the " + toString(config.objective) + " objective");
    const int seeds = std::max(1, config.seeds);
    std::vector<GraphFeatures> features(chosen.size() * static_cast<std::size_t>(seeds));
    WorkerPool pool(std::max(1, config.threads));
    pool.run(static_cast<int>(features.size()), [&](int i, int) {
        const OracleLabel& l = *chosen[static_cast<std::size_t>(i / seeds)];
        features[static_cast<std::size_t>(i)] = featuresAtSteering(l.problem, static_cast<std::uint64_t>(1 + i % seeds), config.steerAfter);
    });
    std::vector<OpRecord> ops;
    std::vector<EntryRecord> entries;
    torch::NoGradGuard noGrad;
    for (std::size_t i = 0; i < features.size(); ++i) {
        const PolicyOutput out = policy->forward(makeBatch({&features[i]}));
        recordEntry(*chosen[i / static_cast<std::size_t>(seeds)], features[i], out, ops, entries);
    }
    print(models::formatText("REGAL's policy against the label set's %s entries of the %s objective: %zu entries x %d seed(s) (BRKGA "
                             "after %d plain generations, as the policy reads it).",
                             config.validationEntries ? "validation" : "training", toString(config.objective).c_str(), chosen.size(), seeds,
                             config.steerAfter));
    print(
        "best: the population best's device; policy: the device its largest affinity mean pushes the op toward (the best's "
        "where no mean rounds to a shift); both judged under the device labelling closest to the population best. moved: the policy pushes an op (mean >= 1/8) off the best's device; rank err: |rank - label's rank| / ops "
        "(policy: priority means; population: mean positions); push: the mean largest affinity mean, log shape units; edges kept: "
        "the share of data edges whose two ops share a device.");
    printByDevices(ops, entries, print);
    print("");
    print(models::formatText("| feature                | quartile    | %s |", kTallyHeader));
    printByFeature(ops, 8, "placement agreement", print);
    printByFeature(ops, 4, "depth", print);
    printByFeature(ops, 9, "memory pressure", print);
    printByFeature(ops, 1, "output bytes", print);
    printByFeature(ops, 6, "mean position", print);

    std::vector<OracleParts> parts(features.size());
    pool.run(static_cast<int>(parts.size()), [&](int i, int) {
        parts[static_cast<std::size_t>(i)] =
            oracleParts(*chosen[static_cast<std::size_t>(i / seeds)], static_cast<std::uint64_t>(1 + i % seeds), config);
    });
    print("");
    print(models::formatText(
        "Where the oracle's gain comes from: %% better than plain BRKGA at the same seed and %lld evaluations, per run; the "
        "oracle is REGAL's run steered toward the label (core/regal/oracle.h) after %d plain generations.",
        static_cast<long long>(config.budget), config.steerAfter));
    printOracleParts(parts, print);
}

} // namespace sl::regal

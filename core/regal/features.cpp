// SPDX-License-Identifier: MIT
#include "core/regal/features.h"

#include "core/brkga/regaldecoder.h"
#include "core/regal/search.h"

#include <algorithm>

namespace sl::regal {

namespace {

/// Columns 0-3 and the edges; returns nothing, fills `f`.
void addStaticFeatures(const Graph& g, GraphFeatures& f) {
    const int n = g.opCount();
    std::vector<double> in(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
    double largest = 0, longest = 0;
    for (const Tensor& t : g.tensors()) largest = std::max(largest, t.bytes);
    for (OpId v = 0; v < n; ++v) {
        for (TensorId t : g.inputs(v)) in[static_cast<std::size_t>(v)] += g.tensor(t).bytes;
        for (TensorId t : g.outputs(v)) out[static_cast<std::size_t>(v)] += g.tensor(t).bytes;
        largest = std::max({largest, in[static_cast<std::size_t>(v)], out[static_cast<std::size_t>(v)], g.op(v).paramBytes});
        longest = std::max(longest, g.op(v).duration);
    }
    const auto scaled = [](double x, double by) { return by > 0 ? static_cast<float>(x / by) : 0.0f; };
    for (OpId v = 0; v < n; ++v) {
        const std::size_t row = static_cast<std::size_t>(v) * static_cast<std::size_t>(f.width);
        f.node[row + 0] = scaled(in[static_cast<std::size_t>(v)], largest);
        f.node[row + 1] = scaled(out[static_cast<std::size_t>(v)], largest);
        f.node[row + 2] = scaled(g.op(v).paramBytes, largest);
        f.node[row + 3] = scaled(g.op(v).duration, longest);
    }
    for (TensorId t = 0; t < g.tensorCount(); ++t)
        for (OpId c : g.tensor(t).consumers) {
            f.edgeSource.push_back(g.tensor(t).producer);
            f.edgeTarget.push_back(c);
            f.edgeSize.push_back(scaled(g.tensor(t).bytes, largest));
        }
}

/// Columns 4 .. 4+d: placement shares and mean schedule position over `population`.
void addPopulationStatistics(RegalDecoder& decoder, const std::vector<brkga::Chromosome>& population, GraphFeatures& f) {
    if (population.empty()) return;
    const double share = 1.0 / static_cast<double>(population.size());
    std::vector<double> sums(f.node.size(), 0.0);
    for (const brkga::Chromosome& keys : population) {
        decoder.decode(keys);
        const auto placement = decoder.placement();
        const auto sequence = decoder.sequence();
        const double steps = static_cast<double>(sequence.size());
        for (std::size_t pos = 0; pos < sequence.size(); ++pos) {
            const int node = sequence[pos];
            if (node >= f.ops) continue;   // a transfer
            const std::size_t row = static_cast<std::size_t>(node) * static_cast<std::size_t>(f.width);
            sums[row + 4 + static_cast<std::size_t>(placement[static_cast<std::size_t>(node)])] += share;
            sums[row + 4 + static_cast<std::size_t>(f.devices)] += share * static_cast<double>(pos + 1) / steps;
        }
    }
    for (std::size_t i = 0; i < sums.size(); ++i)
        if (i % static_cast<std::size_t>(f.width) >= 4) f.node[i] += static_cast<float>(sums[i]);
}

} // namespace

std::vector<std::string> featureColumns(int devices) {
    std::vector<std::string> c = {"input_bytes", "output_bytes", "parameter_bytes", "duration"};
    for (int q = 0; q < devices; ++q) c.push_back("placed_on_" + std::to_string(q));
    c.push_back("mean_position");
    c.push_back("symmetry_op");
    return c;
}

GraphFeatures computeFeatures(const Problem& problem, const FeatureConfig& config, std::stop_token stop,
                              const brkga::Observer& observer) {
    problem.check();
    const Graph& g = problem.g();
    GraphFeatures f;
    f.ops = g.opCount();
    f.devices = problem.platform.deviceCount();
    f.width = GraphFeatures::widthFor(f.devices);
    f.node.assign(static_cast<std::size_t>(f.ops) * static_cast<std::size_t>(f.width), 0.0f);
    addStaticFeatures(g, f);

    SearchRequest run;
    run.budget = config.budget;
    run.seed = config.seed;
    run.threads = config.threads;
    run.symmetry = config.symmetry;
    run.keepPopulation = run.params.population;
    SearchOutcome outcome = search(problem, run, observer, std::move(stop));
    RegalDecoder decoder(problem, config.symmetry);
    addPopulationStatistics(decoder, outcome.population, f);

    const OpId fixed = decoder.symmetryOp();
    if (fixed != kNoOp) f.node[static_cast<std::size_t>(fixed) * static_cast<std::size_t>(f.width) + 5 + static_cast<std::size_t>(f.devices)] = 1;
    const auto eliteCount = std::min(outcome.population.size(), static_cast<std::size_t>(run.params.elites));
    f.elites.assign(outcome.population.begin(), outcome.population.begin() + static_cast<std::ptrdiff_t>(eliteCount));
    f.bestKeys = std::move(outcome.result.best);
    f.bestCost = outcome.result.bestCost;
    f.evaluations = outcome.result.evaluations;
    return f;
}

} // namespace sl::regal

// SPDX-License-Identifier: MIT
#include "core/regal/features.h"

#include "core/brkga/regaldecoder.h"
#include "core/costmodel/memorytimeline.h"

#include <algorithm>
#include <stdexcept>

namespace sl::regal {

namespace {

float scaled(double x, double by) { return by > 0 ? static_cast<float>(x / by) : 0.0f; }

float& cell(GraphFeatures& f, OpId v, int column) {
    return f.node[static_cast<std::size_t>(v) * kNodeWidth + static_cast<std::size_t>(column)];
}

float& pairCell(GraphFeatures& f, OpId v, int device, int column) {
    return f.pair[(static_cast<std::size_t>(v) * static_cast<std::size_t>(f.devices) + static_cast<std::size_t>(device)) * kPairWidth +
                  static_cast<std::size_t>(column)];
}

/// Columns 0-3 and the edges.
void addSizes(const Graph& g, GraphFeatures& f) {
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
    for (OpId v = 0; v < n; ++v) {
        cell(f, v, 0) = scaled(in[static_cast<std::size_t>(v)], largest);
        cell(f, v, 1) = scaled(out[static_cast<std::size_t>(v)], largest);
        cell(f, v, 2) = scaled(g.op(v).paramBytes, largest);
        cell(f, v, 3) = scaled(g.op(v).duration, longest);
    }
    for (TensorId t = 0; t < g.tensorCount(); ++t)
        for (OpId c : g.tensor(t).consumers) {
            f.edgeSource.push_back(g.tensor(t).producer);
            f.edgeTarget.push_back(c);
            f.edgeSize.push_back(scaled(g.tensor(t).bytes, largest));
        }
}

/// Columns 4 and 5: where the op sits between the sources and the sinks.
void addDepthAndHeight(const Graph& g, GraphFeatures& f) {
    const auto n = static_cast<std::size_t>(g.opCount());
    std::vector<int> depth(n, 0), height(n, 0);
    const auto& topo = g.topologicalOrder();
    for (OpId v : topo)
        for (OpId s : g.successors(v)) depth[static_cast<std::size_t>(s)] = std::max(depth[static_cast<std::size_t>(s)], depth[static_cast<std::size_t>(v)] + 1);
    for (auto it = topo.rbegin(); it != topo.rend(); ++it)
        for (OpId s : g.successors(*it))
            height[static_cast<std::size_t>(*it)] = std::max(height[static_cast<std::size_t>(*it)], height[static_cast<std::size_t>(s)] + 1);
    const int longest = std::max(1, *std::max_element(depth.begin(), depth.end()));
    for (OpId v = 0; v < static_cast<OpId>(n); ++v) {
        cell(f, v, 4) = static_cast<float>(depth[static_cast<std::size_t>(v)]) / static_cast<float>(longest);
        cell(f, v, 5) = static_cast<float>(height[static_cast<std::size_t>(v)]) / static_cast<float>(longest);
    }
}

/// Column 6 and pair column 0: where the population places and orders each op.
void addPopulationStatistics(RegalDecoder& decoder, std::span<const brkga::Chromosome> population, GraphFeatures& f) {
    const double share = 1.0 / static_cast<double>(population.size());
    std::vector<double> position(static_cast<std::size_t>(f.ops), 0.0), placed(f.pair.size() / kPairWidth, 0.0);
    for (const brkga::Chromosome& keys : population) {
        decoder.decode(keys);
        const auto placement = decoder.placement();
        const auto sequence = decoder.sequence();
        const double steps = static_cast<double>(sequence.size());
        for (std::size_t pos = 0; pos < sequence.size(); ++pos) {
            const int v = sequence[pos];
            if (v >= f.ops) continue;   // a transfer
            position[static_cast<std::size_t>(v)] += share * static_cast<double>(pos + 1) / steps;
            placed[static_cast<std::size_t>(v) * static_cast<std::size_t>(f.devices) + static_cast<std::size_t>(placement[static_cast<std::size_t>(v)])] += share;
        }
    }
    for (OpId v = 0; v < f.ops; ++v) {
        cell(f, v, 6) = static_cast<float>(position[static_cast<std::size_t>(v)]);
        for (int q = 0; q < f.devices; ++q)
            pairCell(f, v, q, 0) = static_cast<float>(placed[static_cast<std::size_t>(v) * static_cast<std::size_t>(f.devices) + static_cast<std::size_t>(q)]);
    }
}

/// Columns 8 and 9 and pair column 1: the best chromosome's placement and memory over its schedule.
void addBestSchedule(const Problem& problem, RegalDecoder& decoder, const brkga::Chromosome& best, GraphFeatures& f) {
    const Schedule s = decoder.schedule(best);
    const MemoryTimeline timeline = computeMemoryTimeline(problem, s);
    for (OpId v = 0; v < f.ops; ++v) {
        const ScheduledOp& op = s.ops[static_cast<std::size_t>(v)];
        pairCell(f, v, op.device, 1) = 1;
        cell(f, v, 8) = pairCell(f, v, op.device, 0);
        const auto& curve = timeline.curves[static_cast<std::size_t>(op.device)];
        const auto at = std::upper_bound(curve.begin(), curve.end(), op.start, [](double t, const MemoryPoint& p) { return t < p.time; });
        const double inUse = at == curve.begin() ? 0 : std::prev(at)->bytes;
        cell(f, v, 9) = scaled(inUse, timeline.peak);
    }
}

} // namespace

std::vector<std::string> featureColumns() {
    return {"input_bytes", "output_bytes", "parameter_bytes", "duration", "depth", "height", "mean_position", "symmetry_op",
            "placement_agreement", "memory_pressure", "pair:placed_share", "pair:best_places"};
}

GraphFeatures computeFeatures(const Problem& problem, std::span<const brkga::Chromosome> population, bool symmetry,
                              PlacementRule placement) {
    problem.check();
    if (population.empty()) throw std::invalid_argument("REGAL features: an empty population");
    const Graph& g = problem.g();
    GraphFeatures f;
    f.ops = g.opCount();
    f.devices = problem.platform.deviceCount();
    f.node.assign(static_cast<std::size_t>(f.ops) * kNodeWidth, 0.0f);
    f.pair.assign(static_cast<std::size_t>(f.ops) * static_cast<std::size_t>(f.devices) * kPairWidth, 0.0f);
    addSizes(g, f);
    addDepthAndHeight(g, f);
    RegalDecoder decoder(problem, symmetry, placement);
    addPopulationStatistics(decoder, population, f);
    addBestSchedule(problem, decoder, population.front(), f);
    if (decoder.symmetryOp() != kNoOp) cell(f, decoder.symmetryOp(), 7) = 1;
    return f;
}

} // namespace sl::regal

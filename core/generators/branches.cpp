// SPDX-License-Identifier: MIT
// The "branches" family: forward graphs whose peak memory depends on the order (issue 62; the
// regime of Paliwal et al. 2020, where REGAL's gain was the schedule's order, its Table 3). A
// chain of blocks; each block fans its input out to 2-8 branches, each of which expands it (x2 to
// x4, an inverted bottleneck or an attention head's scores), works on the expanded tensor, then
// reduces it to a share of the block's width; a join concatenates the shares. Run branch by
// branch, one expanded tensor is live at a time; interleaved, all of them are. Weights are small
// (paramBytes, 1/128 of the width, resident from the start); every tensor's size carries per-graph noise x U(0.5, 1.5)
// (Paliwal et al., App. A.1). Durations are a roofline on the bytes moved, in microseconds.
#include "core/generators/generators.h"

#include "core/util/random.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace sl {
namespace {

constexpr double kBranchMiB = 1024.0 * 1024.0;
constexpr double kRooflineBytesPerMicrosecond = 1e5;   // as the nn family's roofline

class BranchBuilder {
public:
    BranchBuilder(int nodes, std::uint64_t seed) : m_nodes(nodes), m_rng(seed) {}

    GeneratedInstance build() {
        m_width = kBranchMiB * static_cast<double>(1 << m_rng.integer(2, 5));   // 4-32 MiB activations
        TensorId x = emit("Input", {}, m_width);
        while (m_g->opCount() < m_nodes - 1) x = block(x, m_nodes - 1 - m_g->opCount());
        emit("Output", {x}, m_width / 16);
        m_g->setTimeUnit(TimeUnit::Microseconds);
        m_g->finalize();
        return {m_g, Platform::identical(1)};
    }

private:
    /// One op reading `in`, writing one tensor of about `bytes` (times the size noise).
    TensorId emit(const std::string& type, const std::vector<TensorId>& in, double bytes) {
        const double out = std::round(bytes * m_rng.uniform(0.5, 1.5));   // whole bytes
        double moved = out;
        for (TensorId t : in) moved += m_g->tensor(t).bytes;
        const OpId v = m_g->addOp({.name = "b" + std::to_string(m_block) + "." + type + std::to_string(m_g->opCount()),
                                   .type = type,
                                   .duration = moved / kRooflineBytesPerMicrosecond,
                                   .paramBytes = type == "Input" || type == "Concat" ? 0 : m_width / 128});
        for (TensorId t : in) m_g->addConsumer(t, v);
        return m_g->addTensor(m_g->op(v).name + ":0", v, out);
    }

    /// A block of at most `left` ops: branches of expand, 0-2 ops on the expanded tensor, reduce;
    /// then a join. A one-op filler when no block fits.
    TensorId block(TensorId x, int left) {
        ++m_block;
        const int branches = static_cast<int>(m_rng.integer(2, 8));
        std::vector<int> inner;
        int ops = 1;
        for (int b = 0; b < branches; ++b) {
            inner.push_back(static_cast<int>(m_rng.integer(0, 2)));
            ops += 2 + inner.back();
        }
        if (ops > left) return emit("Relu", {x}, m_width);
        std::vector<TensorId> shares;
        for (int b = 0; b < branches; ++b) {
            const double expanded = m_width * m_rng.uniform(2.0, 4.0);
            TensorId t = emit("Expand", {x}, expanded);
            for (int k = 0; k < inner[static_cast<size_t>(b)]; ++k)
                t = emit(k == 0 ? "Gelu" : "Softmax", {t}, expanded);
            shares.push_back(emit("Reduce", {t}, m_width / branches));
        }
        return emit("Concat", shares, m_width);
    }

    int m_nodes;
    Rng m_rng;
    std::shared_ptr<Graph> m_g = std::make_shared<Graph>();
    double m_width = 0;
    int m_block = 0;
};

}   // namespace

GeneratedInstance generateBranches(int nodes, std::uint64_t seed) {
    if (nodes < 2 || nodes > 100'000)
        throw std::invalid_argument("--nodes must be between 2 and 100000 for branches, got " + std::to_string(nodes));
    return BranchBuilder(nodes, seed).build();
}

}   // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Each tensor's distinct consumers, ascending, as one flat list: what REGAL's decoder and its
/// balanced placement walk when an op's outputs are made (an op reading a tensor twice counts once).

#include "core/graph/graph.h"

#include <algorithm>
#include <vector>

namespace sl {

struct DistinctConsumers {
    std::vector<int> start;   ///< per tensor, and one past the last: tensor t's at ops[start[t], start[t + 1])
    std::vector<OpId> ops;

    explicit DistinctConsumers(const Graph& g) : start(static_cast<size_t>(g.tensorCount()) + 1, 0) {
        for (TensorId t = 0; t < g.tensorCount(); ++t) {
            std::vector<OpId> c = g.tensor(t).consumers;
            std::sort(c.begin(), c.end());
            c.erase(std::unique(c.begin(), c.end()), c.end());
            ops.insert(ops.end(), c.begin(), c.end());
            start[static_cast<size_t>(t) + 1] = static_cast<int>(ops.size());
        }
    }
};

}   // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
// One block of the branches family, small enough to work by hand: an input of 2 bytes, two
// branches expanding it to 8 and 6 bytes and reducing each to a share of 1, a 2-byte join and a
// 1-byte output. Ops in this order: in, e1, r1, e2, r2, cat, out. Branch by branch the peak is
// 2 + 8 + 1 = 11 (the minimum over every order); both expands first, 2 + 8 + 6 = 16.
#include "core/graph/graph.h"

#include <memory>
#include <string>
#include <vector>

namespace sl::test {

inline std::shared_ptr<Graph> handBranchBlock() {
    auto g = std::make_shared<Graph>();
    const auto op = [&g](const char* name, std::vector<TensorId> in, double bytes) {
        const OpId v = g->addOp({.name = name, .type = name, .duration = 1});
        for (TensorId t : in) g->addConsumer(t, v);
        return g->addTensor(std::string(name) + ":0", v, bytes);
    };
    const TensorId x = op("in", {}, 2);
    const TensorId r1 = op("r1", {op("e1", {x}, 8)}, 1);
    const TensorId r2 = op("r2", {op("e2", {x}, 6)}, 1);
    op("out", {op("cat", {r1, r2}, 2)}, 1);
    g->finalize();
    return g;
}

}   // namespace sl::test

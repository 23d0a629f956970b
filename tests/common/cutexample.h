// SPDX-License-Identifier: MIT
#pragma once
// The peak-memory cut bound's hand-checked graph (core/analysis/bounds.h), shared by the bound's
// tests and the explorer's: a, b, c (ops 0-2) make A, B, C (4 bytes each); m (op 3) reads A, waits
// for b and c (zero-byte edges) and makes M (1 byte); x, y, z (ops 4-6) read A, B, C with M. At m's
// step A, B, C and M are all resident: 13 bytes, so one device holds 13 (every order's peak: the
// optimum) and two hold at least 6.5; the largest single-op footprint is 5.

#include "core/graph/graph.h"

#include <utility>

namespace sl::reference {

inline Graph cutExampleGraph() {
    Graph g;
    const OpId a = g.addOp({.name = "a"}), b = g.addOp({.name = "b"}), c = g.addOp({.name = "c"});
    const OpId m = g.addOp({.name = "m"});
    const OpId x = g.addOp({.name = "x"}), y = g.addOp({.name = "y"}), z = g.addOp({.name = "z"});
    const TensorId A = g.addTensor("A", a, 4), B = g.addTensor("B", b, 4), C = g.addTensor("C", c, 4);
    const TensorId M = g.addTensor("M", m, 1);
    g.addConsumer(A, m);
    g.addEdge(b, m);
    g.addEdge(c, m);
    for (const auto& [reader, input] : {std::pair{x, A}, std::pair{y, B}, std::pair{z, C}}) {
        g.addConsumer(input, reader);
        g.addConsumer(M, reader);
    }
    g.finalize();
    return g;
}

} // namespace sl::reference

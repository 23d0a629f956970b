// SPDX-License-Identifier: MIT
#pragma once
// The GFlowNet worked example of docs/costmodel.md ("Worked examples"; built on Zhang et al. 2023,
// §2.2, Eqs. 1-3), shared by the tests of the target models and of the candidate protocol: rho =
// (2, 1, 3, 1) for ops o1-o4 (ids 0-3), edges 1 -> 3, 2 -> 3, 2 -> 4, two devices. o1 sends 3 bytes
// to o3; o2 sends one 1-byte tensor to o3 and o4 (the mean positive tensor size is 2, so one memory
// unit of the target models is 4 bytes).

#include "core/costmodel/problem.h"

#include <memory>
#include <string>

namespace sl::reference {

inline Problem gflownetWorkedExample() {
    auto g = std::make_shared<Graph>();
    const double rho[] = {2, 1, 3, 1};
    for (int i = 0; i < 4; ++i) g->addOp({.name = "o" + std::to_string(i + 1), .duration = rho[i]});
    g->addEdge(0, 2, 3);
    const TensorId t2 = g->addTensor("t2", 1, 1);
    g->addConsumer(t2, 2);
    g->addConsumer(t2, 3);
    g->finalize();
    return {g, Platform::identical(2), {}};
}

} // namespace sl::reference

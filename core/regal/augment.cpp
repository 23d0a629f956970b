// SPDX-License-Identifier: MIT
#include "core/regal/augment.h"

#include "core/util/random.h"

#include <cmath>
#include <stdexcept>

namespace sl::regal {

Graph perturbTensorSizes(const Graph& g, std::uint64_t seed, double lo, double hi) {
    if (!(lo > 0 && hi >= lo)) throw std::invalid_argument("tensor-size noise needs 0 < lo <= hi");
    Rng rng(seed);
    Graph out;
    for (const Op& op : g.ops()) out.addOp(op);
    for (const Tensor& t : g.tensors()) {
        const double factor = lo + (hi - lo) * rng.uniform();
        const TensorId id = out.addTensor(t.name, t.producer, std::round(t.bytes * factor));
        for (OpId c : t.consumers) out.addConsumer(id, c);
    }
    out.finalize();
    return out;
}

} // namespace sl::regal

// SPDX-License-Identifier: MIT
#include "core/exact/chainsfromstarts.h"

#include <algorithm>
#include <tuple>

namespace sl {

DeviceChains chainsFromStarts(const Graph& g, const CpInstance& in, int deviceCount, const std::vector<int>& starts) {
    // Equal starts happen along zero-length chains: the topological position keeps them in order.
    std::vector<int> position(static_cast<size_t>(g.opCount()));
    for (size_t i = 0; i < g.topologicalOrder().size(); ++i) position[static_cast<size_t>(g.topologicalOrder()[i])] = static_cast<int>(i);
    DeviceChains chains(static_cast<size_t>(deviceCount));
    for (const CpInstance::Pool& pool : in.pools) {
        std::vector<OpId> ops = pool.ops;
        std::sort(ops.begin(), ops.end(), [&](OpId a, OpId b) {
            const auto key = [&](OpId v) {
                return std::tuple(starts[static_cast<size_t>(v)], in.duration[static_cast<size_t>(v)], position[static_cast<size_t>(v)]);
            };
            return key(a) < key(b);
        });
        std::vector<long long> freeAt(pool.devices.size(), 0);
        for (OpId v : ops) {
            const int start = starts[static_cast<size_t>(v)];
            size_t pick = 0;
            for (size_t d = 1; d < freeAt.size(); ++d) {
                const bool fits = freeAt[d] <= start, pickFits = freeAt[pick] <= start;
                if (fits != pickFits ? fits : fits ? freeAt[d] > freeAt[pick] : freeAt[d] < freeAt[pick]) pick = d;
            }
            freeAt[pick] = std::max<long long>(freeAt[pick], start) + in.duration[static_cast<size_t>(v)];
            chains[static_cast<size_t>(pool.devices[pick])].push_back(v);
        }
    }
    return chains;
}

} // namespace sl

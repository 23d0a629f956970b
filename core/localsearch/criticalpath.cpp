// SPDX-License-Identifier: MIT
#include "core/localsearch/criticalpath.h"

#include <algorithm>

namespace sl {

void criticalPath(const ChainSchedule& s, CriticalPath& out) {
    out.ops.clear();
    out.blocks.clear();
    if (s.opCount() == 0) return;
    OpId v = 0;
    for (OpId w = 1; w < s.opCount(); ++w)
        if (s.end(w) > s.end(v)) v = w;
    // Walk back along tight edges; `onChain` marks that ops[i] reached ops[i - 1] by a chain edge.
    std::vector<char> onChain;
    while (true) {
        out.ops.push_back(v);
        const double start = s.start(v);
        const OpId prev = s.previous(v);
        if (prev != kNoOp && s.end(prev) == start) {
            onChain.push_back(1);
            v = prev;
            continue;
        }
        OpId tight = kNoOp;
        for (const ChainSchedule::Input& in : s.inputs(v)) {
            const OpId q = in.producer;
            if (s.end(q) + s.problem().platform.transferTime(s.device(q), s.device(v), in.bytes) == start) {
                tight = q;
                break;
            }
        }
        if (tight == kNoOp && s.linksShared() && s.arrival(v) == start)
            tight = s.latestInput(v);   // waited on a booked link
        if (tight == kNoOp) break;
        onChain.push_back(0);
        v = tight;
    }
    std::reverse(out.ops.begin(), out.ops.end());
    std::reverse(onChain.begin(), onChain.end());   // now onChain[i]: ops[i] -> ops[i + 1]
    int first = 0;
    for (int i = 0; i < static_cast<int>(out.ops.size()); ++i)
        if (i + 1 == static_cast<int>(out.ops.size()) || !onChain[static_cast<size_t>(i)]) {
            out.blocks.push_back({first, i});
            first = i + 1;
        }
}

} // namespace sl

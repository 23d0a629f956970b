// SPDX-License-Identifier: MIT
#include "core/graph/graphkind.h"

#include <algorithm>
#include <array>

namespace sl {
namespace {

// XLA's HloOpcode names (xla/hlo/ir/hlo_opcode.h), sorted for binary search.
constexpr std::array<std::string_view, 122> kHloOpcodes = {"abs",
                                                           "add",
                                                           "add-dependency",
                                                           "after-all",
                                                           "all-gather",
                                                           "all-gather-done",
                                                           "all-gather-start",
                                                           "all-reduce",
                                                           "all-reduce-done",
                                                           "all-reduce-start",
                                                           "all-to-all",
                                                           "and",
                                                           "async-done",
                                                           "async-start",
                                                           "async-update",
                                                           "atan2",
                                                           "batch-norm-grad",
                                                           "batch-norm-inference",
                                                           "batch-norm-training",
                                                           "bitcast",
                                                           "bitcast-convert",
                                                           "broadcast",
                                                           "call",
                                                           "cbrt",
                                                           "ceil",
                                                           "cholesky",
                                                           "clamp",
                                                           "clz",
                                                           "collective-broadcast",
                                                           "collective-permute",
                                                           "collective-permute-done",
                                                           "collective-permute-start",
                                                           "compare",
                                                           "complex",
                                                           "composite",
                                                           "concatenate",
                                                           "conditional",
                                                           "constant",
                                                           "convert",
                                                           "convolution",
                                                           "copy",
                                                           "copy-done",
                                                           "copy-start",
                                                           "cosine",
                                                           "custom-call",
                                                           "divide",
                                                           "domain",
                                                           "dot",
                                                           "dynamic-reshape",
                                                           "dynamic-slice",
                                                           "dynamic-update-slice",
                                                           "erf",
                                                           "exponential",
                                                           "exponential-minus-one",
                                                           "fft",
                                                           "floor",
                                                           "fusion",
                                                           "gather",
                                                           "get-dimension-size",
                                                           "get-tuple-element",
                                                           "imag",
                                                           "infeed",
                                                           "iota",
                                                           "is-finite",
                                                           "log",
                                                           "log-plus-one",
                                                           "logistic",
                                                           "map",
                                                           "maximum",
                                                           "minimum",
                                                           "multiply",
                                                           "negate",
                                                           "not",
                                                           "optimization-barrier",
                                                           "or",
                                                           "outfeed",
                                                           "pad",
                                                           "parameter",
                                                           "partition-id",
                                                           "popcnt",
                                                           "power",
                                                           "real",
                                                           "recv",
                                                           "recv-done",
                                                           "reduce",
                                                           "reduce-precision",
                                                           "reduce-scatter",
                                                           "reduce-window",
                                                           "remainder",
                                                           "replica-id",
                                                           "reshape",
                                                           "reverse",
                                                           "rng",
                                                           "rng-bit-generator",
                                                           "rng-get-and-update-state",
                                                           "round-nearest-afz",
                                                           "round-nearest-even",
                                                           "rsqrt",
                                                           "scatter",
                                                           "select",
                                                           "select-and-scatter",
                                                           "send",
                                                           "send-done",
                                                           "set-dimension-size",
                                                           "shift-left",
                                                           "shift-right-arithmetic",
                                                           "shift-right-logical",
                                                           "sign",
                                                           "sine",
                                                           "slice",
                                                           "sort",
                                                           "sqrt",
                                                           "stochastic-convert",
                                                           "subtract",
                                                           "tan",
                                                           "tanh",
                                                           "topk",
                                                           "transpose",
                                                           "triangular-solve",
                                                           "tuple",
                                                           "while",
                                                           "xor"};

}   // namespace

bool isHloOpcode(std::string_view type) { return std::binary_search(kHloOpcodes.begin(), kHloOpcodes.end(), type); }

bool isTrainingStep(const Graph& g) {
    bool loss = false, gradient = false;
    for (const Op& op : g.ops()) {
        loss = loss || op.type == "Loss";
        gradient = gradient || (op.type.size() > 4 && op.type.ends_with("Grad"));
    }
    return loss && gradient;
}

GraphKind graphKind(const Graph& g) {
    if (g.opCount() == 0) return GraphKind::Other;
    int hlo = 0;
    for (OpId v = 0; v < g.opCount(); ++v) hlo += isHloOpcode(g.op(v).type);
    return 10 * hlo >= 9 * g.opCount() ? GraphKind::CompiledStep : GraphKind::Other;
}

}   // namespace sl

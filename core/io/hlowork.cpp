// SPDX-License-Identifier: MIT
#include "core/io/hlowork.h"

#include "core/io/ioutil.h"
#include "core/util/text.h"

#include <algorithm>
#include <unordered_set>

namespace sl::io_detail {

double hloFlops(const HloInstruction& in, const std::vector<const HloShape*>& operands) {
    const double out = in.shape.elements;
    const std::string& op = in.opcode;
    if (op == "dot" && !operands.empty() && operands[0]) {
        double k = 1;
        for (double d : hloIntList(in.attrs, "lhs_contracting_dims"))
            if (d >= 0 && d < static_cast<double>(operands[0]->dims.size())) k *= operands[0]->dims[static_cast<std::size_t>(d)];
        return 2 * out * k;
    }
    if (op == "convolution" && operands.size() > 1 && operands[1] && !in.shape.dims.empty()) {
        // MACs per output element = kernel elements / output features ('f' in the output dim_labels)
        std::size_t f = in.shape.dims.size() - 1;
        if (const auto at = in.attrs.find("->"); at != std::string::npos)
            if (const auto pos = in.attrs.find('f', at); pos != std::string::npos && pos - at - 2 < in.shape.dims.size())
                f = pos - at - 2;
        const double features = std::max(in.shape.dims[f], 1.0);
        return 2 * out * operands[1]->elements / features;
    }
    if ((op == "reduce" || op == "reduce-window") && !operands.empty() && operands[0]) return operands[0]->elements;
    static const std::unordered_set<std::string> movement = {
        "reshape", "broadcast", "transpose", "concatenate", "slice", "copy", "bitcast", "tuple", "get-tuple-element",
        "convert", "gather", "pad", "dynamic-slice", "dynamic-update-slice", "reverse", "iota", "bitcast-convert"};
    if (movement.count(op)) return 0;
    return out;
}

OpClass hloOpClass(const std::string& op) {
    if (op == "dot") return OpClass::Matmul;
    if (op == "convolution") return OpClass::Conv;
    if (op == "reduce" || op == "reduce-window" || op == "select-and-scatter" || op == "sort") return OpClass::Reduction;
    if (op == "batch-norm-training" || op == "batch-norm-inference" || op == "batch-norm-grad") return OpClass::Normalization;
    static const std::unordered_set<std::string> aliases = {
        "bitcast", "get-tuple-element", "tuple", "all-reduce-done", "all-gather-done",
        "collective-permute-done", "copy-done", "send-done", "recv-done", "after-all", "opt-barrier"};
    if (aliases.count(op)) return OpClass::Alias;
    static const std::unordered_set<std::string> collectives = {
        "all-reduce", "all-reduce-start", "all-gather", "all-gather-start", "reduce-scatter", "all-to-all",
        "collective-permute", "collective-permute-start"};
    if (collectives.count(op)) return OpClass::Collective;
    static const std::unordered_set<std::string> movement = {
        "reshape", "broadcast", "transpose", "concatenate", "slice", "copy", "copy-start", "convert", "gather", "scatter", "pad",
        "dynamic-slice", "dynamic-update-slice", "reverse", "iota", "bitcast-convert"};
    if (movement.count(op)) return OpClass::Movement;
    if (op == "custom-call" || op == "fusion" || op == "call" || op == "while" || op == "conditional") return OpClass::Other;
    return OpClass::Elementwise;
}

namespace {

Collective hloCollective(const std::string& op) {
    if (op.rfind("all-reduce", 0) == 0) return Collective::AllReduce;
    if (op.rfind("all-gather", 0) == 0) return Collective::AllGather;
    if (op == "reduce-scatter") return Collective::ReduceScatter;
    if (op == "all-to-all") return Collective::AllToAll;
    return Collective::Permute;
}

/// Ranks of the first replica group: {{0,1,2,3},{4,5,6,7}} -> 4; the iota form [2,4]<=[8] -> 4;
/// source_target_pairs of a permute -> 2; none or {} -> 0 (every device).
int groupSizeOf(const std::string& attrs, Collective kind) {
    if (kind == Collective::Permute) return 2;
    const auto at = attrs.find("replica_groups=");
    if (at == std::string::npos) return 0;
    const std::string_view rest = std::string_view(attrs).substr(at + 15);
    if (rest.substr(0, 1) == "[") {   // iota: [groups,size]<=[n]
        const auto close = rest.find(']');
        const auto comma = rest.substr(0, close).rfind(',');
        if (close == std::string_view::npos || comma == std::string_view::npos) return 0;
        const auto v = parseInteger(trimBlanks(rest.substr(comma + 1, close - comma - 1)));
        return v && *v > 0 && *v < 1'000'000 ? static_cast<int>(*v) : 0;
    }
    if (rest.substr(0, 2) != "{{") return 0;
    const auto end = rest.find('}');
    const std::string_view first = rest.substr(2, end - 2);
    return first.empty() ? 0 : static_cast<int>(std::count(first.begin(), first.end(), ',')) + 1;
}

} // namespace

OpWork hloWork(const HloInstruction& in, const std::vector<const HloShape*>& operands, double flops, double bytesRead) {
    OpWork w;
    w.opClass = hloOpClass(in.opcode);
    w.dtype = in.shape.dtype;
    if (w.opClass == OpClass::Alias) return w;
    w.flops = flops;
    w.bytesRead = bytesRead;
    w.bytesWritten = in.shape.bytes;
    if (w.opClass != OpClass::Collective) return w;
    double operandBytes = 0;
    for (const HloShape* s : operands) operandBytes += s ? s->bytes : 0;
    w.collective = hloCollective(in.opcode);
    w.groupSize = groupSizeOf(in.attrs, w.collective);
    // The buffer of the algorithm: a reduce-scatter's input, otherwise the result (a -start op's
    // tuple holds the operands beside it).
    if (w.collective == Collective::ReduceScatter) w.commBytes = operandBytes;
    else w.commBytes = in.shape.tuple ? std::max(in.shape.bytes - operandBytes, 0.0) : in.shape.bytes;
    return w;
}

} // namespace sl::io_detail

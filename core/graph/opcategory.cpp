// SPDX-License-Identifier: MIT
#include "core/graph/opcategory.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace sl {
namespace {

// lower case letters and digits only: "reduce-window", "Reduce_Window" and "ReduceWindow" meet
std::string normalise(std::string_view type) {
    std::string out;
    out.reserve(type.size());
    for (char c : type) {
        if (c >= 'A' && c <= 'Z') out.push_back(static_cast<char>(c - 'A' + 'a'));
        else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) out.push_back(c);
    }
    return out;
}

const std::unordered_map<std::string, OpCategory>& exactNames() {
    static const auto table = [] {
        std::unordered_map<std::string, OpCategory> t;
        auto add = [&](OpCategory c, std::initializer_list<const char*> names) {
            for (const char* n : names) t.emplace(n, c);
        };
        add(OpCategory::Convolution, {"conv", "convolution", "convtranspose", "convinteger", "qlinearconv", "conv1d", "conv2d",
                                      "conv3d", "depthwiseconv2d", "depthwiseconv2dnative", "deconvolution"});
        add(OpCategory::MatMul, {"matmul", "gemm", "dot", "dotgeneral", "linear", "einsum", "batchmatmul", "batchmatmulv2", "bmm",
                                 "addmm", "matmulinteger", "qlinearmatmul", "fullyconnected", "dense", "innerproduct"});
        add(OpCategory::Elementwise,
            {"add", "addv2", "biasadd", "sub", "subtract", "mul", "multiply", "div", "divide", "truediv", "realdiv", "relu", "relu6",
             "leakyrelu", "prelu", "elu", "selu", "celu", "gelu", "silu", "swish", "mish", "sigmoid", "logistic", "hardsigmoid",
             "hardswish", "tanh", "softplus", "softsign", "softmax", "logsoftmax", "exp", "exponential", "log", "sqrt", "rsqrt",
             "pow", "power", "clamp", "clip", "max", "min", "maximum", "minimum", "abs", "neg", "negate", "erf", "reciprocal",
             "floor", "ceil", "round", "sign", "sin", "cos", "select", "where", "compare", "equal", "less", "greater", "and", "or",
             "not", "xor", "dropout", "square", "squareddifference", "addn", "sum"});
        add(OpCategory::Normalisation,
            {"batchnormalization", "batchnorm", "fusedbatchnorm", "fusedbatchnormv3", "batchnorminference", "batchnormtraining",
             "batchnormgrad", "layernormalization", "layernorm", "instancenormalization", "groupnormalization", "groupnorm",
             "lrn", "lpnormalization", "meanvariancenormalization", "rmsnorm", "simplifiedlayernormalization"});
        add(OpCategory::Pooling, {"maxpool", "averagepool", "avgpool", "globalaveragepool", "globalmaxpool", "lppool",
                                  "globallppool", "reducewindow", "maxroipool", "roialign", "adaptiveavgpool2d", "maxpool2d"});
        add(OpCategory::DataMovement,
            {"reshape", "transpose", "concat", "concatenate", "concatv2", "slice", "stridedslice", "gather", "gatherelements",
             "gathernd", "gatherv2", "scatter", "scatterelements", "scatternd", "split", "squeeze", "unsqueeze", "flatten",
             "expand", "tile", "pad", "broadcast", "broadcastindim", "copy", "copystart", "copydone", "bitcast", "bitcastconvert",
             "convert", "cast", "tuple", "gettupleelement", "dynamicslice", "dynamicupdateslice", "reverse", "shape", "size",
             "identity", "depthtospace", "spacetodepth", "resize", "upsample", "permute", "view", "contiguous", "constant",
             "parameter", "iota", "constantofshape", "range", "onehot", "allgather", "alltoall", "collectivepermute", "send", "recv"});
        add(OpCategory::Reduction, {"reduce", "reducesum", "reducemean", "reducemax", "reducemin", "reduceprod", "reducel1",
                                    "reducel2", "reducelogsum", "reducelogsumexp", "reducesumsquare", "argmax", "argmin",
                                    "mean", "allreduce", "reducescatter", "cumsum", "topk"});
        return t;
    }();
    return table;
}

bool startsWith(const std::string& s, std::string_view prefix) {
    return s.size() >= prefix.size() && std::string_view(s).substr(0, prefix.size()) == prefix;
}
bool contains(const std::string& s, std::string_view part) {
    return s.find(part) != std::string::npos;
}

// free-text types such as "Conv2D_bn" or "my_matmul_3": the telling word decides
OpCategory byKeyword(const std::string& t) {
    if (startsWith(t, "conv") && !startsWith(t, "convert")) return OpCategory::Convolution;
    if (contains(t, "matmul") || contains(t, "gemm")) return OpCategory::MatMul;
    if (contains(t, "norm")) return OpCategory::Normalisation;
    if (contains(t, "pool")) return OpCategory::Pooling;
    if (startsWith(t, "reduce")) return OpCategory::Reduction;
    if (contains(t, "relu") || contains(t, "sigmoid") || contains(t, "tanh") || contains(t, "gelu")) return OpCategory::Elementwise;
    return OpCategory::Other;
}

} // namespace

std::string_view toString(OpCategory c) {
    switch (c) {
    case OpCategory::Convolution: return "convolution";
    case OpCategory::MatMul: return "matmul / gemm";
    case OpCategory::Elementwise: return "elementwise / activation";
    case OpCategory::Normalisation: return "normalisation";
    case OpCategory::Pooling: return "pooling";
    case OpCategory::DataMovement: return "data movement";
    case OpCategory::Reduction: return "reduction";
    case OpCategory::Other: break;
    }
    return "control / other";
}

OpCategory classifyOpType(std::string_view type) {
    const std::string t = normalise(type);
    if (t.empty()) return OpCategory::Other;
    const auto& table = exactNames();
    if (auto it = table.find(t); it != table.end()) return it->second;
    return byKeyword(t);
}

bool isConstantLike(std::string_view type) {
    const std::string t = normalise(type);
    return t == "constant" || t == "parameter" || t == "iota" || t == "constantofshape" || t == "const" || t == "initializer";
}

std::vector<char> foldableOps(const Graph& g) {
    std::vector<char> foldable(static_cast<size_t>(g.opCount()), 0);
    for (OpId v : g.topologicalOrder()) {   // predecessors first
        const std::string& type = g.op(v).type;
        if (g.successors(v).empty() || !(isConstantLike(type) || classifyOpType(type) == OpCategory::DataMovement)) continue;
        const auto preds = g.predecessors(v);
        foldable[static_cast<size_t>(v)] = std::all_of(preds.begin(), preds.end(), [&](OpId u) { return foldable[static_cast<size_t>(u)] != 0; });
    }
    return foldable;
}

std::vector<std::vector<OpId>> foldedInto(const Graph& g, const std::vector<char>& foldable) {
    const auto n = static_cast<size_t>(g.opCount());
    // the unfolded ops each folded op reaches through folded ops only (successors first)
    std::vector<std::vector<OpId>> reaches(n);
    const auto& topo = g.topologicalOrder();
    for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
        const OpId f = *it;
        if (!foldable[static_cast<size_t>(f)]) continue;
        auto& r = reaches[static_cast<size_t>(f)];
        for (OpId s : g.successors(f)) {
            if (!foldable[static_cast<size_t>(s)]) r.push_back(s);
            else r.insert(r.end(), reaches[static_cast<size_t>(s)].begin(), reaches[static_cast<size_t>(s)].end());
        }
        std::sort(r.begin(), r.end());
        r.erase(std::unique(r.begin(), r.end()), r.end());
    }
    std::vector<std::vector<OpId>> into(n);
    for (OpId f = 0; f < g.opCount(); ++f)
        for (OpId target : reaches[static_cast<size_t>(f)]) into[static_cast<size_t>(target)].push_back(f);
    return into;
}

} // namespace sl

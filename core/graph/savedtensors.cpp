// SPDX-License-Identifier: MIT
#include "core/graph/savedtensors.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <utility>

namespace sl {
namespace {

using enum SavedTensors;

/// The table, by what each gradient needs (PyTorch's autograd formulas save the same tensors).
/// Lower-case ONNX names, sorted for the binary search below.
constexpr std::array kRules = std::to_array<std::pair<std::string_view, SavedTensors>>({
    {"abs", Inputs},                    // sign(x)
    {"add", Nothing},                   // dy passes through
    {"averagepool", Nothing},           // spread dy over the window: shapes only
    {"batchnormalization", Inputs},     // x (with the batch statistics, small)
    {"cast", Nothing},
    {"clip", Inputs},                   // mask of x inside the bounds
    {"concat", Nothing},                // slice dy
    {"conv", Inputs},                   // dW needs x (dX needs W, a parameter)
    {"convtranspose", Inputs},
    {"cos", Inputs},
    {"div", Inputs},                    // both operands
    {"dropout", Outputs},               // the mask; the output stands in for it when the graph has no mask output
    {"einsum", Inputs},
    {"elu", Outputs},
    {"exp", Outputs},                   // d exp(x) = exp(x)
    {"expand", Nothing},                // sum dy back
    {"flatten", Nothing},
    {"gelu", Inputs},
    {"gemm", Inputs},
    {"globalaveragepool", Nothing},
    {"globalmaxpool", InputsAndOutputs},
    {"hardsigmoid", Inputs},
    {"hardswish", Inputs},
    {"identity", Nothing},
    {"instancenormalization", Inputs},
    {"layernormalization", Inputs},
    {"leakyrelu", Inputs},
    {"log", Inputs},                    // 1 / x
    {"logsoftmax", Outputs},
    {"lrn", InputsAndOutputs},          // x, y and the local scale
    {"matmul", Inputs},                 // dA = dY B^T, dB = A^T dY
    {"maxpool", InputsAndOutputs},      // x for the shape, y for the argmax indices (same count)
    {"mul", Inputs},
    {"neg", Nothing},
    {"pad", Nothing},
    {"pow", Inputs},
    {"prelu", Inputs},
    {"reciprocal", Outputs},            // -y^2
    {"reducemax", InputsAndOutputs},
    {"reducemean", Nothing},
    {"reducesum", Nothing},
    {"relu", Outputs},                  // mask y > 0
    {"reshape", Nothing},
    {"resize", Nothing},
    {"selu", Outputs},
    {"sigmoid", Outputs},               // y (1 - y)
    {"sin", Inputs},
    {"slice", Nothing},
    {"softmax", Outputs},               // y (dy - sum(dy y))
    {"softplus", Inputs},
    {"split", Nothing},
    {"sqrt", Outputs},                  // 1 / (2 y)
    {"squeeze", Nothing},
    {"sub", Nothing},
    {"sum", Nothing},
    {"tanh", Outputs},                  // 1 - y^2
    {"tile", Nothing},
    {"transpose", Nothing},
    {"unsqueeze", Nothing},
    {"upsample", Nothing},
});

constexpr bool sortedUnique() {
    for (std::size_t i = 1; i < kRules.size(); ++i)
        if (!(kRules[i - 1].first < kRules[i].first)) return false;
    return true;
}
static_assert(sortedUnique(), "keep kRules sorted by name (binary search)");

} // namespace

SavedTensors savedTensorsOf(std::string_view opType) {
    std::string key(opType);
    std::transform(key.begin(), key.end(), key.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto it = std::lower_bound(kRules.begin(), kRules.end(), std::string_view(key),
                                     [](const auto& rule, std::string_view k) { return rule.first < k; });
    return it != kRules.end() && it->first == key ? it->second : InputsAndOutputs;
}

} // namespace sl

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// XLA HLO text modules shaped like the training steps PyTorch/XLA compiles (`schedlab-cli
/// generate hlo-step`, docs/training-graphs.md "HLO training steps"): a forward pass, the loss,
/// the backward pass and the optimizer update of every weight in one ENTRY computation, written
/// with XLA's small ops (scalar broadcasts, reshapes, transposes, converts, reduces) around a few
/// large dots, and a ROOT tuple whose updated weights (and Adam states) `input_output_alias` puts
/// in their parameters' buffers. Read back with the HLO reader (core/io/graphio.h), they are
/// compiler-shaped instances whose exact minimum memory is known or provable.
///
/// Models: an MLP (dense + bias + ReLU layers, softmax cross-entropy) and a pre-norm transformer
/// (embedding, per block layer norm, multi-head attention and a GELU MLP with residuals, a final
/// layer norm and an LM head). Tensor parallelism shards the weights Megatron-style and adds the
/// all-reduces. The seed picks details (biases, GELU form, causal mask, embedding as gather or
/// one-hot dot, weight decay, a few widths) so that seeds differ; one spec, one text, byte for byte.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sl {

struct HloStepSpec {
    enum class Model { Mlp, Transformer };
    Model model = Model::Transformer;
    int layers = 2;          ///< MLP: hidden layers; transformer: blocks
    int batch = 8;
    int sequence = 64;       ///< transformer: tokens per sample
    int hidden = 128;        ///< MLP: hidden width (the seed moves it by a few columns); transformer: model width
    int heads = 4;           ///< transformer: attention heads; must divide `hidden`
    int ffn = 0;             ///< transformer: MLP width (the seed moves it a little); 0: 4 x hidden
    int vocab = 1000;        ///< transformer: vocabulary
    int inputs = 784;        ///< MLP: input features
    int classes = 10;        ///< MLP: output classes
    int tensorParallel = 1;  ///< shards per layer: must divide the heads (transformer)
    bool adam = false;       ///< Adam (m and v states, also updated in place) instead of SGD
    bool bf16 = false;       ///< matmuls in bf16 (autocast), everything else in f32
    std::uint64_t seed = 1;
};

struct HloStepModule {
    std::string text;   ///< the HLO module
    /// Every ENTRY instruction that is not a parameter or a constant, in text order, with the names
    /// of its operands that are not parameters or constants (duplicates once): the ops and edges
    /// the HLO reader makes (a reader of a folded op also reads the buffers that op stands for).
    std::vector<std::pair<std::string, std::vector<std::string>>> ops;
};

/// Throws std::invalid_argument naming the field when the sizes do not fit (non-positive, too
/// large, not divisible by the heads or the tensor-parallel degree).
HloStepModule generateHloTrainingStep(const HloStepSpec& spec);

} // namespace sl

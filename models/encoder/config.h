// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The encoder's sizes, torch-free: the weight-file checks (models/weightformat.h) and the fuzz
/// target read them without LibTorch.

#include <array>
#include <cstdint>
#include <string>

namespace sl::models {

inline constexpr int kMaskCount = 7;   ///< the seven pair sets of Gagrani et al. 2022, §4.1

/// The seven pair sets, in the order of the encoder's masks and heads.
enum class MaskKind : int {
    Reduction = 0,          ///< 1: transitive reduction edges (forward)
    Redundant = 1,          ///< 2: DAG edges not in the reduction (forward)
    ClosureRest = 2,        ///< 3: closure pairs that are not DAG edges (forward)
    ReductionBack = 3,      ///< 4: reverse of 1
    RedundantBack = 4,      ///< 5: reverse of 2
    ClosureRestBack = 5,    ///< 6: reverse of 3
    Incomparable = 6,       ///< 7: both directions of every incomparable pair
};

/// Sizes of the encoder. headsPerMask[k] = 0 drops mask k (ablations).
struct EncoderConfig {
    int inputWidth = 28;
    int width = 64;        ///< d
    int layers = 3;        ///< L
    std::array<int, kMaskCount> headsPerMask{2, 2, 2, 2, 2, 2, 2};
    int headDim = 16;      ///< d_k = d_v
    int mlpHidden = 64;    ///< eq. 5 MLP hidden width
    bool finalNorm = true; ///< LayerNorm after the last layer
    /// Temperature FiLM (Zhang et al. 2023, §3.3 eq. 9, App. D eqs. 29-30), off when 0:
    /// e = ReLU(lin_b(ReLU(lin_a(log sigma))))
    /// of this width, shared by the layers; each layer's first MLP linear becomes
    /// lin_scale(e) * mlp1(h) + lin_shift(e) (identity at initialisation).
    int filmDim = 0;
    bool reluMlp = false;  ///< ReLU in the MLP (Zhang et al. 2023, App. D eq. 28) instead of GELU

    int totalHeads() const;
    /// Values in the module's parameters (TopoformerEncoderImpl's constructor, counted without
    /// building it): what a weight file must hold at least before a model is built from it.
    std::int64_t parameterCount() const;
    /// Our CPU preset (docs/topoformer.md, 'Choices where the paper is silent'): d 64, 3 layers,
    /// 2 heads per mask, d_k 16, MLP 64.
    static EncoderConfig cpuSmall(int inputWidth);
    std::string toJson() const;                        ///< one-line JSON object
    static EncoderConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
};

} // namespace sl::models

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The priority sampler's network: the shared Topoformer encoder (models/encoder) followed by the
/// logit head Linear(d, d) -> ReLU -> Linear(d, 1) (Jeon et al. 2023, §3.2; App. F.2 takes the sizes
/// of Gagrani et al. 2022, App. C.2; no logit standardisation, §3.3), plus
/// graph preparation (features, masks), weight files and inference. Includes LibTorch: include it
/// from .cpp files in models/ only.

#include "models/encoder/encoder.h"
#include "models/prioritysampler/training.h"

#include "core/costmodel/problem.h"

#include <cstdint>
#include <string>
#include <vector>

#include <torch/nn/modules/activation.h>

namespace sl::ps {

inline constexpr const char* kWeightKind = "priority-sampler";

struct SamplerConfig {
    models::EncoderConfig encoder;
    int typeSlots = 3;            ///< one-hot machine-type columns (types >= typeSlots share the last)
    std::string task = "layered-typed";
    std::string toJson() const;
    static SamplerConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
};

/// The network a training run of `train` builds (its task, width, layers and heads).
SamplerConfig samplerConfig(const TrainConfig& train);

/// Feature columns (App. F.3): duration and bottom level, one-hot machine type, in/out degree,
/// our four extra columns (features.h), and the 20-dimensional Laplacian PE.
models::FeatureSpec featureSpec(int typeSlots);

/// Everything the encoder needs about one graph, without the dense float masks (4 N^2 bytes).
struct PreparedGraph {
    models::NodeFeatures features;
    models::GraphMasks masks;
};
PreparedGraph prepareGraph(const Problem& problem, int typeSlots);
models::EncoderInput encoderInput(const PreparedGraph& g);

class PrioritySamplerNetImpl : public torch::nn::Module {
public:
    explicit PrioritySamplerNetImpl(const SamplerConfig& config);
    /// Logits [N] for an unbatched input.
    torch::Tensor forward(const models::EncoderInput& input);
    const SamplerConfig& config() const { return m_config; }

private:
    SamplerConfig m_config;
    models::TopoformerEncoder m_encoder{nullptr};
    torch::nn::Linear m_head1{nullptr}, m_head2{nullptr};
};
TORCH_MODULE(PrioritySamplerNet);

void saveSampler(const PrioritySamplerNet& net, const std::string& path);
/// Builds the network from the file's config and loads its weights. Throws std::runtime_error.
PrioritySamplerNet loadSampler(const std::string& path);

/// Noise-free logits of a graph (inference: no gradients, eval mode). `prepareSeconds` (optional)
/// receives the time spent on features (Laplacian eigenvectors included) and masks.
std::vector<double> inferLogits(PrioritySamplerNet& net, const Problem& problem, double* prepareSeconds = nullptr);

} // namespace sl::ps

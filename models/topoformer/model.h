// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The Topoformer memory-order model (Gagrani et al. 2022, §4.1-4.2, App. C.2): the shared encoder
/// followed by the priority MLP of eq. 7 (Linear -> ReLU -> Linear) and the per-graph normalisation
/// of eq. 17, y~ = alpha * (y - mean) / (std + 1e-8) with the population std (the paper gives
/// neither; docs/topoformer.md, 'Choices where the paper is silent'). Weight files are of kind "topoformer-memory".

#include "models/encoder/encoder.h"
#include "models/topoformer/training.h"

#include <memory>
#include <string>

namespace sl::models {

inline constexpr const char* kTopoformerKind = "topoformer-memory";
/// File name of the shipped memory model under modelsDir(): learned from proven optima of
/// training steps (docs/topoformer.md, "Learning from proven optima").
inline constexpr const char* kTopoformerWeightsFile = "topoformer-memory.slw";
/// The paper's recipe alone (REINFORCE on layered graphs), kept beside it: the weights of the
/// reproduction tables (docs/topoformer.md, "Numbers"); `--weights` selects it.
inline constexpr const char* kTopoformerLayeredWeightsFile = "topoformer-memory-layered.slw";
/// Fine-tuned on compiled (HLO) training steps as well (docs/topoformer.md, "Compiled training steps").
inline constexpr const char* kTopoformerCompiledWeightsFile = "topoformer-memory-compiled.slw";

struct TopoformerConfig {
    FeatureSpec features;   ///< App. C.5: memory, degrees, hops, PE 20
    EncoderConfig encoder = EncoderConfig::cpuSmall(FeatureSpec{}.width());
    double alpha = 5;       ///< eq. 17

    std::string toJson() const;
    static TopoformerConfig fromJson(const std::string& json);   ///< throws std::invalid_argument
};

/// The model a training run of `train` builds (its width, layers, heads and sizes).
TopoformerConfig topoformerModelConfig(const TopoformerTrainConfig& train);

class TopoformerModelImpl : public torch::nn::Module {
public:
    explicit TopoformerModelImpl(const TopoformerConfig& config);
    /// Normalised priorities: [N] for one graph, [B, N] for a batch (padding rows are 0).
    torch::Tensor forward(const EncoderInput& input);
    const TopoformerConfig& config() const { return m_config; }

private:
    TopoformerConfig m_config;
    TopoformerEncoder m_encoder{nullptr};
    torch::nn::Linear m_head1{nullptr}, m_head2{nullptr};
};
TORCH_MODULE(TopoformerModel);

/// Encoder input of one graph for this model (features per config; `peSignSeed` != 0 for training).
EncoderInput topoformerInput(const Graph& g, const TopoformerConfig& config, std::uint64_t peSignSeed = 0);

/// Path of the memory model to use: `override` if non-empty, else $SCHEDLAB_TOPOFORMER_WEIGHTS,
/// else modelsDir()/kTopoformerWeightsFile.
std::string topoformerWeightsPath(const std::string& override = {});

/// The weights a `topoformer` run on `g` loads, and why (the run's note says it).
struct TopoformerWeightsChoice {
    std::string path;
    std::string why;   ///< "--weights", "$SCHEDLAB_TOPOFORMER_WEIGHTS", "for compiled steps", "the default"
};
/// `override` (--weights), else $SCHEDLAB_TOPOFORMER_WEIGHTS, else by what the graph is
/// (core/graph/graphkind.h): kTopoformerCompiledWeightsFile for a compiled step (docs/topoformer.md,
/// "Which weights": about half the default's gap there), kTopoformerWeightsFile for any other.
TopoformerWeightsChoice topoformerWeightsFor(const Graph& g, const std::string& override = {});

/// Builds the model from the file's config and loads it. Throws std::runtime_error with a clear
/// message (the path, and how to point at another file) when the file is missing or bad.
TopoformerModel loadTopoformer(const std::string& path);
void saveTopoformer(const TopoformerModel& model, const std::string& path);

/// log p(order) under eq. 8 as a differentiable tensor: `priority` is [N] (normalised), `ready` the
/// [N x N] 0/1 ready sets recorded by sampleOrder() (row t = ready set before step t).
torch::Tensor plackettLuceLogProbTensor(const torch::Tensor& priority, const std::vector<OpId>& order,
                                        const std::vector<std::uint8_t>& ready);

/// One order sampled for training: its ready sets (as sampleOrder() records them) and its peak.
struct SampledOrder {
    std::vector<OpId> order;
    std::vector<std::uint8_t> ready;
    double cost = 0;
};

/// REINFORCE's surrogate loss on one batch (Gagrani et al. 2022, §4.3 eq. 9): the mean over every
/// sample of log p(order) times its advantage, cost minus its graph's baseline (divided by the
/// baseline when `relative`). `priorities` is [B, N] with row b for graph b, `samples[b]` its
/// orders. Minimising the loss makes orders cheaper than their baseline likelier.
torch::Tensor reinforceLoss(const torch::Tensor& priorities, const std::vector<std::vector<SampledOrder>>& samples,
                            const std::vector<double>& baselines, bool relative);

/// Loads once per path and shares it (inference only; forward under NoGradGuard is thread-safe).
std::shared_ptr<TopoformerModel> cachedTopoformer(const std::string& path);

} // namespace sl::models

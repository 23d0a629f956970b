// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The shared Topoformer encoder (Gagrani et al., "Neural Topological Ordering for Computation
/// Graphs", NeurIPS 2022, §4.1, App. C.2, C.5): node input features, the seven attention
/// masks derived from the DAG, and the masked multi-head transformer that turns them into one
/// embedding per op. Used by the Topoformer memory-order decoder (models/topoformer/) and the
/// one-shot priority sampler (models/prioritysampler/).
///
/// Pipeline (features and masks are plain C++, no torch; only the module and EncoderInput use torch):
/// \code
///   sl::models::FeatureSpec spec;                        // the paper's App. C.5 columns + Laplacian PE
///   spec.durations = true; spec.machineTypes = 3;        // extra columns for makespan models
///   sl::models::NodeFeatures f = sl::models::buildFeatures(graph, spec);
///   sl::models::GraphMasks m = sl::models::buildMasks(graph);
///   sl::models::EncoderInput in = sl::models::makeEncoderInput(f, m);   // tensors, [N, ...]
///   sl::models::TopoformerEncoder enc(sl::models::EncoderConfig::cpuSmall(spec.width()));
///   torch::Tensor h = enc->forward(in);                  // [N, width]
/// \endcode
/// Batches: batchInputs() pads several graphs to [B, Nmax, ...]; forward() then returns
/// [B, Nmax, width] and EncoderInput::nodeMask marks the real ops (padded ops get no messages and
/// send none; their rows are meaningless).
///
/// Mask convention: set k holds ordered pairs (u, v), u != v, read as an edge u -> v. In attention
/// the receiver v attends to the sender u (row v, column u). The seven sets partition all ordered
/// pairs of distinct ops. An op with no key in a set gets a zero message from that set's heads
/// (finite -1e9 bias times a "row has a key" indicator: no NaN gradients in LibTorch 1.13). The
/// paper states neither the direction nor the empty rows: docs/topoformer.md, 'Choices where the paper is silent'.

#include "core/graph/graph.h"
#include "models/encoder/config.h"
#include "models/weightfiles.h"
#include "models/weightformat.h"

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

namespace sl::models {

struct GraphRelations;   // models/encoder/relations.h

// ------------------------------------------------------------------------------------------------
// Node features (Gagrani et al. 2022, App. C.5)
// ------------------------------------------------------------------------------------------------

/// Which columns buildFeatures() produces, in this order:
///   memory (2: output bytes m, parameter bytes p), degrees (2: in, out),
///   hops (4: min/max hops from a source, min/max hops to a sink),
///   durations (2: duration, longest duration-weighted path from this op to a sink incl. itself),
///   machineTypes (one-hot, `machineTypes` columns; types >= machineTypes go to the last column),
///   extraColumns (caller-supplied, `extraColumns` columns),
///   then the Laplacian positional encoding (`laplacianDims` columns).
/// Every column before the PE is divided by its maximum over the graph's ops (0 if the max is 0),
/// except the one-hot machine columns, which are left as 0/1. The PE is not normalised.
struct FeatureSpec {
    bool memory = true;
    bool degrees = true;
    bool hops = true;
    bool durations = false;
    int machineTypes = 0;
    int extraColumns = 0;
    int laplacianDims = 20;

    int rawWidth() const;   ///< columns before the PE
    int width() const;      ///< rawWidth() + laplacianDims: the encoder's input width
    std::string describe() const;   ///< e.g. "memory,degrees,hops,pe20" (for model cards)
};

/// Row-major [ops x width] features of one graph.
struct NodeFeatures {
    int ops = 0;
    int width = 0;
    std::vector<float> values;
    float at(int op, int column) const { return values[static_cast<size_t>(op) * static_cast<size_t>(width) + static_cast<size_t>(column)]; }
};

/// The dense masks and attention are O(N^2) in memory (about 2 GB at 3,000 ops, 5-6 GB at
/// 5,000): buildMasks() and the methods that batch dense inputs (GFlowNet, priority sampler) refuse
/// larger graphs with a clear message rather than exhausting memory. Throws std::invalid_argument.
inline constexpr int kMaxEncoderOps = 5000;
void checkEncoderSize(const Graph& g);
/// Up to this many ops the positional encoding is a dense eigensolve (as when the shipped models
/// were trained and measured); beyond it, the sparse solver (sparselaplacian.h), and inputs of one
/// graph for inference keep their masks as relations (makeEncoderInput(features, relations)).
inline constexpr int kDenseEncoderOps = 2000;
/// Inputs by relations hold O(N^2 / 8) bytes of bitsets and take O(N^2) time per layer: the most
/// ops buildFeatures() and encoder inputs by relations accept. Throws std::invalid_argument.
inline constexpr int kMaxRelationEncoderOps = 50000;
void checkRelationEncoderSize(const Graph& g);

/// Builds the features of a finalized graph. `extra`, when spec.extraColumns > 0, is row-major
/// [opCount x extraColumns] and is max-normalised per column like the base columns.
/// `peSignSeed` != 0 flips the sign of each Laplacian eigenvector at random (training only; see
/// docs/topoformer.md, 'Choices where the paper is silent'); 0 gives the deterministic sign (largest-magnitude entry positive).
/// Throws std::invalid_argument if `extra` has the wrong size.
NodeFeatures buildFeatures(const Graph& g, const FeatureSpec& spec, const std::vector<float>* extra = nullptr,
                           std::uint64_t peSignSeed = 0);

// ------------------------------------------------------------------------------------------------
// The seven masks (Gagrani et al. 2022, §4.1)
// ------------------------------------------------------------------------------------------------

/// Dense pair sets (MaskKind, config.h, names them) of one graph. Forward sets are stored; backward sets are their transposes.
struct GraphMasks {
    int ops = 0;
    /// [u * ops + v] = 1 iff (u, v) is in forward set 1, 2, 3 resp.; incomparable is symmetric.
    std::vector<std::uint8_t> reduction, redundant, closureRest, incomparable;

    /// True iff the ordered pair (u, v) belongs to set `k`.
    bool has(MaskKind k, OpId u, OpId v) const;
    /// Number of ordered pairs in set `k`.
    std::int64_t count(MaskKind k) const;
};

/// Transitive closure / reduction with bitsets, O(N * E / 64) time and O(N^2) memory.
GraphMasks buildMasks(const Graph& g);

// ------------------------------------------------------------------------------------------------
// The encoder module (Gagrani et al. 2022, §4.1 eqs. 4-5, App. C.2)
// ------------------------------------------------------------------------------------------------

/// Tensors for one graph (or a padded batch, see batchInputs()). float32, CPU.
struct EncoderInput {
    torch::Tensor x;          ///< [N, F] or [B, N, F] features
    torch::Tensor maskBias;   ///< [7, N, N] or [B, 7, N, N]: 0 where row v may attend column u, else -1e9
    torch::Tensor rowHasKey;  ///< [7, N, 1] or [B, 7, N, 1]: 1 if the row has any allowed key, else 0
    torch::Tensor nodeMask;   ///< [N] or [B, N]: 1 for real ops, 0 for padding
    std::vector<int> sizes;   ///< real op count per graph (one entry when unbatched)
    /// Set instead of maskBias and rowHasKey for graphs beyond dense reach (one graph, inference
    /// only): attention reads the relations (relationattention.h).
    std::shared_ptr<const GraphRelations> relations;
    bool batched() const { return x.dim() == 3; }
};

EncoderInput makeEncoderInput(const NodeFeatures& features, const GraphMasks& masks);
/// One graph's input that keeps its masks as relations: O(N^2 / 8) bytes instead of 28 N^2.
EncoderInput makeEncoderInput(const NodeFeatures& features, std::shared_ptr<const GraphRelations> relations);
/// Pads unbatched inputs to a batch [B, Nmax, ...].
EncoderInput batchInputs(const std::vector<EncoderInput>& inputs);

/// What a pass derives from the masks and the temperature before its layers: the per-head
/// attention bias and the FiLM scales and shifts. Many passes over states of one graph at one
/// batch size and one sigma (GFlowNet sampling) share one (TopoformerEncoderImpl::prepare).
struct EncoderContext {
    std::int64_t batch = 0, ops = 0;
    torch::Tensor bias;                    ///< [B * H, N, N]: the bias of every head of every graph
    torch::Tensor rowKey;                  ///< [B or 1, H, N, 1]
    std::vector<torch::Tensor> filmScale;  ///< per layer, [B, 1, mlpHidden] (FiLM models only)
    std::vector<torch::Tensor> filmShift;
    /// Attention products as direct BLAS calls when no gradient is recorded (see attendDirect in
    /// encoder.cpp): the same numbers, without LibTorch's per-matrix overhead. Off by default.
    bool directAttention = false;
    std::shared_ptr<const GraphRelations> relations;   ///< attention by relations (bias, rowKey unset)
};

/// h^(0) = W x + b, then L pre-LN masked-attention layers (eqs. 4-5), then an optional LayerNorm.
class TopoformerEncoderImpl : public torch::nn::Module {
public:
    explicit TopoformerEncoderImpl(const EncoderConfig& config);
    /// [N, width] for an unbatched input, [B, N, width] for a batch. A batch may share one graph's
    /// masks: x [B, N, F] with maskBias [7, N, N] and rowHasKey [7, N, 1].
    /// `logSigma` (FiLM models only, required there): [B] or one value for every graph.
    /// The same as forward(x, prepare(input, B, logSigma)).
    torch::Tensor forward(const EncoderInput& input, const torch::Tensor& logSigma = {});
    /// The context of batches of `batch` graphs with `masks`' masks (its x is not read).
    EncoderContext prepare(const EncoderInput& masks, std::int64_t batch, const torch::Tensor& logSigma = {});
    /// x [B, N, F] with the B and N the context was prepared for: [B, N, width].
    torch::Tensor forward(const torch::Tensor& x, const EncoderContext& context);
    const EncoderConfig& config() const { return m_config; }

private:
    struct Layer {
        torch::nn::LayerNorm norm1{nullptr}, norm2{nullptr};
        torch::nn::Linear qkv{nullptr}, out{nullptr}, mlp1{nullptr}, mlp2{nullptr};
        torch::nn::Linear filmScale{nullptr}, filmShift{nullptr};   ///< FiLM models only
    };
    /// e_sigma [B, filmDim] (Zhang et al. 2023, "Robust Scheduling with GFlowNets", App. D eq. 29).
    torch::Tensor temperatureEmbedding(const torch::Tensor& logSigma, std::int64_t batch);
    EncoderConfig m_config;
    torch::nn::Linear m_embed{nullptr};
    torch::nn::Linear m_filmA{nullptr}, m_filmB{nullptr};   ///< FiLM models only
    std::vector<Layer> m_layers;
    torch::nn::LayerNorm m_finalNorm{nullptr};
    std::vector<std::int64_t> m_headMask;   ///< mask index of each head
};
TORCH_MODULE(TopoformerEncoder);

// ------------------------------------------------------------------------------------------------
// Weight files and model cards
// ------------------------------------------------------------------------------------------------

/// Writes every named parameter and buffer of `module` to `path` (a small binary file: magic
/// "SLWT", format version, `kind` (e.g. "topoformer-memory"), `configJson`, then name/shape/float32
/// data per tensor, then an FNV-1a/64 checksum of all that). Atomic (temp file + rename). Throws
/// std::runtime_error.
void saveWeights(const torch::nn::Module& module, const std::string& path, const std::string& kind,
                 const std::string& configJson);

/// Loads tensors by name into `module` (which must have been built from the file's config).
/// Throws std::runtime_error naming the file and the fault (missing file, wrong kind, version,
/// checksum, missing or mis-shaped tensor, NaN or infinite values).
void loadWeights(torch::nn::Module& module, const std::string& path, const std::string& expectedKind);
/// The same from a file already read and checked (readWeightFile): a loader that read the header
/// to build the model does not read and check the file a second time.
void loadWeights(torch::nn::Module& module, const WeightFile& file, const std::string& expectedKind);

/// The model card written beside the weights as `<weights>.card.json`.
struct ModelCard {
    std::string model;          ///< e.g. "topoformer-memory"
    std::string architecture;   ///< JSON object text (EncoderConfig::toJson() plus head details)
    std::string features;       ///< FeatureSpec::describe()
    std::string command;        ///< training command line
    std::string data;           ///< training data description
    std::int64_t steps = 0;
    double seconds = 0;
    std::string results;        ///< JSON object text (validation / bench numbers)
    std::string notes;
    int worldSize = 1;          ///< ranks of a data-parallel training (models/distributed)
};
void writeModelCard(const ModelCard& card, const std::string& path);   ///< throws std::runtime_error


} // namespace sl::models

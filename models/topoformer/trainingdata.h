// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What Topoformer's two training losses share (models/topoformer/training.cpp, imitation.cpp):
/// the graphs of a step and of validation, the reference peaks validation is measured against,
/// and greedy decoding of a batch. Data comes either fresh (the paper's layered graphs, judged
/// against the best classic order) or from a label set (judged against the proven optima).
/// Includes LibTorch: models/ only.

#include "models/topoformer/labelset.h"
#include "models/topoformer/model.h"
#include "models/topoformer/training.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sl::models {

struct Prepared {
    std::shared_ptr<Graph> graph;
    EncoderInput input;
    const LabelledStep* label = nullptr;   ///< the entry it came from, if any
};

class TopoformerData {
public:
    /// Loads (or builds) the label sets when `c.labels` is set (comma-separated files); prepares
    /// the validation graphs.
    TopoformerData(const TopoformerTrainConfig& c, const TopoformerConfig& model, const std::function<void(const std::string&)>& log);

    /// Step `step`'s graphs; every choice derives from (seed, step).
    std::vector<Prepared> batch(std::int64_t step, std::uint64_t seed) const;
    const std::vector<Prepared>& validation() const { return m_validation; }
    /// Per validation graph: its optimum (labels) or best classic order's peak.
    const std::vector<double>& reference() const { return m_reference; }
    const char* referenceName() const { return labelled() ? "optimum" : "best classic"; }
    bool labelled() const { return !m_labelSets.empty(); }
    /// Mean % of `peaks` above the reference; with several label sets the largest of their means,
    /// so that a checkpoint counts as good as its weaker set.
    double meanGap(const std::vector<double>& peaks) const;
    /// With several label sets, each one's mean gap ("; per set: a +0.30%, b +4.10%"), else "".
    std::string gapsBySet(const std::vector<double>& peaks) const;
    double worstGap(const std::vector<double>& peaks) const;
    /// For the model card.
    std::string describe() const;

private:
    Prepared prepare(std::shared_ptr<Graph> g, std::uint64_t peSeed, const LabelledStep* label = nullptr) const;

    const TopoformerTrainConfig& m_c;
    const TopoformerConfig& m_model;
    std::vector<LabelSet> m_labelSets;
    std::vector<std::string> m_labelFiles;
    std::vector<Prepared> m_validation;
    std::vector<double> m_reference;
    std::vector<int> m_validationSet;   ///< per validation graph: its label set
    /// Per label set (one group without labels): the mean gap of its validation graphs.
    std::vector<double> meanGapPerSet(const std::vector<double>& peaks) const;
};

/// 64-bit mixing of two seeds (non-zero: also a PE sign seed).
std::uint64_t mixSeeds(std::uint64_t a, std::uint64_t b);
/// Row `y` of a priority batch as doubles, its first n entries.
std::vector<double> rowPriorities(const at::Tensor& y, int n);
/// Greedy peaks of `model` on prepared graphs, batched, no gradients; with `beamWidth` > 0 the
/// peaks of beam search of that width instead (what the optimizer's default decodes).
std::vector<double> greedyPeaks(TopoformerModel& model, const std::vector<Prepared>& graphs, int beamWidth = 0);
EncoderInput batchOf(const std::vector<Prepared>& graphs);
double meanOf(const std::vector<double>& v);

} // namespace sl::models

// SPDX-License-Identifier: MIT
#include "models/topoformer/trainingdata.h"

#include "models/topoformer/decoding.h"

#include "core/generators/generators.h"
#include "core/exact/setmemory.h"
#include "core/util/random.h"
#include "models/train/trainers.h"

#include <ATen/ATen.h>

#include <filesystem>

#include <algorithm>
#include <numeric>

namespace sl::models {

std::uint64_t mixSeeds(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x7F4A7C159E3779B9ULL + (a << 6) + (a >> 2));
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return x | 1;
}

std::vector<double> rowPriorities(const at::Tensor& y, int n) {
    const at::Tensor row = y.narrow(0, 0, n).detach().to(at::kDouble).contiguous();
    const double* p = row.data_ptr<double>();
    return {p, p + n};
}

EncoderInput batchOf(const std::vector<Prepared>& graphs) {
    std::vector<EncoderInput> inputs;
    for (const Prepared& p : graphs) inputs.push_back(p.input);
    return batchInputs(inputs);
}

std::vector<double> greedyPeaks(TopoformerModel& model, const std::vector<Prepared>& graphs, int beamWidth) {
    at::NoGradGuard noGrad;
    std::vector<double> peaks;
    const size_t chunk = 16;
    for (size_t i = 0; i < graphs.size(); i += chunk) {
        const std::vector<Prepared> part(graphs.begin() + static_cast<std::ptrdiff_t>(i),
                                         graphs.begin() + static_cast<std::ptrdiff_t>(std::min(graphs.size(), i + chunk)));
        const at::Tensor y = model->forward(batchOf(part));
        for (size_t j = 0; j < part.size(); ++j) {
            const Graph& g = *part[j].graph;
            const std::vector<double> priority = rowPriorities(y[static_cast<std::int64_t>(j)], g.opCount());
            peaks.push_back(beamWidth > 0 ? beamSearch(g, priority, beamWidth).peak
                                          : orderPeak(g, greedyOrder(g, priority)));
        }
    }
    return peaks;
}

double meanOf(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

TopoformerData::TopoformerData(const TopoformerTrainConfig& c, const TopoformerConfig& model,
                               const std::function<void(const std::string&)>& log)
    : m_c(c), m_model(model) {
    for (const std::string& file : c.labels.empty() ? std::vector<std::string>{} : splitList(c.labels)) {
        const LabelSetSize size{.train = c.labelSteps, .validation = c.labelValidation, .mix = c.labelMix, .threads = c.labelThreads};
        m_labelSets.push_back(loadOrBuildLabelSet(file, size, log));
        m_labelFiles.push_back(std::filesystem::path(file).filename().string());
    }
    for (size_t k = 0; k < m_labelSets.size(); ++k) {
        for (const LabelledStep& s : m_labelSets[k].validation) {
            m_validation.push_back(prepare(graphOf(s.spec), 0, &s));
            m_reference.push_back(s.peak);
            m_validationSet.push_back(static_cast<int>(k));
        }
    }
    if (labelled()) return;
    for (int i = 0; i < c.validationGraphs; ++i) {   // a fixed validation set and the best classic order on each
        GeneratedInstance inst = generateLayered(c.validationNodes, kValidationSeedBase + static_cast<std::uint64_t>(i));
        m_reference.push_back(bestClassicMemoryOrder(*inst.graph).peak);
        m_validation.push_back(prepare(inst.graph, 0));
        m_validationSet.push_back(0);
    }
}

Prepared TopoformerData::prepare(std::shared_ptr<Graph> g, std::uint64_t peSeed, const LabelledStep* label) const {
    EncoderInput input = topoformerInput(*g, m_model, peSeed);
    return {std::move(g), std::move(input), label};
}

std::vector<Prepared> TopoformerData::batch(std::int64_t step, std::uint64_t seed) const {
    const std::uint64_t stepSeed = mixSeeds(seed, static_cast<std::uint64_t>(step));
    Rng rng(stepSeed);
    std::vector<Prepared> batch;
    for (int b = 0; b < m_c.batch; ++b) {
        const std::uint64_t gseed = kTrainSeedBase + (mixSeeds(stepSeed, static_cast<std::uint64_t>(b)) % kTrainSeedBase);
        if (labelled()) {   // entry b from set b mod k: every set has its share of each batch
            const auto& train = m_labelSets[static_cast<size_t>(b) % m_labelSets.size()].train;
            const LabelledStep& s = train[static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(train.size()) - 1))];
            batch.push_back(prepare(graphOf(s.spec), gseed, &s));
        } else {
            const int n = static_cast<int>(rng.integer(m_c.minNodes, m_c.maxNodes));
            batch.push_back(prepare(generateLayered(n, gseed).graph, gseed));
        }
    }
    return batch;
}

std::vector<double> TopoformerData::meanGapPerSet(const std::vector<double>& peaks) const {
    const size_t sets = std::max<size_t>(1, m_labelSets.size());
    std::vector<double> sum(sets, 0.0), count(sets, 0.0);
    for (size_t i = 0; i < peaks.size(); ++i) {
        const auto k = static_cast<size_t>(m_validationSet[i]);
        sum[k] += (peaks[i] - m_reference[i]) / m_reference[i];
        count[k] += 1;
    }
    for (size_t k = 0; k < sets; ++k) sum[k] = count[k] > 0 ? 100 * sum[k] / count[k] : 0;
    return sum;
}

double TopoformerData::meanGap(const std::vector<double>& peaks) const {
    const std::vector<double> perSet = meanGapPerSet(peaks);
    return *std::max_element(perSet.begin(), perSet.end());
}

std::string TopoformerData::gapsBySet(const std::vector<double>& peaks) const {
    if (m_labelSets.size() < 2) return "";
    const std::vector<double> perSet = meanGapPerSet(peaks);
    std::string text = "; per set:";
    for (size_t k = 0; k < perSet.size(); ++k) text += (k ? ", " : " ") + m_labelFiles[k] + " " + formatText("%+.2f", perSet[k]) + "%";
    return text;
}

double TopoformerData::worstGap(const std::vector<double>& peaks) const {
    double worst = -kInfinity;
    for (size_t i = 0; i < peaks.size(); ++i) worst = std::max(worst, 100 * (peaks[i] - m_reference[i]) / m_reference[i]);
    return worst;
}

namespace {

std::string labelSetGraphs(LabelMix mix) {
    switch (mix) {
    case LabelMix::Networks:
        return "nn SGD/Adam steps of 30-400 forward ops and layered graphs of 50-100 ops, seeds " +
            std::to_string(kLabelTrainSeedBase) + " + i";
    case LabelMix::CompiledSteps:
        return "HLO MLP and transformer SGD/Adam steps from generate hlo-step, seeds " +
            std::to_string(kCompiledLabelTrainSeedBase) + " + i";
    case LabelMix::ModelShapes:
        return "HLO transformer SGD/Adam steps of 1-2 blocks shaped as GPT-2, BERT base, Llama 2 7B, GPT-J 6B and a tiny "
               "Llama, seeds " +
            std::to_string(kShapedLabelTrainSeedBase) + " + i";
    }
    return "";
}

}   // namespace

std::string TopoformerData::describe() const {
    std::string text;
    for (size_t k = 0; k < m_labelSets.size(); ++k) {
        const LabelSet& set = m_labelSets[k];
        int proven = 0;
        for (const LabelledStep& s : set.train) proven += s.optimal;
        text += (k ? "; " : "") + std::string("label set ") + m_labelFiles[k] +
            " (models/topoformer/labelset.h): " + std::to_string(set.train.size()) + " training entries (" +
            std::to_string(proven) + " proven optimal by exact-memory, the others its best order; " +
            labelSetGraphs(set.mix) + "), " + std::to_string(set.validation.size()) +
            " validation steps (other seeds), built in " + formatText("%.0f", set.seconds) + " s on " +
            std::to_string(set.threads) + " thread(s)";
    }
    if (!text.empty()) return text;
    return "layered graphs (Gagrani et al., NeurIPS 2022; core/generators generateLayered), " + std::to_string(m_c.minNodes) +
           "-" + std::to_string(m_c.maxNodes) + " ops, fresh each step, seeds " + std::to_string(kTrainSeedBase) +
           " + mix(seed, step, i); validation " + std::to_string(m_c.validationGraphs) + " graphs of " +
           std::to_string(m_c.validationNodes) + " ops, seeds " + std::to_string(kValidationSeedBase) + " + i";
}

} // namespace sl::models

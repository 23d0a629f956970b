// SPDX-License-Identifier: MIT
#include "models/gflownet/trainingmethods.h"

#include "models/gflownet/datasets.h"
#include "models/gflownet/policy.h"
#include "models/gflownet/readypolicy.h"

#include "models/train/trainers.h"

#include "core/gflownet/environment.h"
#include "core/gflownet/subgraph.h"
#include "core/heuristics/evaluate.h"
#include "core/heuristics/priorities.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace sl::gfn {

namespace {
std::string joined(const std::vector<std::string>& items, const char* separator) {
    std::string out;
    for (const auto& s : items) out += (out.empty() ? "" : separator) + s;
    return out;
}
} // namespace

TrainingSet makeTrainingSet(const GflowNetTrainConfig& c) {
    TrainingSet d;
    if (!c.graphFile.empty()) {
        d.train.push_back(fileProblem(c.graphFile, c.minDevices));
        d.validation = d.train;
        d.validationNames.push_back(std::filesystem::path(c.graphFile).filename().string());
        d.description = models::formatText("single graph %s (%d ops) on %d identical devices",
                                           d.validationNames[0].c_str(), d.train[0].g().opCount(), c.minDevices);
    } else {
        // Graph i: family i mod F, size and device count from its own stream.
        auto make = [&](std::uint64_t seed, int i) {
            Rng rng(deriveSeed(seed, 0x512E));
            const int nodes = static_cast<int>(rng.integer(c.minNodes, c.maxNodes));
            const int devices = static_cast<int>(rng.integer(c.minDevices, c.maxDevices));
            return trainingProblem(c.families[static_cast<size_t>(i) % c.families.size()], nodes, devices, seed);
        };
        for (int i = 0; i < c.graphs; ++i) d.train.push_back(make(1000000 + static_cast<std::uint64_t>(i), i));
        for (int i = 0; i < c.validationGraphs; ++i) {
            d.validation.push_back(make(2000000 + static_cast<std::uint64_t>(i), i));
            d.validationNames.push_back(c.families[static_cast<size_t>(i) % c.families.size()]);
        }
        d.description = models::formatText("%d generated graphs (%s, %d-%d ops, %d-%d identical devices, seeds 1000000..), "
                                           "%d validation graphs (seeds 2000000..)",
                                           c.graphs, joined(c.families, ",").c_str(), c.minNodes, c.maxNodes, c.minDevices,
                                           c.maxDevices, c.validationGraphs);
    }
    for (const std::string& file : c.validationFiles) {
        d.validation.push_back(fileProblem(file, c.maxDevices));
        d.validationNames.push_back(std::filesystem::path(file).filename().string());
    }
    if (!c.validationFiles.empty())
        d.description += models::formatText("; validated on %zu files too", c.validationFiles.size());
    if (c.subgraphMax > 0) d.description += models::formatText("; sub-graphs of %d-%d ops per step", c.subgraphMin, c.subgraphMax);
    return d;
}

StepDraw GflowNetMethod::drawStep(std::int64_t step, std::uint64_t rankSeed) const {
    StepDraw d;
    d.seed = deriveSeed(rankSeed, static_cast<std::uint64_t>(step));
    Rng rng(d.seed);
    d.graph = static_cast<size_t>(rng.integer(0, static_cast<std::int64_t>(m_data.train.size()) - 1));
    d.problem = m_data.train[d.graph];
    if (m_c.subgraphMax > 0) {
        const int k = static_cast<int>(rng.integer(m_c.subgraphMin, m_c.subgraphMax));
        d.problem = inducedSubProblem(d.problem, randomWindow(d.problem.g(), k, rng));
        d.subgraph = true;
    }
    d.sigma = std::exp(rng.uniform(std::log(m_c.sigmaMin), std::log(m_c.sigmaMax)));
    return d;
}

std::vector<double> GflowNetMethod::stepStats(const std::vector<double>& speedups, const torch::Tensor& zeta, const StepDraw& d) {
    double sum = 0, best = 0;
    for (double u : speedups) sum += u, best = std::max(best, u);
    const torch::Tensor z = zeta.detach();
    return {sum / static_cast<double>(speedups.size()), best, z.std(/*unbiased=*/false).item<double>(), z.mean().item<double>(),
            static_cast<double>(d.problem.g().opCount()), static_cast<double>(d.problem.platform.deviceCount()), d.sigma};
}

std::string GflowNetMethod::describeWindow(const std::vector<double>& m) const {
    return models::formatText("mean U %.4f  best U %.4f  std(zeta) %.3f  mean zeta %.2f  (mean n %.0f, m %.1f, sigma %.4f)",
                              m[0], m[1], m[2], m[3], m[4], m[5], m[6]);
}

models::Validation GflowNetMethod::validate() {
    if (m_listSpeedups.empty())
        for (const Problem& p : m_data.validation)
            m_listSpeedups.push_back(ScheduleEnv(p).speedup(PriorityEvaluator(p).cost(criticalPathPriorities(p.g()))));
    double mean = 0, best = 0, list = 0, logRatio = 0;
    std::string perGraph;
    for (size_t g = 0; g < m_data.validation.size(); ++g) {
        const Problem& p = m_data.validation[g];
        std::vector<std::uint64_t> seeds;
        for (int i = 0; i < m_c.evalSamples; ++i) seeds.push_back(deriveSeed(0x5A11 + g, static_cast<std::uint64_t>(i)));
        const std::vector<double> u = sampleSpeedups(p, 0.005, seeds);
        double sum = 0, top = 0;
        for (double x : u) sum += x, top = std::max(top, x);
        const double listU = m_listSpeedups[g];
        mean += sum / static_cast<double>(u.size());
        best += top;
        list += listU;
        logRatio += std::log(top / listU);
        perGraph += models::formatText("%s\"%s %d\": %.4f", perGraph.empty() ? "" : ", ", m_data.validationNames[g].c_str(),
                                       p.g().opCount(), top / listU);
    }
    const double n = static_cast<double>(std::max<size_t>(m_data.validation.size(), 1));
    models::Validation v;
    v.score = logRatio / n;
    v.summary = models::formatText("sigma 0.005, %d samples: mean U %.4f, best U %.4f, list-cp U %.4f; top-1 / list-cp %.4f",
                                   m_c.evalSamples, mean / n, best / n, list / n, std::exp(v.score));
    v.resultsJson = models::formatText("{\"validation_sigma\": 0.005, \"validation_samples\": %d, \"validation_mean_speedup\": %.4f, "
                                       "\"validation_best_speedup\": %.4f, \"validation_list_cp_speedup\": %.4f, "
                                       "\"validation_top1_vs_list_cp\": %.4f, \"per_graph_top1_vs_list_cp\": {",
                                       m_c.evalSamples, mean / n, best / n, list / n, std::exp(v.score)) +
                    perGraph + "}}";
    return v;
}

models::ModelCard GflowNetMethod::card() const {
    models::ModelCard card;
    card.model = m_c.architecture == "ready" ? kReadyWeightKind : kWeightKind;
    card.architecture = architectureJson();
    card.features = featuresText();
    card.data = m_data.description;
    card.notes = (m_c.initWeights.empty() ? std::string()
                                          : "Initialised from " + std::filesystem::path(m_c.initWeights).filename().string() +
                                                " (fine-tuning, fresh Adam). ") +
                 models::formatText("%s, batch %d, sigma log-uniform in [%g, %g], Adam lr %g, clip %g (0 = off), seed %llu, "
                                    "%d math thread(s). Speedups are proxy speedups U = sum of durations / makespan; the "
                                    "shipped weights are the checkpoint with the best top-1 / list-cp on validation.",
                                    objectiveText().c_str(), m_c.batch, m_c.sigmaMin, m_c.sigmaMax, m_c.learningRate, m_c.clipNorm,
                                    static_cast<unsigned long long>(m_c.seed), m_c.threads);
    return card;
}

void applyEncoderSize(const GflowNetTrainConfig& c, models::EncoderConfig& e) {
    e.width = c.width;
    e.layers = c.layers;
    e.headsPerMask.fill(c.headsPerMask);
    e.headDim = c.headDim;
    e.mlpHidden = c.mlpHidden;
    e.filmDim = c.filmDim;
}

void copyParameters(torch::nn::Module& to, const torch::nn::Module& from) {
    const torch::NoGradGuard noGrad;
    const std::vector<torch::Tensor> target = to.parameters(), source = from.parameters();
    for (size_t i = 0; i < target.size(); ++i) target[i].copy_(source[i]);
}

std::string initialisedText(const std::string& file, const std::string& data, const std::string& before) {
    return data + "; initialised from " + std::filesystem::path(file).filename().string() + ", trained on " + before;
}

} // namespace sl::gfn

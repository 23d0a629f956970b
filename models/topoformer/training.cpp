// SPDX-License-Identifier: MIT
// REINFORCE with a greedy-rollout baseline for the Topoformer memory model (spec §4, §9.1).
#include "models/topoformer/training.h"

#include "models/topoformer/decoding.h"
#include "models/topoformer/model.h"

#include "models/distributed/checkpoint.h"
#include "models/distributed/dataparallel.h"
#include "models/encoder/maththreads.h"

#include "core/generators/generators.h"
#include "core/heuristics/memoryorders.h"
#include "core/util/atomicfile.h"
#include "core/util/random.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <torch/nn/utils/clip_grad.h>
#include <torch/optim/adam.h>
#include <torch/serialize.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace sl::models {

namespace {

struct Prepared {
    std::shared_ptr<Graph> graph;
    EncoderInput input;
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ULL ^ (b + 0x7F4A7C159E3779B9ULL + (a << 6) + (a >> 2));
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 29;
    return x | 1;   // non-zero: also used as a PE sign seed
}

std::vector<double> rowPriorities(const at::Tensor& y, int n) {
    const at::Tensor row = y.narrow(0, 0, n).detach().to(at::kDouble).contiguous();
    const double* p = row.data_ptr<double>();
    return {p, p + n};
}

/// Greedy peaks of `model` on prepared graphs, batched, no gradients.
std::vector<double> greedyPeaks(TopoformerModel& model, const std::vector<Prepared>& graphs) {
    at::NoGradGuard noGrad;
    std::vector<double> peaks;
    const size_t chunk = 16;
    for (size_t i = 0; i < graphs.size(); i += chunk) {
        std::vector<EncoderInput> inputs;
        for (size_t j = i; j < std::min(graphs.size(), i + chunk); ++j) inputs.push_back(graphs[j].input);
        const at::Tensor y = model->forward(batchInputs(inputs));
        for (size_t j = i; j < std::min(graphs.size(), i + chunk); ++j) {
            const Graph& g = *graphs[j].graph;
            const std::vector<double> prio = rowPriorities(y[static_cast<std::int64_t>(j - i)], g.opCount());
            peaks.push_back(orderPeak(g, greedyOrder(g, prio)));
        }
    }
    return peaks;
}

double mean(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// One-sided paired test that `a` is lower than `b` on average (normal approximation of the t
/// distribution; the validation set has >= 100 graphs). Returns the p-value.
double pairedPValue(const std::vector<double>& a, const std::vector<double>& b) {
    const size_t n = a.size();
    if (n < 2) return 1;
    std::vector<double> d(n);
    for (size_t i = 0; i < n; ++i) d[i] = a[i] - b[i];
    const double m = mean(d);
    double ss = 0;
    for (double x : d) ss += (x - m) * (x - m);
    const double sd = std::sqrt(ss / static_cast<double>(n - 1));
    if (sd == 0) return m < 0 ? 0 : 1;
    const double t = m / (sd / std::sqrt(static_cast<double>(n)));
    return 0.5 * std::erfc(-t / std::sqrt(2.0));
}

void copyWeights(TopoformerModel& from, TopoformerModel& to) {
    at::NoGradGuard noGrad;
    auto src = from->named_parameters(true);
    for (auto& p : to->named_parameters(true)) p.value().copy_(src[p.key()]);
}

double bestClassicPeak(const Graph& g) {
    double best = kInfinity;
    for (auto* rule : {&dfsOrder, &bfsOrder, &postOrder, &xlaListOrder}) best = std::min(best, orderPeak(g, (*rule)(g)));
    return best;
}

std::string fmt(const char* format, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, format, x);
    return buf;
}

} // namespace

TopoformerTrainReport trainTopoformer(const TopoformerTrainConfig& c, const std::function<void(const std::string&)>& log,
                                      std::stop_token stop) {
    if (c.out.empty()) throw std::invalid_argument("train topoformer: --out is required");
    if (c.samplesPerGraph < 1 || c.minNodes < 2 || c.maxNodes < c.minNodes || c.batch < 1 || c.epochSteps < 1 || c.steps < 0 ||
        c.validationGraphs < 2 || c.validationNodes < 2)
        throw std::invalid_argument("train topoformer: bad sizes (nodes, batch, epoch steps, validation)");
    const MathThreads pin(c.threads);   // LibTorch and OpenBLAS: results do not depend on the environment
    DataParallel dp(c.dist);   // the rendezvous first: a missing peer fails before any work
    const auto begin = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count(); };

    const TopoformerConfig mc = topoformerModelConfig(c);
    at::manual_seed(c.seed);
    TopoformerModel model(mc);
    TopoformerModel baseline(mc);
    copyWeights(model, baseline);
    torch::optim::Adam adam(model->parameters(), torch::optim::AdamOptions(c.learningRate));

    const std::string ckpt = c.out + ".ckpt";
    std::int64_t step = 0;
    double lr = c.learningRate, priorSeconds = 0, bestVal = kInfinity, bestGap = 0;
    int baselineUpdates = 0;
    if (c.resume) {
        if (!std::filesystem::exists(ckpt + ".json"))
            throw std::runtime_error("train topoformer: no checkpoint at '" + ckpt + ".json' to resume from");
        const nlohmann::json st = nlohmann::json::parse(readFile(ckpt + ".json"));
        step = st.at("step").get<std::int64_t>();
        lr = st.at("lr").get<double>();
        priorSeconds = st.at("seconds").get<double>();
        bestVal = st.at("best_validation").get<double>();
        bestGap = st.at("best_validation_gap").get<double>();
        baselineUpdates = st.at("baseline_updates").get<int>();
        loadWeights(*model, ckpt + ".model", kTopoformerKind);
        loadWeights(*baseline, ckpt + ".baseline", kTopoformerKind);
        torch::load(adam, ckpt + ".adam");
        for (auto& group : adam.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
        log("resumed from " + ckpt + " at step " + std::to_string(step));
    }

    const std::vector<at::Tensor> params = model->parameters();
    dp.requireSameStep(step);
    dp.broadcastParameters(params);
    dp.broadcastParameters(baseline->parameters());
    const std::uint64_t seed = dp.seed(c.seed);   // this rank's batches
    if (dp.distributed())
        log("data-parallel: " + dp.options().describe() + "; each rank draws its own graphs, so a step averages " +
            std::to_string(dp.worldSize()) + " x " + std::to_string(c.batch) + " graphs; every rank validates (the baseline "
            "updates and the learning rate follow it), rank 0 writes");

    TopoformerTrainReport report;
    // Fixed validation set and the best classic order on each graph.
    std::vector<Prepared> validation;
    std::vector<double> classic;
    for (int i = 0; i < c.validationGraphs; ++i) {
        GeneratedInstance inst = generateLayered(c.validationNodes, kValidationSeedBase + static_cast<std::uint64_t>(i));
        classic.push_back(bestClassicPeak(*inst.graph));
        validation.push_back({inst.graph, topoformerInput(*inst.graph, mc)});
    }
    auto gapOf = [&](const std::vector<double>& peaks) {
        double s = 0;
        for (size_t i = 0; i < peaks.size(); ++i) s += (peaks[i] - classic[i]) / classic[i];
        return 100 * s / static_cast<double>(peaks.size());
    };
    std::vector<double> baselineVal = greedyPeaks(baseline, validation);
    report.initialValidation = mean(baselineVal);
    log("validation: " + std::to_string(c.validationGraphs) + " layered graphs of " + std::to_string(c.validationNodes) +
        " ops; best classic order mean peak " + fmt("%.3f", mean(classic)) + "; baseline greedy " +
        fmt("%.3f", mean(baselineVal)) + " (" + fmt("%+.2f", gapOf(baselineVal)) + "%)");

    double epochCost = 0, epochLoss = 0;
    int epochCount = 0;
    auto saveBest = [&](double val, double gap) {
        if (!dp.isRoot()) return;
        saveTopoformer(model, c.out);
        ModelCard card;
        card.model = kTopoformerKind;
        card.architecture = mc.toJson();
        card.features = mc.features.describe();
        card.command = c.command;
        card.data = "layered graphs (spec/topoformer.md §6.1, core/generators generateLayered), " +
                    std::to_string(c.minNodes) + "-" + std::to_string(c.maxNodes) + " ops, fresh each step, seeds " +
                    std::to_string(kTrainSeedBase) + " + mix(seed, step, i); validation " +
                    std::to_string(c.validationGraphs) + " graphs of " + std::to_string(c.validationNodes) +
                    " ops, seeds " + std::to_string(kValidationSeedBase) + " + i";
        card.steps = step;
        card.seconds = priorSeconds + elapsed();
        card.worldSize = dp.worldSize();
        nlohmann::json r;
        r["validation_mean_greedy_peak"] = val;
        r["validation_gap_vs_best_classic_percent"] = gap;
        r["validation_best_classic_mean_peak"] = mean(classic);
        r["baseline_updates"] = baselineUpdates;
        r["batch"] = c.batch;
        r["samples_per_graph"] = c.samplesPerGraph;
        r["learning_rate"] = c.learningRate;
        card.results = r.dump();
        writeModelCard(card, c.out + ".card.json");
    };

    while (step < c.steps && !dp.anyStops(stop.stop_requested())) {
        // ---- one REINFORCE step on a fresh batch ----
        Rng rng(mix(seed, static_cast<std::uint64_t>(step)));
        std::vector<Prepared> batch;
        std::vector<EncoderInput> inputs;
        for (int b = 0; b < c.batch; ++b) {
            const int n = static_cast<int>(rng.integer(c.minNodes, c.maxNodes));
            const std::uint64_t gseed = kTrainSeedBase + (mix(mix(seed, static_cast<std::uint64_t>(step)), static_cast<std::uint64_t>(b)) % kTrainSeedBase);
            GeneratedInstance inst = generateLayered(n, gseed);
            batch.push_back({inst.graph, topoformerInput(*inst.graph, mc, gseed)});
            inputs.push_back(batch.back().input);
        }
        const EncoderInput in = batchInputs(inputs);
        std::vector<double> base(static_cast<size_t>(c.batch));
        {
            at::NoGradGuard noGrad;
            const at::Tensor yb = baseline->forward(in);
            for (int b = 0; b < c.batch; ++b) {
                const Graph& g = *batch[static_cast<size_t>(b)].graph;
                base[static_cast<size_t>(b)] = orderPeak(g, greedyOrder(g, rowPriorities(yb[b], g.opCount())));
            }
        }
        const at::Tensor y = model->forward(in);
        std::vector<std::vector<SampledOrder>> samples(static_cast<size_t>(c.batch));
        double costSum = 0;
        for (int b = 0; b < c.batch; ++b) {
            const Graph& g = *batch[static_cast<size_t>(b)].graph;
            const std::vector<double> prio = rowPriorities(y[b], g.opCount());
            for (int k = 0; k < c.samplesPerGraph; ++k) {
                SampledOrder s;
                s.order = sampleOrder(g, prio, rng, &s.ready);
                s.cost = orderPeak(g, s.order);
                costSum += s.cost / c.samplesPerGraph;
                samples[static_cast<size_t>(b)].push_back(std::move(s));
            }
        }
        const at::Tensor loss = reinforceLoss(y, samples, base, c.relativeAdvantage);
        adam.zero_grad();
        loss.backward();
        dp.averageGradients(params);
        torch::nn::utils::clip_grad_norm_(model->parameters(), c.clipNorm);
        adam.step();
        ++step;
        epochCost += costSum / c.batch;
        epochLoss += loss.item<double>();
        ++epochCount;

        // ---- epoch end: validation, baseline update, lr decay, checkpoint ----
        if (step % c.epochSteps == 0 || step == c.steps) {
            dp.requireIdenticalParameters(params);
            const std::vector<double> epochMeans = dp.mean({epochCost, epochLoss});
            epochCost = epochMeans[0];
            epochLoss = epochMeans[1];
            const std::vector<double> val = greedyPeaks(model, validation);
            const double valMean = mean(val), gap = gapOf(val);
            const double p = pairedPValue(val, baselineVal);
            bool updated = false;
            if (mean(val) < mean(baselineVal) && p < c.pValue) {
                copyWeights(model, baseline);
                baselineVal = val;
                ++baselineUpdates;
                updated = true;
            }
            if (valMean < bestVal) {
                bestVal = valMean;
                bestGap = gap;
                saveBest(valMean, gap);
            }
            lr *= c.lrDecay;
            for (auto& group : adam.param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
            const double meanCost = epochCost / epochCount;
            if (report.firstMeanCost == 0) report.firstMeanCost = meanCost;
            report.lastMeanCost = meanCost;
            log("step " + std::to_string(step) + "  loss " + fmt("%.4f", epochLoss / epochCount) + "  mean-cost " +
                fmt("%.3f", meanCost) + "  val-cost " + fmt("%.3f", valMean) + " (" + fmt("%+.2f", gap) +
                "% vs best classic)  baseline " + fmt("%.3f", mean(baselineVal)) + (updated ? " updated" : "") +
                "  best " + fmt("%.3f", bestVal) + "  lr " + fmt("%.2e", lr) + "  " +
                fmt("%.0f", priorSeconds + elapsed()) + " s");
            epochCost = epochLoss = 0;
            epochCount = 0;
            if (dp.isRoot()) {   // checkpoint: model, baseline, Adam state and the counters
                saveTopoformer(model, ckpt + ".model");
                saveTopoformer(baseline, ckpt + ".baseline");
                saveOptimizerState(adam, ckpt + ".adam");
                nlohmann::json st;
                st["step"] = step;
                st["lr"] = lr;
                st["seconds"] = priorSeconds + elapsed();
                st["best_validation"] = bestVal;
                st["best_validation_gap"] = bestGap;
                st["baseline_updates"] = baselineUpdates;
                writeFileAtomically(ckpt + ".json", st.dump(2) + "\n");
            }
            if (dp.anyStops(c.timeLimit > 0 && elapsed() >= c.timeLimit)) {
                log("time limit reached");
                break;
            }
        }
    }
    report.steps = step;
    report.seconds = priorSeconds + elapsed();
    report.bestValidation = bestVal;
    report.bestValidationGap = bestGap;
    return report;
}

} // namespace sl::models

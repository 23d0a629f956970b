// SPDX-License-Identifier: MIT
#include "models/train/loop.h"

#include "models/distributed/checkpoint.h"
#include "models/distributed/dataparallel.h"
#include "models/encoder/maththreads.h"
#include "models/train/trainers.h"

#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <chrono>
#include <filesystem>
#include <fstream>

namespace sl::models {

namespace {

/// Sums over one logging window: the method's stats, then the loss, the gradient norm and the clipped steps.
struct Window {
    std::vector<double> sums;
    int steps = 0;
    void add(const StepResult& r, double loss, double norm, bool clipped) {
        if (sums.empty()) sums.assign(r.stats.size() + 3, 0.0);
        for (size_t i = 0; i < r.stats.size(); ++i) sums[i] += r.stats[i];
        sums[r.stats.size()] += loss;
        sums[r.stats.size() + 1] += norm;
        sums[r.stats.size() + 2] += clipped ? 1 : 0;
        ++steps;
    }
};

class Loop {
public:
    Loop(const LoopSettings& s, DataParallel& dp, TrainingMethod& m, const LogFn& log)
        : m_s(s), m_dp(dp), m_method(m), m_log(log), m_ckpt(s.out + ".ckpt") {}

    LoopReport run(std::stop_token stop) {
        resumeIfAsked();
        m_params = m_method.parameters();
        m_adam = std::make_unique<torch::optim::Adam>(m_params, torch::optim::AdamOptions(m_s.learningRate));
        if (m_resumed) {
            torch::load(*m_adam, m_ckpt + ".adam");
            setLearningRate();
        }
        m_dp.requireSameStep(m_step);
        m_dp.broadcastParameters(m_params);
        if (const std::vector<torch::Tensor> shared = m_method.sharedState(); !shared.empty()) m_dp.broadcastParameters(shared);
        if (m_dp.distributed())
            m_log("data-parallel: " + m_dp.options().describe() + "; each rank draws its own batch, so a step averages " +
                  std::to_string(m_dp.worldSize()) + " batches; rank 0 validates and writes");
        // Every rank stops at the same step: one rank's time limit or Ctrl-C stops all.
        const auto stopping = [&] {
            return m_dp.anyStops(stop.stop_requested() || (m_s.timeLimit > 0 && seconds() >= m_s.timeLimit));
        };
        if (m_s.validateAtStart && m_step == 0 && m_dp.isRoot()) {
            const torch::NoGradGuard noGrad;
            m_log("validation before the first step: " + m_method.validate().summary);
        }
        bool stopNow = stopping(), checkpointed = false;
        Window window;
        while (m_step < m_s.steps && !stopNow) {
            trainOneStep(window);
            stopNow = stopping();
            const bool last = m_step == m_s.steps || stopNow;
            if (m_step % m_s.logEvery == 0 || last) logWindow(window);
            if (m_step % m_s.validateEvery == 0 || last) checkpoint(), checkpointed = true;
        }
        if (!checkpointed) checkpoint();   // no step ran (resumed at the end): still weights and a card
        m_report.steps = m_step;
        m_report.seconds = seconds();
        return m_report;
    }

private:
    /// The method's rate if it sets one, else the settings'.
    void setLearningRate() {
        const double lr = m_method.learningRate().value_or(m_s.learningRate);
        for (auto& group : m_adam->param_groups()) static_cast<torch::optim::AdamOptions&>(group.options()).lr(lr);
    }

    double seconds() const {
        return m_secondsBefore + std::chrono::duration<double>(std::chrono::steady_clock::now() - m_t0).count();
    }

    void resumeIfAsked() {
        m_resumed = m_s.resume && std::filesystem::exists(m_ckpt + ".json");
        if (!m_resumed) return;
        std::ifstream in(m_ckpt + ".json");
        const auto state = nlohmann::json::parse(in);
        m_method.restore(m_ckpt);
        m_step = state.at("step").get<std::int64_t>();
        m_secondsBefore = state.at("seconds").get<double>();
        m_report.bestStep = state.value("best_step", std::int64_t(-1));
        if (m_report.bestStep >= 0) m_report.bestScore = state.at("best_score").get<double>();
        if (!m_method.bestStillComparable()) {
            m_report.bestStep = -1;
            m_report.bestScore = -std::numeric_limits<double>::infinity();
        }
        m_log(formatText("resumed from %s at step %lld", (m_ckpt + ".json").c_str(), static_cast<long long>(m_step)));
    }

    void trainOneStep(Window& window) {
        StepResult r = m_method.step(m_step, m_dp.seed(m_s.seed));
        m_adam->zero_grad();
        r.loss.backward();
        m_dp.averageGradients(m_params);
        const double clip = m_s.clipNorm > 0 ? m_s.clipNorm : std::numeric_limits<double>::infinity();
        const double norm = torch::nn::utils::clip_grad_norm_(m_params, clip);
        m_adam->step();
        ++m_step;
        window.add(r, r.loss.item<double>(), norm, norm > clip);
    }

    void logWindow(Window& w) {
        if (w.steps == 0) return;
        std::vector<double> means = m_dp.mean(w.sums);
        for (double& x : means) x /= w.steps;
        const size_t k = means.size() - 3;
        const std::vector<double> stats(means.begin(), means.begin() + static_cast<std::ptrdiff_t>(k));
        if (m_report.firstWindow.empty()) m_report.firstWindow = stats;
        m_report.lastWindow = stats;
        m_log(formatText("step %6lld  loss %.4g  ", static_cast<long long>(m_step), means[k]) + m_method.describeWindow(stats) +
              formatText("  |grad| %.3g  clipped %d/%d  %.0f s", means[k + 1], static_cast<int>(w.sums[k + 2]), w.steps, seconds()));
        w = Window{};
    }

    void checkpoint() {
        m_dp.requireIdenticalParameters(m_params);
        if (!m_dp.isRoot() && !m_s.validateOnEveryRank) return;   // rank 0 validates and writes
        const Validation v = [&] {
            const torch::NoGradGuard noGrad;
            return m_method.validate();
        }();
        setLearningRate();
        if (!m_dp.isRoot()) return;
        m_report.last = v;
        const bool best = v.score > m_report.bestScore || !std::filesystem::exists(m_s.out);
        if (best) {
            m_report.bestScore = v.score;
            m_report.bestStep = m_step;
            m_report.best = v;
            m_method.saveModel(m_s.out);
            writeCard(v);
        }
        m_method.saveCheckpoint(m_ckpt);
        saveOptimizerState(*m_adam, m_ckpt + ".adam");
        const nlohmann::json state{{"step", m_step}, {"seconds", seconds()}, {"seed", m_s.seed},
                                   {"best_score", m_report.bestScore}, {"best_step", m_report.bestStep}};
        writeFileAtomically(m_ckpt + ".json", state.dump(2));
        m_log(formatText("validation at step %lld: ", static_cast<long long>(m_step)) + v.summary +
              (best ? "  (best so far: shipped)" : "") + formatText("  %.0f s", seconds()));
    }

    void writeCard(const Validation& v) {
        ModelCard card = m_method.card();
        card.command = m_s.command;
        card.steps = m_step;
        card.seconds = seconds();
        card.worldSize = m_dp.worldSize();
        card.results = v.resultsJson;
        writeModelCard(card, m_s.out + ".card.json");
    }

    const LoopSettings& m_s;
    DataParallel& m_dp;
    TrainingMethod& m_method;
    const LogFn& m_log;
    const std::string m_ckpt;
    const std::chrono::steady_clock::time_point m_t0 = std::chrono::steady_clock::now();
    double m_secondsBefore = 0;
    std::int64_t m_step = 0;
    bool m_resumed = false;
    std::vector<torch::Tensor> m_params;
    std::unique_ptr<torch::optim::Adam> m_adam;
    LoopReport m_report;
};

} // namespace

LoopReport runTrainingLoop(const LoopSettings& settings, const MethodFactory& makeMethod, const LogFn& log,
                           std::stop_token stop) {
    if (settings.out.empty()) throw std::invalid_argument("train " + settings.method + ": no output path (--out FILE)");
    if (settings.logEvery < 1 || settings.validateEvery < 1 || settings.steps < 0)
        throw std::invalid_argument("train " + settings.method + ": --log-every and --checkpoint-every >= 1, --steps >= 0");
    const MathThreads pin(settings.threads);   // results do not depend on the environment's thread settings
    DataParallel dp(settings.dist);            // the rendezvous first: a missing peer fails before any work
    torch::manual_seed(settings.seed);
    const std::unique_ptr<TrainingMethod> method = makeMethod(dp);
    return Loop(settings, dp, *method, log).run(stop);
}

} // namespace sl::models

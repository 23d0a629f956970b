// SPDX-License-Identifier: MIT
#include "models/gflownet/training.h"

#include "models/gflownet/trainingmethods.h"

#include "models/train/trainers.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

namespace sl::gfn {

GflowNetTrainReport trainGflowNet(const GflowNetTrainConfig& cfg, const std::function<void(const std::string&)>& log,
                                  std::stop_token stop) {
    if (cfg.batch < 2) throw std::invalid_argument("train gflownet: --batch must be at least 2 (LV needs a mean)");
    if (!(cfg.sigmaMin > 0 && cfg.sigmaMax >= cfg.sigmaMin)) throw std::invalid_argument("train gflownet: 0 < sigma-min <= sigma-max");
    const bool ready = cfg.architecture == "ready";
    if (!ready && cfg.architecture != "per-state")
        throw std::invalid_argument("train gflownet: --architecture is ready or per-state");
    if (ready && cfg.trajectoryBalance)
        throw std::invalid_argument("train gflownet: the ready architecture trains with LV (a uniform P_B); TB needs --architecture per-state");
    models::LoopSettings s = models::loopSettings("gflownet", cfg);
    s.logEvery = cfg.logEvery;
    s.validateEvery = cfg.checkpointEvery;
    s.validateAtStart = cfg.steps > 0;
    const models::LoopReport loop = models::runTrainingLoop(s, [&](models::DataParallel&) {
        TrainingSet data = makeTrainingSet(cfg);
        log("data: " + data.description);
        if (!cfg.initWeights.empty()) log("initialised from " + cfg.initWeights);
        return ready ? makeReadyMethod(cfg, std::move(data)) : makePerStateMethod(cfg, std::move(data));
    }, log, stop);
    GflowNetTrainReport report;
    report.steps = loop.steps;
    report.seconds = loop.seconds;
    if (!loop.firstWindow.empty()) {
        report.firstMeanSpeedup = loop.firstWindow[0];
        report.firstZetaStd = loop.firstWindow[2];
        report.lastMeanSpeedup = loop.lastWindow[0];
        report.lastZetaStd = loop.lastWindow[2];
    }
    if (!loop.best.resultsJson.empty()) {   // rank 0: the shipped checkpoint's validation
        const auto v = nlohmann::json::parse(loop.best.resultsJson);
        report.validationMeanSpeedup = v.at("validation_mean_speedup").get<double>();
        report.validationBestSpeedup = v.at("validation_best_speedup").get<double>();
        report.validationListSpeedup = v.at("validation_list_cp_speedup").get<double>();
        report.validationTop1VsList = v.at("validation_top1_vs_list_cp").get<double>();
    }
    return report;
}

} // namespace sl::gfn

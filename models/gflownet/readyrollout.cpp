// SPDX-License-Identifier: MIT
#include "models/gflownet/readyrollout.h"

#include "core/util/random.h"

#include <torch/torch.h>

#include <cmath>

namespace sl::gfn {

PartialSchedule drawReadySchedule(const ScheduleEnv& env, const GraphTimes& times, const ActionScorer& scorer,
                                  std::uint64_t seed, std::stop_token stop) {
    ReadyActions table(env, times, scorer);
    Rng rng(seed);
    while (!table.complete()) {
        if (stop.stop_requested()) return PartialSchedule(env);
        table.place(table.draw(rng.uniform()));
    }
    return table.state();
}

namespace {
/// Appends the valid actions of `table`'s state to `r` as step `step`; returns the step's largest logit.
float recordActions(const ReadyActions& table, std::int64_t step, int chosen, ReadyRollout& r) {
    float top = -INFINITY;
    for (int slot = 0; slot < table.slots(); ++slot) {
        if (!table.valid(slot)) continue;
        if (slot == chosen) r.chosenAction.push_back(static_cast<std::int64_t>(r.actionOp.size()));
        r.actionOp.push_back(table.op(slot));
        r.actionStep.push_back(step);
        const ActionFeatures& f = table.features(slot);
        r.actionFeatures.insert(r.actionFeatures.end(), f.begin(), f.end());
        top = std::max(top, table.logit(slot));
    }
    return top;
}
} // namespace

ReadyRollout readyRollout(const ScheduleEnv& env, const GraphTimes& times, const ActionScorer& scorer,
                          const std::vector<std::uint64_t>& seeds, double sigma) {
    ReadyRollout r;
    std::int64_t step = 0;
    for (size_t b = 0; b < seeds.size(); ++b) {
        ReadyActions table(env, times, scorer);
        Rng rng(seeds[b]);
        double logPF = 0, logPB = 0;
        while (!table.complete()) {
            const int slot = table.draw(rng.uniform());
            logPF += table.logProbability(slot);
            r.stepShift.push_back(recordActions(table, step++, slot, r));
            r.stepTrajectory.push_back(static_cast<std::int64_t>(b));
            table.place(slot);
            logPB -= std::log(static_cast<double>(table.removableCount()));
        }
        const double t = table.state().makespan();
        r.makespan.push_back(t);
        r.speedup.push_back(env.speedup(t));
        r.logReward.push_back(env.logReward(t, sigma));
        r.logPB.push_back(logPB);
        r.sampledLogPF.push_back(logPF);
    }
    return r;
}

torch::Tensor readyLogPF(ReadyPolicy& net, const OpTerms& terms, const ReadyRollout& r) {
    auto longs = [](const std::vector<std::int64_t>& v) { return torch::tensor(v, torch::kLong); };
    const auto e = static_cast<std::int64_t>(r.actionOp.size()), s = static_cast<std::int64_t>(r.stepShift.size());
    const torch::Tensor features =
        torch::from_blob(const_cast<float*>(r.actionFeatures.data()), {e, kActionFeatures}, torch::kFloat).clone();
    const torch::Tensor step = longs(r.actionStep);
    const torch::Tensor logit = net->logits(terms, longs(r.actionOp), features);                 // [E]
    const torch::Tensor shift = torch::tensor(r.stepShift, torch::kFloat);                         // [S]
    const torch::Tensor sums = torch::zeros({s}, torch::kFloat).index_add(0, step, (logit - shift.index_select(0, step)).exp());
    const torch::Tensor stepLogP = logit.index_select(0, longs(r.chosenAction)) - shift - sums.log();   // [S]
    const auto b = static_cast<std::int64_t>(r.makespan.size());
    return torch::zeros({b}, torch::kDouble).index_add(0, longs(r.stepTrajectory), stepLogP.to(torch::kDouble));
}

} // namespace sl::gfn

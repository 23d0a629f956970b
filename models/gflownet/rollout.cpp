// SPDX-License-Identifier: MIT
#include "models/gflownet/rollout.h"

#include "core/util/random.h"

#include <torch/torch.h>

#include <cmath>

namespace sl::gfn {

int drawIndex(const double* probs, const std::uint8_t* valid, int count, double u) {
    double total = 0;
    int last = -1;
    for (int i = 0; i < count; ++i)
        if (valid[i]) total += probs[i], last = i;
    // Against the actual total (float rounding): the inverse CDF never lands on an invalid entry.
    const double target = u * total;
    double cum = 0;
    for (int i = 0; i < count; ++i) {
        if (!valid[i]) continue;
        cum += probs[i];
        if (cum > target) return i;
    }
    return last;
}

namespace {

/// log P_B of removing `added[b]` from each state (reverse of the action just taken).
torch::Tensor backwardTerm(const PolicyOutput& out, const StateTensors& t, const StateBatch& batch,
                           const std::vector<OpId>& added, bool uniform) {
    const std::int64_t b = batch.batch;
    if (uniform) {
        std::vector<double> lp(static_cast<size_t>(b));
        for (std::int64_t i = 0; i < b; ++i) {
            int removable = 0;
            for (int v = 0; v < batch.ops; ++v) removable += batch.backwardMask[static_cast<size_t>(i * batch.ops + v)];
            lp[static_cast<size_t>(i)] = -std::log(static_cast<double>(removable));
        }
        return torch::tensor(lp, torch::kDouble);
    }
    const torch::Tensor index = torch::tensor(std::vector<std::int64_t>(added.begin(), added.end()), torch::kLong);
    return backwardLogProbs(out, t).gather(1, index.unsqueeze(1)).squeeze(1).to(torch::kDouble);
}

} // namespace

Rollout rollout(GflowNetPolicy& net, const ScheduleEnv& env, const models::EncoderInput& masks, const RolloutSpec& spec,
                std::stop_token stop) {
    const auto b = static_cast<std::int64_t>(spec.seeds.size());
    const int n = env.ops(), m = env.devices();
    std::vector<PartialSchedule> states(static_cast<size_t>(b), PartialSchedule(env));
    std::vector<Rng> rngs;
    for (std::uint64_t s : spec.seeds) rngs.emplace_back(s);
    const torch::Tensor logSigma = torch::full({1}, std::log(spec.sigma), torch::kFloat);
    Rollout r;
    r.logPF = torch::zeros({b}, torch::kDouble);
    r.logPB = torch::zeros({b}, torch::kDouble);
    std::vector<OpId> added(static_cast<size_t>(b));
    std::vector<std::int64_t> chosen(static_cast<size_t>(b));
    StateBatch batch;
    for (int t = 0; t <= n; ++t) {
        if (stop.stop_requested()) return {};
        encodeStates(states, batch);
        const StateTensors tensors = toTensors(batch);
        const PolicyOutput out = net->forward(masks, tensors, logSigma);
        if (t > 0) r.logPB = r.logPB + backwardTerm(out, tensors, batch, added, spec.uniformBackward);
        if (t == n) break;
        const torch::Tensor lpf = forwardLogProbs(out, tensors);   // [B, N * m]
        const torch::Tensor probs = lpf.detach().exp().to(torch::kDouble).contiguous();
        const double* p = probs.data_ptr<double>();
        const int actions = n * m;
        for (std::int64_t i = 0; i < b; ++i) {
            const int a = drawIndex(p + i * actions, batch.forwardMask.data() + i * actions, actions,
                                    rngs[static_cast<size_t>(i)].uniform());
            chosen[static_cast<size_t>(i)] = a;
            added[static_cast<size_t>(i)] = a / m;
            states[static_cast<size_t>(i)].add(a / m, a % m);
        }
        const torch::Tensor index = torch::tensor(chosen, torch::kLong).unsqueeze(1);
        r.logPF = r.logPF + lpf.gather(1, index).squeeze(1).to(torch::kDouble);
    }
    for (const PartialSchedule& s : states) {
        const double t = s.makespan();
        r.makespan.push_back(t);
        r.speedup.push_back(env.speedup(t));
        r.logReward.push_back(env.logReward(t, spec.sigma));
    }
    r.finals = std::move(states);
    return r;
}

std::vector<PartialSchedule> sampleTrajectories(GflowNetPolicy& net, const ScheduleEnv& env,
                                                const models::EncoderContext& context,
                                                const std::vector<std::uint64_t>& seeds, std::stop_token stop) {
    const int n = env.ops(), m = env.devices(), actions = n * m;
    std::vector<PartialSchedule> states(seeds.size(), PartialSchedule(env));
    std::vector<Rng> rngs(seeds.begin(), seeds.end());
    StateBatch batch;     // reused: no allocation after the first step
    for (int t = 0; t < n; ++t) {
        if (stop.stop_requested()) return {};
        encodeStates(states, batch);
        const torch::Tensor probs = net->sampleLogProbs(context, batch).exp().to(torch::kDouble).contiguous();
        const double* p = probs.data_ptr<double>();
        for (size_t i = 0; i < states.size(); ++i) {
            const std::ptrdiff_t row = static_cast<std::ptrdiff_t>(i) * actions;
            const int a = drawIndex(p + row, batch.forwardMask.data() + row, actions, rngs[i].uniform());
            states[i].add(a / m, a % m);
        }
    }
    return states;
}

} // namespace sl::gfn

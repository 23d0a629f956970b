// SPDX-License-Identifier: MIT
#include "core/sweep/sweep.h"

#include "core/costmodel/cost.h"
#include "core/util/random.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>

namespace sl {

std::vector<double> logSpacedTemperatures(int count, double lo, double hi) {
    if (count < 1) throw std::invalid_argument("a sweep needs at least one temperature");
    if (!(lo > 0) || !(hi >= lo) || !std::isfinite(hi))
        throw std::invalid_argument("temperatures need 0 < lowest <= highest");
    std::vector<double> t(static_cast<size_t>(count));
    const double a = std::log10(lo), b = std::log10(hi);
    for (int i = 0; i < count; ++i)
        t[static_cast<size_t>(i)] = count == 1 ? lo : std::pow(10.0, a + (b - a) * i / (count - 1));
    t.back() = count == 1 ? lo : hi;   // exact ends: "1" reads back as 1, not 0.9999999999999998
    t.front() = lo;
    return t;
}

SweepPoint summarizeSpeedups(double temperature, std::span<const double> speedups, int topK) {
    if (speedups.empty()) throw std::invalid_argument("no samples to summarise");
    if (topK < 1) throw std::invalid_argument("top-k must be at least 1");
    SweepPoint out;
    out.temperature = temperature;
    out.samples = static_cast<int>(speedups.size());
    double sum = 0, squares = 0;
    for (double u : speedups) sum += u;
    out.proxyMean = sum / out.samples;
    for (double u : speedups) squares += (u - out.proxyMean) * (u - out.proxyMean);
    out.proxyStd = std::sqrt(squares / out.samples);   // population std
    out.proxyTop1 = *std::max_element(speedups.begin(), speedups.end());
    out.kept = std::min(topK, out.samples);
    // the top k by selection, not a sort: the panel redoes it at every update
    std::vector<double> v(speedups.begin(), speedups.end());
    const auto k = static_cast<std::ptrdiff_t>(out.kept);
    std::nth_element(v.begin(), v.begin() + (k - 1), v.end(), std::greater<>());
    out.proxyTopKMean = std::accumulate(v.begin(), v.begin() + k, 0.0) / static_cast<double>(k);
    return out;
}

SweepPoint summarizeSamples(const Problem& p, double temperature, const SampleSet& samples, const SweepOptions& o) {
    if (samples.schedules.empty()) throw std::invalid_argument("no samples to summarise");
    SweepPoint out = summarizeSpeedups(temperature, samples.proxySpeedups, o.topK);
    out.distinct = distinctSchedules(samples.schedules);
    // the candidate protocol: top k on the proxy, best of k on each target, diversity of the k
    const CandidateReport r = evaluateCandidates(p, samples.schedules,
                                                 {.topK = o.topK,
                                                  .targets = o.targets,
                                                  .targetSeed = o.targetSeed,
                                                  .diversity = o.diversity,
                                                  .measuredGraph = o.measuredGraph});
    out.proxyTop1 = r.proxyTop1;
    out.proxyTopKMean = r.proxyTopKMean;
    out.kept = r.kept;
    out.topK = r.diversity;
    out.targets = r.targets;
    const Schedule& top = samples.schedules[static_cast<size_t>(r.keptIndices.front())];
    out.best = deviceChains(top, p.platform.deviceCount());
    out.bestMakespan = chainMakespan(proxyProblem(p), out.best);
    return out;
}

Sweep emptySweep(const Problem& p, const std::string& samplerName, const SweepOptions& o) {
    Sweep s;
    s.sampler = samplerName;
    s.ops = p.g().opCount();
    s.devices = p.platform.deviceCount();
    s.timeUnit = p.g().timeUnit();
    s.options = o;
    return s;
}

Sweep runSweep(const Problem& p, const std::string& samplerName, TemperatureSampler& sampler, const SweepOptions& o,
               std::stop_token stop, const SweepProgressFn& progress) {
    if (o.temperatures.empty()) throw std::invalid_argument("a sweep needs at least one temperature");
    if (o.samples < 1) throw std::invalid_argument("a sweep needs at least one sample per temperature");
    if (o.topK < 1) throw std::invalid_argument("a sweep needs top-k >= 1");
    for (double t : o.temperatures)
        if (!(t > 0) || !std::isfinite(t)) throw std::invalid_argument("every temperature must be positive and finite");
    Sweep s = emptySweep(p, samplerName, o);
    const auto count = static_cast<double>(o.temperatures.size());
    for (size_t i = 0; i < o.temperatures.size(); ++i) {
        if (stop.stop_requested()) break;
        const SampleRequest request{
            .temperature = o.temperatures[i], .count = o.samples, .seed = deriveSeed(o.seed, i), .threads = o.threads};
        auto inner = [&](const SampleProgress& f) {
            if (progress) progress((static_cast<double>(i) + 0.9 * f.fraction) / count, nullptr);
        };
        const SampleSet set = sampler.sample(p, request, stop, inner);
        if (set.cancelled || set.schedules.empty()) break;
        s.points.push_back(summarizeSamples(p, o.temperatures[i], set, o));
        if (progress) progress(static_cast<double>(i + 1) / count, &s.points.back());
    }
    s.cancelled = s.points.size() < o.temperatures.size();
    return s;
}

Schedule bestSchedule(const Problem& p, const SweepPoint& point) {
    const Problem proxy = proxyProblem(p);
    Schedule s = timeChains(proxy, point.best);
    scoreSchedule(proxy, s);
    return s;
}

void checkSweepFits(const Sweep& s, const Problem& p) {
    if (s.ops != p.g().opCount() || s.devices != p.platform.deviceCount())
        throw std::invalid_argument("the sweep was made on a graph of " + std::to_string(s.ops) + " ops and " +
                                    std::to_string(s.devices) + " devices; the open problem has " +
                                    std::to_string(p.g().opCount()) + " ops and " +
                                    std::to_string(p.platform.deviceCount()) + " devices");
}

}   // namespace sl

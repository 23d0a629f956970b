// SPDX-License-Identifier: MIT
#include "core/regal/search.h"

#include "core/brkga/regaldecoder.h"

#include <algorithm>
#include <memory>

namespace sl::regal {

SearchOutcome search(const Problem& problem, const SearchRequest& request, const brkga::Observer& observer,
                     std::stop_token stop) {
    problem.check();
    const int threads = std::max(1, request.threads);
    std::vector<std::unique_ptr<RegalDecoder>> decoders;
    for (int t = 0; t < threads; ++t)
        decoders.push_back(std::make_unique<RegalDecoder>(problem, request.symmetry, request.placement));
    brkga::Engine engine(decoders[0]->layout().size(), [&](std::span<double> keys, int worker) {
        return decoders[static_cast<std::size_t>(worker)]->decode(keys);
    }, request.params, threads);
    engine.setDistributions(request.distributions);

    brkga::StopCriteria criteria;
    criteria.budget = request.budget;
    criteria.timeLimit = request.timeLimit;
    SearchOutcome out;
    const Steering& steering = request.steering;
    const auto steeringObserver = [&](const brkga::Status& s) {
        if (steering.choose && out.steeredAt < 0 && s.generation == steering.afterGeneration) {
            const auto all = engine.params().population * engine.params().populations;
            if (request.snapshotAtSteering) out.atSteering = std::make_shared<const brkga::Snapshot>(engine.snapshot());
            engine.setDistributions(steering.choose(engine.ranked(all)));
            out.steeredAt = s.evaluations;
            out.bestBeforeSteering = s.best;
        }
        return observer && observer(s);
    };
    out.result = request.resumeFrom ? engine.resume(*request.resumeFrom, criteria, steeringObserver, std::move(stop))
                                    : engine.run(request.seed, criteria, {}, steeringObserver, std::move(stop));
    if (request.keepPopulation > 0) out.population = engine.ranked(request.keepPopulation);
    return out;
}

} // namespace sl::regal

// SPDX-License-Identifier: MIT
#include "core/study/studyrunner.h"

#include "core/costmodel/validator.h"
#include "core/graph/fingerprint.h"
#include "core/io/scheduleio.h"

#include <nlohmann/json.hpp>

#include <chrono>

namespace sl {

namespace {

std::string settingsOf(const StudyMethod& m) {
    nlohmann::json j = {{"name", m.name}, {"budget", m.options.budget}, {"time_limit", m.options.timeLimit}};
    if (!m.options.values.empty()) j["options"] = m.options.values;
    if (!m.options.strings.empty()) j["strings"] = m.options.strings;
    return j.dump();
}

/// One run, never throwing: a failure is a stored error.
StudyRun runOne(const Problem& p, const std::string& graph, const StudyMethod& m, std::uint64_t seed, std::string& scheduleJson,
                std::stop_token stop) {
    StudyRun r{.graph = graph, .fingerprint = graphFingerprint(p.g()), .method = m.label, .seed = seed, .settings = settingsOf(m)};
    try {
        const OptimizerInfo* info = OptimizerRegistry::instance().find(m.name);
        if (!info) throw std::runtime_error("unknown method " + m.name);
        checkPins(*info, p);
        RunOptions o = m.options;
        o.seed = seed;
        o.threads = 1;
        const auto t0 = std::chrono::steady_clock::now();
        const RunResult result = OptimizerRegistry::instance().create(m.name)->run(p, o, {}, stop);
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        requireValidResult(p, result.schedule, m.name);
        r.ok = true;
        r.cost = result.cost;
        r.makespan = result.schedule.makespan;
        r.peakMemory = result.schedule.peakMemory();
        r.evaluations = result.evaluations;
        scheduleJson = scheduleToJson(p, result.schedule);
    } catch (const std::exception& e) {
        r.ok = false;
        r.error = e.what();
    }
    return r;
}

} // namespace

int runStudy(StudyStore& store, const std::function<void(const StudyProgress&)>& progress, std::stop_token stop) {
    const StudySpec& spec = store.spec();
    const std::vector<std::string> graphs = spec.graphFiles();
    StudyProgress state;
    state.total = static_cast<int>(graphs.size() * spec.methods.size() * spec.seeds.size());
    state.done = static_cast<int>(store.runs().size());
    if (progress) progress(state);
    int made = 0;
    for (const std::string& graph : graphs) {
        if (stop.stop_requested()) break;
        std::optional<Problem> problem;
        std::string loadError;
        for (const StudyMethod& m : spec.methods)
            for (std::uint64_t seed : spec.seeds) {
                if (stop.stop_requested() || store.has(graph, m.label, seed)) continue;
                if (!problem && loadError.empty()) {
                    try {
                        problem = spec.problemFor(graph);
                    } catch (const std::exception& e) {
                        loadError = e.what();
                    }
                }
                std::string schedule;
                StudyRun r = problem ? runOne(*problem, graph, m, seed, schedule, stop)
                                     : StudyRun{.graph = graph, .method = m.label, .seed = seed, .error = loadError};
                if (stop.stop_requested()) return made;   // a run cut short is not a result: it runs again on resume
                store.store(r, schedule);
                ++made;
                ++state.done;
                state.last = &r;
                if (progress) progress(state);
            }
    }
    return made;
}

} // namespace sl

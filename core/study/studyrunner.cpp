// SPDX-License-Identifier: MIT
#include "core/study/studyrunner.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/validator.h"
#include "core/graph/fingerprint.h"
#include "core/io/scheduleio.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

namespace sl {

namespace {

std::string settingsOf(const StudyMethod& m) {
    nlohmann::json j = {{"name", m.name}, {"budget", m.options.budget}, {"time_limit", m.options.timeLimit}};
    if (!m.options.values.empty()) j["options"] = m.options.values;
    if (!m.options.strings.empty()) j["strings"] = m.options.strings;
    return j.dump();
}

/// The lower bound on the problem's cost: the analytic one (or one the run proved, if higher)
/// for the makespan and memory objectives; 0 for the weighted objective, which has none.
double costBoundOf(const Problem& p, const RunResult& r) {
    if (p.objective.kind == Objective::Weighted) return 0;
    const LowerBounds b = lowerBounds(p);
    return std::max(p.objective.kind == Objective::Makespan ? b.makespan : b.memory, r.lowerBound);
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
        r.bound = costBoundOf(p, result);
        scheduleJson = scheduleToJson(p, result.schedule);
    } catch (const std::exception& e) {
        r.ok = false;
        r.error = e.what();
    }
    return r;
}

} // namespace

namespace {

struct Task {
    std::size_t graph;
    const StudyMethod* method;
    std::uint64_t seed;
};

/// The graphs' problems, loaded by the first task that needs one and dropped after its last.
class ProblemCache {
public:
    ProblemCache(const StudySpec& spec, const std::vector<std::string>& graphs, const std::vector<Task>& tasks)
        : m_spec(spec), m_graphs(graphs), m_entries(graphs.size()) {
        for (const Task& t : tasks) ++m_entries[t.graph].remaining;
    }
    /// The problem of graph `g` (null with `error` set when it cannot be loaded).
    std::shared_ptr<const Problem> get(std::size_t g, std::string& error) {
        Entry& e = m_entries[g];
        std::lock_guard lock(e.mutex);
        if (!e.problem && e.error.empty()) {
            try {
                e.problem = std::make_shared<const Problem>(m_spec.problemFor(m_graphs[g]));
            } catch (const std::exception& x) {
                e.error = x.what();
            }
        }
        error = e.error;
        return e.problem;
    }
    void done(std::size_t g) {
        Entry& e = m_entries[g];
        std::lock_guard lock(e.mutex);
        if (--e.remaining == 0) e.problem.reset();
    }

private:
    struct Entry {
        std::mutex mutex;
        std::shared_ptr<const Problem> problem;
        std::string error;
        int remaining = 0;
    };
    const StudySpec& m_spec;
    const std::vector<std::string>& m_graphs;
    std::vector<Entry> m_entries;
};

} // namespace

int runStudy(StudyStore& store, const std::function<void(const StudyProgress&)>& progress, std::stop_token stop, int threads,
             StudyShard shard) {
    if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count) throw std::invalid_argument("runStudy: a shard index out of range");
    const StudySpec& spec = store.spec();
    const std::vector<std::string> graphs = spec.graphFiles();
    std::vector<Task> tasks;
    StudyProgress state;
    std::size_t k = 0;
    for (std::size_t g = 0; g < graphs.size(); ++g)
        for (const StudyMethod& m : spec.methods)
            for (std::uint64_t seed : spec.seeds) {
                if (static_cast<int>(k++ % static_cast<std::size_t>(shard.count)) != shard.index) continue;
                ++state.total;
                if (!store.has(graphs[g], m.label, seed)) tasks.push_back({g, &m, seed});
            }
    state.done = state.total - static_cast<int>(tasks.size());
    if (progress) progress(state);
    ProblemCache problems(spec, graphs, tasks);
    std::mutex storing;
    std::atomic<std::size_t> next{0};
    int made = 0;
    std::exception_ptr failure;
    auto work = [&] {
        for (std::size_t i = next++; i < tasks.size() && !stop.stop_requested(); i = next++) {
            const Task& t = tasks[i];
            std::string error, schedule;
            const std::shared_ptr<const Problem> p = problems.get(t.graph, error);
            StudyRun r = p ? runOne(*p, graphs[t.graph], *t.method, t.seed, schedule, stop)
                           : StudyRun{.graph = graphs[t.graph], .method = t.method->label, .seed = t.seed, .error = error};
            problems.done(t.graph);
            if (stop.stop_requested()) return;   // a run cut short is not a result: it runs again on resume
            std::lock_guard lock(storing);
            try {
                store.store(r, schedule);
            } catch (...) {
                failure = std::current_exception();
                return;
            }
            ++made;
            ++state.done;
            state.last = &r;
            if (progress) progress(state);
            state.last = nullptr;
        }
    };
    std::vector<std::thread> workers;
    for (int w = 1; w < std::max(1, threads); ++w) workers.emplace_back(work);
    work();
    for (std::thread& w : workers) w.join();
    if (failure) std::rethrow_exception(failure);
    return made;
}

} // namespace sl

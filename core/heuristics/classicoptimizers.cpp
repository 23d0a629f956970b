// SPDX-License-Identifier: MIT
#include "core/heuristics/classicoptimizers.h"

#include "core/heuristics/evaluate.h"
#include "core/heuristics/heft.h"
#include "core/heuristics/priorities.h"

#include <algorithm>

namespace sl {

namespace {

class PriorityRuleOptimizer : public Optimizer {
public:
    PriorityRuleOptimizer(std::string name, PriorityRule rule) : m_name(std::move(name)), m_rule(std::move(rule)) {}
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        PriorityEvaluator evaluator(p);
        r.schedule = evaluator.schedule(m_rule(p.g()));
        r.evaluations = 1;
        finishResult(r, p, m_name, o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }

private:
    std::string m_name;
    PriorityRule m_rule;
};

class OrderRuleOptimizer : public Optimizer {
public:
    OrderRuleOptimizer(std::string name, OrderRule rule) : m_name(std::move(name)), m_rule(std::move(rule)) {}
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token) override {
        p.check();
        RunMonitor monitor(o, progress);
        RunResult r;
        r.schedule = sequentialSchedule(p, m_rule(p.g()));
        r.evaluations = 1;
        finishResult(r, p, m_name, o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }

private:
    std::string m_name;
    OrderRule m_rule;
};

class HeftOptimizer : public Optimizer {
public:
    RunResult run(const Problem& p, const RunOptions& o, const ProgressFn& progress, std::stop_token stop) override {
        RunMonitor monitor(o, progress);
        RunResult r;
        r.schedule = heftSchedule(p, stop);
        r.cancelled = stop.stop_requested();
        r.evaluations = 1;
        finishResult(r, p, "heft", o, monitor);
        monitor.report(r, r.cost, r.cost, 1.0, true);
        return r;
    }
};

} // namespace

std::unique_ptr<Optimizer> makePriorityRuleOptimizer(std::string name, PriorityRule rule) {
    return std::make_unique<PriorityRuleOptimizer>(std::move(name), std::move(rule));
}

std::unique_ptr<Optimizer> makeOrderRuleOptimizer(std::string name, OrderRule rule) {
    return std::make_unique<OrderRuleOptimizer>(std::move(name), std::move(rule));
}

std::unique_ptr<Optimizer> makeHeftOptimizer() { return std::make_unique<HeftOptimizer>(); }

std::vector<NamedSchedule> classicSchedules(const Problem& p, std::stop_token stop) {
    p.check();
    std::vector<NamedSchedule> out;
    PriorityEvaluator evaluator(p);
    auto add = [&](const char* method, Schedule s) {   // every one comes scored
        const double cost = evaluator.costFunction().of(s);
        out.push_back({method, std::move(s), cost});
    };
    add("list-cp", evaluator.schedule(criticalPathPriorities(p.g())));
    add("list-mopnr", evaluator.schedule(mopnrPriorities(p.g())));
    add("list-spt", evaluator.schedule(sptPriorities(p.g())));
    add("heft", heftSchedule(p, stop));
    // With pins, only the schedules that keep them (the list schedulers' always do; HEFT's may not).
    if (!p.pins.empty())
        std::erase_if(out, [&](const NamedSchedule& s) { return !pinViolation(p.g(), p.pins, s.schedule).empty(); });
    return out;
}

Schedule bestClassicSchedule(const Problem& p, std::stop_token stop) {
    std::vector<NamedSchedule> all = classicSchedules(p, stop);
    const auto best = std::min_element(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.cost < b.cost; });
    return std::move(best->schedule);
}

} // namespace sl

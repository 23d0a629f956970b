// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The one interface every scheduling method implements, and the registry that names them.
///
/// Contract of Optimizer::run():
///  - runs on the calling thread (the GUI calls it from a worker), may use `options.threads`;
///  - reports progress through `progress` (may be empty) at most every few milliseconds;
///  - checks `stop` often: once a stop is requested it returns its best schedule so far within
///    100 ms, with RunResult::cancelled set;
///  - is reproducible: the same problem, options and seed give the same schedule, whatever the
///    number of threads;
///  - throws std::exception with a readable message on bad input (never crashes).
///
/// \code
///   auto opt = sl::OptimizerRegistry::instance().create("list-cp");
///   sl::RunOptions o; o.seed = 7;
///   sl::RunResult r = opt->run(problem, o, {}, {});
/// \endcode

#include "core/costmodel/problem.h"
#include "core/optimizer/namedregistry.h"
#include "core/schedule/schedule.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <vector>

namespace sl {

/// A method-specific option the method declares, so that the CLI and the GUI can offer it.
struct OptionSpec {
    enum class Kind { Int, Double, Bool, Choice };
    std::string key;           ///< CLI flag without dashes, e.g. "population"
    std::string label;         ///< for the GUI, e.g. "Population"
    Kind kind = Kind::Int;
    double defaultValue = 0;
    double min = 0;
    double max = 1e9;
    std::string help;          ///< one line, used in --help and tooltips
    std::vector<std::string> choices;   ///< Kind::Choice: defaultValue indexes this
    /// Kind::Int: what the minimum means when it is not a number to use ("auto": the method
    /// decides); the explorer's field shows it instead of the number. Empty: a plain minimum.
    std::string minimumMeans;
};

struct RunOptions {
    std::uint64_t seed = 1;
    std::int64_t budget = 0;      ///< evaluations; 0 = the method's default
    double timeLimit = 0;         ///< seconds; 0 = none
    int threads = 1;
    /// > 0: also return up to this many of the run's best schedules in RunResult::candidates
    /// (the GFlowNet paper's candidate protocol, core/optimizer/candidates.h); 0 keeps the run cheap.
    int candidates = 0;
    std::map<std::string, double> values;        ///< declared options by key (numbers, bools as 0/1)
    std::map<std::string, std::string> strings;  ///< Choice options and free-form ones
    /// A schedule of the problem to start from (a hand-edited one, `--start FILE`), for methods
    /// whose OptimizerInfo::acceptsStart says so; they never return a costlier one.
    std::shared_ptr<const Schedule> start;

    double get(const std::string& key, double fallback) const {
        auto it = values.find(key);
        return it == values.end() ? fallback : it->second;
    }
    std::string getString(const std::string& key, const std::string& fallback) const {
        auto it = strings.find(key);
        return it == strings.end() ? fallback : it->second;
    }
};

/// The name a Choice option was given: its name in `strings` (the CLI), else the index in
/// `values` (the explorer), else the spec's default. Throws std::invalid_argument, naming `method`,
/// for a name that is not one of the spec's choices.
std::string choiceValue(const RunOptions& o, const OptionSpec& spec, const std::string& method);

struct Progress {
    std::int64_t evaluations = 0;
    double best = 0;           ///< best scalar cost so far
    double mean = 0;           ///< mean cost of the current population / batch (or best)
    double diversity = 0;      ///< method-defined, 0 when not applicable
    double seconds = 0;
    double fraction = 0;       ///< 0..1, share of the budget or time used
    double bound = 0;          ///< best lower bound on the cost proven so far; 0 = the method proves none
};

using ProgressFn = std::function<void(const Progress&)>;

struct RunResult {
    Schedule schedule;
    double cost = 0;                  ///< scalar cost of `schedule` under the problem's objective
    std::int64_t evaluations = 0;
    double seconds = 0;
    bool cancelled = false;
    std::vector<Progress> history;    ///< one entry per progress report (convergence plot)
    std::string note;                 ///< e.g. "gave up after 1e6 states"; exact methods say if optimal
    /// A lower bound on the optimum's cost that the method proved (exact-makespan: the makespan
    /// itself when the run proved it optimal); 0 = the method proves none.
    double lowerBound = 0;
    /// When RunOptions::candidates > 0: the method's best schedules, best first, at most that
    /// many (BRKGA: its final population; sampling methods: their samples; one-shot methods:
    /// `schedule`). Their objective values are not filled; core/optimizer/candidates.h ranks them.
    std::vector<Schedule> candidates;
};

class Optimizer {
public:
    virtual ~Optimizer() = default;
    virtual RunResult run(const Problem& problem, const RunOptions& options, const ProgressFn& progress,
                          std::stop_token stop) = 0;
};

struct OptimizerInfo {
    std::string name;          ///< e.g. "list-cp"
    std::string summary;       ///< one line
    std::string family;        ///< "heuristic", "memory order", "search", "exact", "neural"
    std::vector<Objective> objectives;   ///< objectives it optimises (first = natural one)
    std::vector<OptionSpec> options;     ///< beyond seed/budget/time-limit/threads
    bool usesBudget = false;
    bool usesSeed = false;
    /// Device count the method needs with its shipped weights (a learned model with per-device
    /// heads, e.g. REGAL's 2); 0 = any platform.
    int devices = 0;
    /// Starts from RunOptions::start when given (checkStart refuses it for the others).
    bool acceptsStart = false;
    /// Keeps the problem's pins (Problem::pins; checkPins refuses a pinned problem for the others).
    bool acceptsPins = false;
};

/// Throws std::invalid_argument when `p` has pins and `info`'s method cannot keep them, naming
/// the methods that can.
void checkPins(const OptimizerInfo& info, const Problem& p);

/// Throws std::invalid_argument when `o` asks `info`'s method to start from a schedule and the
/// method cannot, naming the methods that can.
void checkStart(const OptimizerInfo& info, const RunOptions& o);

class OptimizerRegistry {
public:
    using Factory = std::function<std::unique_ptr<Optimizer>()>;
    static OptimizerRegistry& instance();

    /// Adds or (same name) replaces a method. Thread-safe (core/optimizer/namedregistry.h).
    void add(OptimizerInfo info, Factory factory) { m_entries.add(std::move(info), std::move(factory)); }
    std::unique_ptr<Optimizer> create(const std::string& name) const;   ///< throws if unknown
    const OptimizerInfo* find(const std::string& name) const { return m_entries.find(name); }
    std::vector<OptimizerInfo> list() const { return m_entries.list(); }   ///< in registration order

private:
    NamedRegistry<OptimizerInfo, Factory> m_entries;
};

/// Registers everything in core (classic heuristics, search, BRKGA, exact). Idempotent.
/// The neural methods live in models/ and register from the neural module, loaded on first use
/// (core/plugin/neuralmodule.h).
void registerCoreOptimizers();

} // namespace sl

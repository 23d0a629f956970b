// SPDX-License-Identifier: MIT
#include "core/exact/exactmakespan.h"

#include "core/analysis/bounds.h"
#include "core/costmodel/chaintiming.h"
#include "core/exact/boundprobe.h"
#include "core/exact/chainsfromstarts.h"
#include "core/exact/cpinstance.h"
#include "core/exact/makespanspace.h"
#include "core/exact/searchstop.h"
#include "core/heuristics/classicoptimizers.h"

#include <gecode/search.hh>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <sstream>

namespace sl {

namespace {

/// Failures each bound probe may spend on one makespan value before the probing gives way to
/// branch and bound, and the share of a time limit the probing may take at most.
constexpr std::uint64_t kFailsPerProbe = 100;
constexpr double kProbeShare = 0.1;

/// Model time of a makespan that some schedule reaches (a whole number up to rounding).
int modelTime(double makespan, double scale) { return static_cast<int>(std::floor(makespan * scale + 1e-6)); }

/// The smallest model time at or above a bound in graph time.
int modelCeil(double bound, double scale) { return static_cast<int>(std::ceil(bound * scale - 1e-6)); }

/// `why`: what ended an unproven run.
std::string describe(const ExactMakespanResult& r, const std::string& why, double seconds) {
    std::ostringstream s;
    s.precision(12);
    if (r.optimal)
        s << "optimal, proven";
    else
        s << "not proven optimal (" << why << "); lower bound " << r.lowerBound;
    s << " (" << r.status.nodes << " nodes, " << r.status.failures << " failures, " << r.status.solutions
      << " model solutions, " << seconds << " s)";
    return s.str();
}

/// The branch-and-bound run over one instance; owns the incumbent and the bound.
class Search {
public:
    Search(const Problem& p, const ExactMakespanLimits& limits, std::stop_token stop, const ExactMakespanProgress& progress)
        : m_problem(p), m_limits(limits), m_stop(std::move(stop)), m_progress(progress), m_begin(SearchStop::Clock::now()) {}

    ExactMakespanResult run() {
        m_result.schedule = bestClassicSchedule(m_problem, m_stop);
        m_result.status.best = m_result.schedule.makespan;
        m_result.lowerBound = std::min(lowerBounds(m_problem).makespan, m_result.status.best);
        const CpInstance instance = makeCpInstance(m_problem, m_result.status.best);
        if (m_result.status.best > m_result.lowerBound && !m_stop.stop_requested()) solve(instance);
        m_result.cancelled = m_stop.stop_requested();
        if (m_exhausted) m_result.lowerBound = std::min(m_result.status.best, m_exhaustedAt / instance.scale);
        m_result.optimal = m_result.status.best <= m_result.lowerBound;
        if (m_result.optimal) m_result.lowerBound = m_result.status.best;   // bit-equal to the reported makespan
        updateStatus();
        m_result.note = describe(m_result, m_result.cancelled ? "cancelled" : m_stopReason, seconds());
        report();
        return m_result;
    }

private:
    double seconds() const { return std::chrono::duration<double>(SearchStop::Clock::now() - m_begin).count(); }

    void updateStatus() {
        m_result.status.bound = m_result.lowerBound;
        if (m_searchStop) {
            m_result.status.nodes = static_cast<std::int64_t>(m_searchStop->nodes());
            m_result.status.failures = static_cast<std::int64_t>(m_searchStop->failures());
        }
    }

    void report() {
        updateStatus();
        if (m_progress) m_progress(m_result.status);
    }

    SearchStop::Clock::time_point after(double share) const {
        if (m_limits.timeLimit <= 0) return SearchStop::Clock::time_point::max();
        return m_begin + std::chrono::duration_cast<SearchStop::Clock::duration>(
                             std::chrono::duration<double>(share * m_limits.timeLimit));
    }

    /// Bound probes, then branch and bound for anything shorter than the incumbent.
    void solve(const CpInstance& instance) {
        const int upper = modelTime(m_result.status.best, instance.scale) - 1;   // strictly better only
        const int lower = std::min(modelCeil(m_result.lowerBound, instance.scale), upper + 1);
        raiseBound(lower / instance.scale);   // cost-model times are sums of durations and lags: whole in model time
        m_searchStop.emplace(m_stop, after(1.0), m_limits.failLimit, [this] { report(); });
        SearchStop& stop = *m_searchStop;

        BoundProbe probe = probeLowerBound(instance, lower, upper, m_limits.seed, stop, kFailsPerProbe,
                                           after(kProbeShare), [&](int bound) {
                                               raiseBound(bound / instance.scale);
                                               report();
                                           });
        if (probe.solution) accept(instance, *probe.solution);
        if (probe.solution || probe.bound > upper) {
            finished(probe.bound);
            return;
        }
        if (stop.runStopped()) {
            stopped(stop);
            return;
        }
        auto root = std::make_unique<MakespanSpace>(instance, probe.bound, upper, m_limits.seed);
        if (root->status() == Gecode::SS_FAILED) {
            finished(upper + 1);
            return;
        }
        Gecode::Search::Options options;
        options.threads = 1;   // one thread: the same seed gives the same search
        options.stop = &stop;
        stop.startEngine();
        Gecode::BAB<MakespanSpace> engine(root.get(), options);
        int last = upper + 1;
        while (std::unique_ptr<MakespanSpace> solution{engine.next()}) {
            last = solution->makespan().val();
            accept(instance, *solution);
            report();
        }
        const bool complete = !engine.stopped();
        stop.finishEngine(engine.statistics());
        if (complete)
            finished(last);
        else
            stopped(stop);
    }

    /// The search proved that nothing in model time below `bound` exists.
    void finished(int bound) {
        m_exhausted = true;
        m_exhaustedAt = bound;
        m_stopReason = "search complete, but zero-length ops between others relax the model on a pool of devices";
    }

    void stopped(const SearchStop& stop) {
        m_stopReason = stop.timeUp() ? "time limit reached" : "failure limit reached";
    }

    /// Times the solution's device orders with the cost model; keeps it if it is shorter.
    void accept(const CpInstance& instance, const MakespanSpace& solution) {
        std::vector<int> starts(instance.duration.size());
        for (OpId v = 0; v < static_cast<OpId>(starts.size()); ++v) starts[static_cast<size_t>(v)] = solution.start(v).val();
        Schedule s = timeChains(m_problem, chainsFromStarts(m_problem.g(), instance, m_problem.platform.deviceCount(), starts));
        ++m_result.status.solutions;
        if (s.makespan < m_result.status.best) {
            m_result.schedule = std::move(s);
            m_result.status.best = m_result.schedule.makespan;
        }
    }

    void raiseBound(double bound) { m_result.lowerBound = std::max(m_result.lowerBound, std::min(bound, m_result.status.best)); }


    const Problem& m_problem;
    const ExactMakespanLimits& m_limits;
    std::stop_token m_stop;
    const ExactMakespanProgress& m_progress;
    SearchStop::Clock::time_point m_begin;
    ExactMakespanResult m_result;
    bool m_exhausted = false;
    int m_exhaustedAt = 0;   ///< model time below which the exhausted search proved nothing exists
    std::string m_stopReason = "stopped before the search";
    std::optional<SearchStop> m_searchStop;
};

} // namespace

ExactMakespanResult solveExactMakespan(const Problem& p, const ExactMakespanLimits& limits, std::stop_token stop,
                                       const ExactMakespanProgress& progress) {
    return Search(p, limits, std::move(stop), progress).run();
}

} // namespace sl

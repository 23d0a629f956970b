// SPDX-License-Identifier: MIT
// applyProfile (core/profile/profile.h): measured medians become op durations. All checks come
// before the first change, and a finalize() that still fails puts every op back, so a refused
// profile leaves the graph exactly as it was.
#include "core/graph/fingerprint.h"
#include "core/io/ioutil.h"
#include "core/profile/profile.h"
#include "core/util/errors.h"
#include "core/util/limits.h"

#include <cmath>
#include <vector>

namespace sl {
namespace {

struct ProfileAssignment {
    OpId op = kNoOp;
    double duration = 0;   ///< in the graph's unit
};

/// Which profile entries name ops of the graph, and what is left over.
struct ProfileMatching {
    ProfileMatch match;
    std::vector<ProfileAssignment> assignments;   ///< medians in microseconds until scaled
};

ProfileMatching matchProfileNames(const Graph& g, const Profile& p, const std::string& source) {
    ProfileMatching m;
    m.match.graphOps = g.opCount();
    std::vector<char> measured(static_cast<std::size_t>(g.opCount()), 0);
    for (const OpMeasurement& x : p.ops) {
        const OpId id = g.findOp(x.name);
        if (id == kNoOp) {
            m.match.unknownNames.push_back(x.name);
            continue;
        }
        // parseProfile refuses this; a Profile built in code may still carry it
        if (measured[static_cast<std::size_t>(id)]) io_detail::fail(source, "op '" + x.name + "' is measured twice");
        measured[static_cast<std::size_t>(id)] = 1;
        m.assignments.push_back({id, x.medianUs});
    }
    m.match.matched = static_cast<int>(m.assignments.size());
    for (OpId v = 0; v < g.opCount(); ++v)
        if (!measured[static_cast<std::size_t>(v)]) m.match.unmeasured.push_back(g.op(v).name);
    return m;
}

std::string matchCount(const ProfileMatch& m) {
    return std::to_string(m.matched) + " of " + std::to_string(m.graphOps) + " ops match by name";
}

/// The header's rule (profileIsOf), refused in words that say which half of it failed.
void refuseAnotherModel(const Graph& g, const Profile& p, const ProfileMatch& m, const std::string& source) {
    if (profileIsOf(g, p)) return;
    if (!p.fingerprint.empty())
        io_detail::fail(source,
                        "a profile of another model: its fingerprint " + p.fingerprint + " is not this graph's " +
                            modelFingerprintText(modelFingerprint(g)) + " (" + matchCount(m) + ")");
    if (2 * static_cast<std::int64_t>(m.matched) < m.graphOps)
        io_detail::fail(source, "a profile of another model? only " + matchCount(m) +
                                    "; a profile without a fingerprint must name at least half of them");
    io_detail::fail(source,
                    "a profile of another model? " + std::to_string(m.unknownNames.size()) + " of its " +
                        std::to_string(p.ops.size()) + " entries name no op of this graph (" + matchCount(m) +
                        "); a profile without a fingerprint must have at least half of its entries here");
}

/// Profile times are microseconds. A graph in seconds gets them converted; a graph in abstract
/// units cannot mix them with its other durations, so there the profile must time every op.
double microsecondsToGraphUnit(const Graph& g, const ProfileMatch& m, const std::string& source) {
    switch (g.timeUnit()) {
    case TimeUnit::Microseconds: return 1;
    case TimeUnit::Seconds: return 1e-6;
    case TimeUnit::Abstract: break;
    }
    if (m.matched < m.graphOps)
        io_detail::fail(source, "the graph's durations are in abstract units, which measured microseconds cannot join (" +
                                    matchCount(m) + "); apply a profile to such a graph only when it times every op");
    return 1;
}

/// Every new duration is one finalize() accepts, so the common failure is caught before any change.
void checkProfileDurations(const Graph& g, std::vector<ProfileAssignment>& assignments, double factor,
                           const std::string& source) {
    for (ProfileAssignment& a : assignments) {
        a.duration *= factor;
        if (!std::isfinite(a.duration) || a.duration < 0 || a.duration > limits().duration)
            io_detail::fail(source, "op '" + g.op(a.op).name + "': measured time " + io_detail::formatNumber(a.duration) +
                                        " is not a duration this graph accepts (finite, 0 or more, at most " +
                                        io_detail::formatNumber(limits().duration) + ")");
    }
}

struct SavedOpTime {
    OpId op = kNoOp;
    double duration = 0;
    std::vector<double> deviceDurations;
    TimeSource timeSource = TimeSource::Given;
};

std::vector<SavedOpTime> setMeasuredDurations(Graph& g, const std::vector<ProfileAssignment>& assignments) {
    std::vector<SavedOpTime> saved;
    saved.reserve(assignments.size());
    for (const ProfileAssignment& a : assignments) {
        Op& o = g.mutableOp(a.op);
        saved.push_back({a.op, o.duration, std::move(o.deviceDurations), o.timeSource});
        o.duration = a.duration;
        o.deviceDurations.clear();   // one measurement, on one device: the table no longer holds
        o.timeSource = TimeSource::Measured;
    }
    return saved;
}

void restoreOpTimes(Graph& g, std::vector<SavedOpTime>& saved) {
    for (SavedOpTime& s : saved) {
        Op& o = g.mutableOp(s.op);
        o.duration = s.duration;
        o.deviceDurations = std::move(s.deviceDurations);
        o.timeSource = s.timeSource;
    }
}

} // namespace

bool profileIsOf(const Graph& g, const Profile& p) {
    if (!p.fingerprint.empty()) return parseModelFingerprint(p.fingerprint) == modelFingerprint(g);
    std::int64_t named = 0;
    for (const OpMeasurement& x : p.ops) named += g.findOp(x.name) != kNoOp;
    // both ways: exporters name nodes n0, n1, ..., so a bigger model's profile names every op of a smaller one
    return 2 * named >= g.opCount() && 2 * named >= static_cast<std::int64_t>(p.ops.size());
}

ProfileMatch applyProfile(Graph& g, const Profile& p, const std::string& sourceName) {
    ProfileMatching m = matchProfileNames(g, p, sourceName);
    refuseAnotherModel(g, p, m.match, sourceName);
    const TimeUnit unit = g.timeUnit();
    const bool wasFinalized = g.finalized();
    checkProfileDurations(g, m.assignments, microsecondsToGraphUnit(g, m.match, sourceName), sourceName);
    std::vector<SavedOpTime> saved = setMeasuredDurations(g, m.assignments);
    if (unit == TimeUnit::Abstract) g.setTimeUnit(TimeUnit::Microseconds);   // every op is measured now
    try {
        g.finalize();   // e.g. the durations' total above its limit
    } catch (const GraphError& e) {
        restoreOpTimes(g, saved);
        g.setTimeUnit(unit);
        if (wasFinalized) g.finalize();   // as it was before
        io_detail::fail(sourceName, e.what());
    }
    return std::move(m.match);
}

} // namespace sl

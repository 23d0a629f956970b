// SPDX-License-Identifier: MIT
#include "core/costmodel/validator.h"

#include "core/costmodel/memorytimeline.h"
#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/stepmemory.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace sl {

namespace {

constexpr size_t kMaxErrors = 20;

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

/// end - start against the duration: `end` was computed as start + duration, rounded at the
/// magnitude of the times, so the slack scales with the times as well as with the duration (a 0.6
/// duration at time 2e7 is off by up to an ulp of 2e7, 4e-9).
bool runsForItsDuration(const ScheduledOp& o, double duration) {
    const double times = std::max(std::abs(o.start), std::abs(o.end));
    const double slack = 1e-9 * std::max(1.0, std::abs(duration)) + 8 * std::numeric_limits<double>::epsilon() * times;
    return std::abs((o.end - o.start) - duration) <= slack;
}

std::string num(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
}

/// a and b with as many digits as it takes to tell them apart (up to all 17).
std::pair<std::string, std::string> nums(double a, double b) {
    for (int digits = 6;; ++digits) {
        std::ostringstream x, y;
        x << std::setprecision(digits) << a;
        y << std::setprecision(digits) << b;
        if (x.str() != y.str() || digits >= std::numeric_limits<double>::max_digits10) return {x.str(), y.str()};
    }
}

/// The transfers are the ones the placement implies, once each, and their steps (if any) are
/// consistent with the order.
template <typename Fail>
void checkTransfers(const Problem& p, const Schedule& s, Fail&& fail) {
    const Graph& g = p.g();
    const std::vector<ScheduledTransfer> implied = impliedTransfers(p, s);
    auto key = [](const ScheduledTransfer& x) { return std::pair(x.tensor, x.to); };
    std::vector<std::pair<TensorId, int>> want, have;
    for (const auto& x : implied) want.push_back(key(x));
    for (const auto& x : s.transfers) {
        if (x.tensor < 0 || x.tensor >= g.tensorCount()) return fail("a transfer names tensor #" + std::to_string(x.tensor) + ", which does not exist");
        have.push_back(key(x));
    }
    std::sort(want.begin(), want.end());
    std::sort(have.begin(), have.end());
    if (want != have)
        return fail("the transfers are not the " + std::to_string(want.size()) +
                    " the placement implies (one per tensor and remote consumer device)");
    const bool anyStep = std::any_of(s.transfers.begin(), s.transfers.end(), [](auto& x) { return x.step >= 0; });
    const bool allSteps = std::all_of(s.transfers.begin(), s.transfers.end(), [](auto& x) { return x.step >= 0; });
    if (anyStep && !allSteps) return fail("some transfers have a step and others do not");
    try {
        std::vector<int> sequence;
        std::vector<TransferStep> steps;
        stepSequence(g, s, sequence, steps);
    } catch (const std::invalid_argument& e) {
        fail(e.what());
    }
}

/// With shared links: every op starts at or after the arrivals its order's link bookings give its
/// inputs, and the transfers carry the booked times (the time-clock memory reads them).
template <typename Fail>
void checkLinkBookings(const Problem& p, const Schedule& s, Fail&& fail) {
    const Graph& g = p.g();
    Schedule replay;
    try {
        replay = timeOnSharedLinks(p, s);
    } catch (const std::invalid_argument& e) {
        return fail(e.what());
    }
    const auto devices = static_cast<size_t>(p.platform.deviceCount());
    std::vector<const ScheduledTransfer*> booked(static_cast<size_t>(g.tensorCount()) * devices, nullptr);
    for (const ScheduledTransfer& x : replay.transfers) booked[static_cast<size_t>(x.tensor) * devices + static_cast<size_t>(x.to)] = &x;
    for (OpId v = 0; v < g.opCount(); ++v) {
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        for (TensorId t : g.inputs(v)) {
            const ScheduledTransfer* x = booked[static_cast<size_t>(t) * devices + static_cast<size_t>(o.device)];
            if (x == nullptr || o.start >= x->end || near(o.start, x->end)) continue;
            const auto [start, arrival] = nums(o.start, x->end);
            fail("op '" + g.op(v).name + "' starts at " + start + " before its input '" + g.tensor(t).name +
                 "' arrives over the shared links at " + arrival);
        }
    }
    for (const ScheduledTransfer& x : s.transfers) {
        const ScheduledTransfer* b = booked[static_cast<size_t>(x.tensor) * devices + static_cast<size_t>(x.to)];
        if (b == nullptr || (near(x.start, b->start) && near(x.end, b->end))) continue;
        const auto [end, due] = nums(x.end, b->end);
        fail("the transfer of '" + g.tensor(x.tensor).name + "' to device " + std::to_string(x.to) + " ends at " + end +
             ", the shared links book it until " + due);
    }
}

} // namespace

std::string orderError(const Graph& g, std::span<const OpId> order) {
    const int n = g.opCount();
    std::vector<int> pos(static_cast<size_t>(n), -1);
    bool permutation = static_cast<int>(order.size()) == n;
    for (size_t i = 0; permutation && i < order.size(); ++i) {
        const OpId v = order[i];
        if (v < 0 || v >= n || pos[static_cast<size_t>(v)] >= 0) permutation = false;
        else pos[static_cast<size_t>(v)] = static_cast<int>(i);
    }
    if (!permutation) return "the order is not a permutation of the graph's ops";
    for (OpId v = 0; v < n; ++v)
        for (OpId q : g.predecessors(v))
            if (pos[static_cast<size_t>(q)] > pos[static_cast<size_t>(v)])
                return "the order puts op '" + g.op(v).name + "' before its predecessor '" + g.op(q).name + "'";
    return {};
}

ValidationReport validateSchedule(const Problem& p, const Schedule& s) {
    ValidationReport r;
    const Graph& g = *p.graph;
    const int n = g.opCount();
    auto fail = [&](std::string msg) {
        if (r.errors.size() < kMaxErrors) r.errors.push_back(std::move(msg));
    };
    if (static_cast<int>(s.ops.size()) != n) {
        fail("the schedule has " + std::to_string(s.ops.size()) + " ops, the graph " + std::to_string(n));
        return r;
    }
    const auto& devices = p.platform.devices;
    for (OpId v = 0; v < n; ++v) {
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        const std::string who = "op '" + g.op(v).name + "'";
        if (o.device < 0 || o.device >= static_cast<int>(devices.size())) {
            fail(who + " is on device " + std::to_string(o.device) + ", which does not exist");
            return r;
        }
        if (!std::isfinite(o.start) || !std::isfinite(o.end) || o.start < 0)
            fail(who + " has an invalid start/end " + num(o.start) + " / " + num(o.end));
        if (devices[static_cast<size_t>(o.device)].machineType != g.op(v).machineType)
            fail(who + " needs machine type " + std::to_string(g.op(v).machineType) + " but runs on '" +
                 devices[static_cast<size_t>(o.device)].name + "'");
        if (const double duration = g.durationOn(v, o.device); !runsForItsDuration(o, duration)) {
            const auto [ran, due] = nums(o.end - o.start, duration);
            const auto [from, to] = nums(o.start, o.end);
            fail(who + " runs for " + ran + " (" + from + " to " + to + ") but its duration there is " + due);
        }
    }
    if (const std::string pin = pinViolation(g, p.pins, s); !pin.empty()) fail(pin);
    // Precedence, with transfer time between devices.
    for (TensorId t = 0; t < g.tensorCount(); ++t) {
        const Tensor& x = g.tensor(t);
        const ScheduledOp& pr = s.ops[static_cast<size_t>(x.producer)];
        for (OpId c : x.consumers) {
            const ScheduledOp& co = s.ops[static_cast<size_t>(c)];
            const double arrival = pr.end + p.platform.transferTime(pr.device, co.device, x.bytes);
            if (co.start < arrival && !near(co.start, arrival)) {
                const auto [start, available] = nums(co.start, arrival);
                fail("op '" + g.op(c).name + "' starts at " + start + " before its input '" + x.name +
                     "' is available at " + available);
            }
        }
    }
    // Resource capacity per device: sweep start/end events, ends first at equal times.
    std::vector<std::vector<std::pair<double, double>>> ev(devices.size());
    for (OpId v = 0; v < n; ++v) {
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        if (o.end <= o.start) continue;   // zero-duration ops occupy nothing
        ev[static_cast<size_t>(o.device)].push_back({o.start, g.op(v).resourceDemand});
        ev[static_cast<size_t>(o.device)].push_back({o.end, -g.op(v).resourceDemand});
    }
    for (size_t d = 0; d < devices.size(); ++d) {
        auto& e = ev[d];
        std::sort(e.begin(), e.end(), [](auto& a, auto& b) { return a.first < b.first || (a.first == b.first && a.second < b.second); });
        double used = 0;
        for (auto& [time, delta] : e) {
            used += delta;
            if (used > devices[d].resourceCapacity + 1e-9) {
                fail("device '" + devices[d].name + "' runs ops needing " + num(used) + " resource units at time " +
                     num(time) + " (capacity " + num(devices[d].resourceCapacity) + ")");
                break;
            }
        }
    }
    // The total order must be a topological permutation.
    if (const std::string error = orderError(g, s.order); !error.empty()) fail(error);
    if (!r.ok()) return r;
    checkTransfers(p, s, fail);
    if (!r.ok()) return r;
    if (linksShared(p.platform)) checkLinkBookings(p, s, fail);
    if (!r.ok()) return r;

    Schedule scored = s;
    scoreSchedule(p, scored);
    const MemoryPeaks& peaks = scored.memory();
    for (size_t d = 0; d < devices.size(); ++d)
        if (peaks.devices[d] > devices[d].memoryCapacity) {
            r.memoryFeasible = false;
            r.warnings.push_back("device '" + devices[d].name + "' needs " + num(peaks.devices[d]) + " bytes (" +
                                 toString(scored.memoryClock) + " clock), " +
                                 num(peaks.devices[d] - devices[d].memoryCapacity) + " over its capacity");
        }
    return r;
}

ValidationReport requireValidResult(const Problem& p, const Schedule& s, const std::string& method) {
    ValidationReport v = validateSchedule(p, s);
    if (!v.ok()) throw std::runtime_error(method + " produced an invalid schedule: " + v.errors.front());
    return v;
}

} // namespace sl

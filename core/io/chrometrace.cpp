// SPDX-License-Identifier: MIT
// Chrome Trace Event JSON (chrome://tracing, Perfetto): docs/formats.md, "Chrome trace" and
// "Format details we rely on".
//
// Layout: process 1 "SchedLab schedule" has one thread per device (tid = device index) with an "X"
// slice per op, and one counter per device ("memory <device>", bytes in use, from the cost
// model's memory timeline). Process 2 "transfers" holds the transfers that take time, packed into
// lanes per (from, to) pair so that no lane overlaps; every transfer is also a flow arrow from its
// producer's slice to the first consumer on the destination. 1 schedule time unit = 1 µs.
#include "core/io/scheduleio.h"

#include "core/costmodel/memorytimeline.h"
#include "core/io/scheduleformat.h"
#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace sl {
namespace {

using nlohmann::json;

constexpr int kDevicesPid = 1;
constexpr int kTransfersPid = 2;

json meta(const char* name, int pid, std::optional<int> tid, json args) {
    json e = {{"name", name}, {"ph", "M"}, {"pid", pid}, {"args", std::move(args)}};
    if (tid) e["tid"] = *tid;
    return e;
}

/// The events of one trace, dumped one by one into the text: no DOM of the whole trace (100k ops
/// + transfers).
class TraceEvents {
public:
    TraceEvents(const Problem& p, const Schedule& s) : m_p(p), m_s(s), m_g(p.g()) {
        m_events.reserve(static_cast<size_t>(m_g.opCount()) * 200 + s.transfers.size() * 300);
    }

    void add(const json& e) {
        m_events += m_events.empty() ? "\n" : ",\n";
        m_events += e.dump();
    }

    /// Process 1 and one named, sorted thread per device.
    void addDeviceTracks() {
        std::string title = "SchedLab schedule";
        if (!m_s.method.empty()) title += ": " + m_s.method + " (seed " + std::to_string(m_s.seed) + ")";
        add(meta("process_name", kDevicesPid, {}, {{"name", title}}));
        add(meta("process_sort_index", kDevicesPid, {}, {{"sort_index", 0}}));
        for (int d = 0; d < m_p.platform.deviceCount(); ++d) {
            add(meta("thread_name", kDevicesPid, d, {{"name", scheduleformat::deviceName(m_p, d)}}));
            add(meta("thread_sort_index", kDevicesPid, d, {{"sort_index", d}}));
        }
    }

    /// Ops, one slice each on its device's track.
    void addOpSlices() {
        const std::vector<int> position = scheduleformat::positions(m_p, m_s);
        for (OpId v = 0; v < m_g.opCount(); ++v) {
            const Op& op = m_g.op(v);
            const ScheduledOp& o = m_s.ops[static_cast<size_t>(v)];
            json e = {{"name", op.name}, {"ph", "X"}, {"ts", o.start}, {"dur", o.end - o.start},
                      {"pid", kDevicesPid}, {"tid", o.device},
                      {"args", {{"op", v}, {"position", position[static_cast<size_t>(v)]}, {"device", scheduleformat::deviceName(m_p, o.device)}}}};
            if (!op.type.empty()) {
                e["cat"] = op.type;
                e["args"]["type"] = op.type;
            }
            add(e);
        }
    }

    /// Transfers: timed ones as slices in lanes per (from, to), packed in start order; every one
    /// as a flow arrow. Process 2 is named only when it holds a slice.
    void addTransfers() {
        std::vector<size_t> byStart(m_s.transfers.size());
        for (size_t k = 0; k < byStart.size(); ++k) byStart[k] = k;
        std::stable_sort(byStart.begin(), byStart.end(),
                         [&](size_t a, size_t b) { return m_s.transfers[a].start < m_s.transfers[b].start; });
        bool anyTimed = false;
        for (const size_t k : byStart) {
            const ScheduledTransfer& t = m_s.transfers[k];
            if (t.end > t.start) {
                addTransferSlice(t);
                anyTimed = true;
            }
            addTransferArrow(t, k);
        }
        if (anyTimed) {
            add(meta("process_name", kTransfersPid, {}, {{"name", "transfers"}}));
            add(meta("process_sort_index", kTransfersPid, {}, {{"sort_index", 1}}));
        }
    }

    /// Memory per device: the cost model's step function, one counter track per device. Returns
    /// the timeline's peak.
    double addMemoryCounters() {
        const MemoryTimeline tl = computeMemoryTimeline(m_p, m_s);
        for (int d = 0; d < m_p.platform.deviceCount(); ++d) {
            const std::string name = "memory " + scheduleformat::deviceName(m_p, d);
            for (const MemoryPoint& pt : tl.curves[static_cast<size_t>(d)])
                add({{"name", name}, {"ph", "C"}, {"pid", kDevicesPid}, {"ts", pt.time}, {"args", {{"bytes", pt.bytes}}}});
        }
        return tl.peak;
    }

    const std::string& text() const { return m_events; }

private:
    /// The lane of (from, to) free at the transfer's start, or a new one (named on first use).
    int laneFor(const ScheduledTransfer& t) {
        auto& pairLanes = m_lanes[{t.from, t.to}];
        for (auto& [laneTid, busyUntil] : pairLanes)
            if (busyUntil <= t.start) {
                busyUntil = t.end;
                return laneTid;
            }
        const int tid = m_nextLaneTid++;
        std::string name = scheduleformat::deviceName(m_p, t.from) + " -> " + scheduleformat::deviceName(m_p, t.to);
        if (!pairLanes.empty()) name += " #" + std::to_string(pairLanes.size() + 1);
        pairLanes.emplace_back(tid, t.end);
        add(meta("thread_name", kTransfersPid, tid, {{"name", name}}));
        add(meta("thread_sort_index", kTransfersPid, tid, {{"sort_index", tid}}));
        return tid;
    }

    void addTransferSlice(const ScheduledTransfer& t) {
        const Tensor& x = m_g.tensor(t.tensor);
        const int tid = laneFor(t);
        add({{"name", x.name}, {"cat", "transfer"}, {"ph", "X"}, {"ts", t.start}, {"dur", t.end - t.start},
             {"pid", kTransfersPid}, {"tid", tid},
             {"args", {{"tensor", x.name}, {"bytes", x.bytes},
                       {"from", scheduleformat::deviceName(m_p, t.from)}, {"to", scheduleformat::deviceName(m_p, t.to)}}}});
    }

    /// The arrow of transfer `k`: producer's slice -> the first consumer of the tensor on the destination.
    void addTransferArrow(const ScheduledTransfer& t, size_t k) {
        const Tensor& x = m_g.tensor(t.tensor);
        OpId first = kNoOp;
        for (OpId c : x.consumers) {
            const ScheduledOp& co = m_s.ops[static_cast<size_t>(c)];
            if (co.device == t.to && (first == kNoOp || co.start < m_s.ops[static_cast<size_t>(first)].start)) first = c;
        }
        if (first == kNoOp || x.producer == kNoOp) return;
        const ScheduledOp& prod = m_s.ops[static_cast<size_t>(x.producer)];
        const ScheduledOp& cons = m_s.ops[static_cast<size_t>(first)];
        const auto id = static_cast<std::int64_t>(k) + 1;
        add({{"name", "transfer"}, {"cat", "transfer"}, {"ph", "s"}, {"id", id}, {"pid", kDevicesPid},
             {"tid", prod.device}, {"ts", (prod.start + prod.end) / 2}});
        add({{"name", "transfer"}, {"cat", "transfer"}, {"ph", "f"}, {"bp", "e"}, {"id", id},
             {"pid", kDevicesPid}, {"tid", cons.device}, {"ts", cons.start}});
    }

    const Problem& m_p;
    const Schedule& m_s;
    const Graph& m_g;
    std::string m_events;
    std::map<std::pair<int, int>, std::vector<std::pair<int, double>>> m_lanes;   // (from, to) -> (tid, busy until)
    int m_nextLaneTid = 0;
};

} // namespace

void saveChromeTrace(const Problem& p, const Schedule& s, const std::string& path) {
    writeFileAtomically(path, chromeTraceJson(p, s, path));
}

std::string chromeTraceJson(const Problem& p, const Schedule& s, const std::string& sourceName) {
    scheduleformat::checkShape(p, s, sourceName);
    TraceEvents events(p, s);
    events.addDeviceTracks();
    events.addOpSlices();
    events.addTransfers();
    const double counterPeak = events.addMemoryCounters();

    json otherData = {{"generator", "SchedLab"},
                      {"time_unit", "1 schedule time unit = 1 us"},
                      {"makespan", s.makespan},
                      {"peak_memory_bytes", s.peakMemory()},
                      {"memory_clock", toString(s.memoryClock)},
                      {"counter_peak_memory_bytes", counterPeak},
                      {"method", s.method},
                      {"seed", s.seed}};
    std::string text = "{\"displayTimeUnit\": \"ms\", \"otherData\": " + otherData.dump() + ", \"traceEvents\": [";
    text += events.text();
    text += "\n]}\n";
    return text;
}

} // namespace sl

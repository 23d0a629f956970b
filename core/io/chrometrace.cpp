// SPDX-License-Identifier: MIT
// Chrome Trace Event JSON (chrome://tracing, Perfetto): spec/formats-and-prior-art.md §3.
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

} // namespace

void saveChromeTrace(const Problem& p, const Schedule& s, const std::string& path) {
    writeFileAtomically(path, chromeTraceJson(p, s, path));
}

std::string chromeTraceJson(const Problem& p, const Schedule& s, const std::string& sourceName) {
    scheduleformat::checkShape(p, s, sourceName);
    const Graph& g = p.g();
    const int nd = p.platform.deviceCount();
    const std::vector<int> position = scheduleformat::positions(p, s);
    // Events are dumped one by one into the text: no DOM of the whole trace (100k ops + transfers).
    std::string events;
    events.reserve(static_cast<size_t>(g.opCount()) * 200 + s.transfers.size() * 300);
    const auto add = [&events](const json& e) {
        events += events.empty() ? "\n" : ",\n";
        events += e.dump();
    };

    std::string title = "SchedLab schedule";
    if (!s.method.empty()) title += ": " + s.method + " (seed " + std::to_string(s.seed) + ")";
    add(meta("process_name", kDevicesPid, {}, {{"name", title}}));
    add(meta("process_sort_index", kDevicesPid, {}, {{"sort_index", 0}}));
    for (int d = 0; d < nd; ++d) {
        add(meta("thread_name", kDevicesPid, d, {{"name", scheduleformat::deviceName(p, d)}}));
        add(meta("thread_sort_index", kDevicesPid, d, {{"sort_index", d}}));
    }

    // ops, one slice each on its device's track
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Op& op = g.op(v);
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        json e = {{"name", op.name}, {"ph", "X"}, {"ts", o.start}, {"dur", o.end - o.start},
                  {"pid", kDevicesPid}, {"tid", o.device},
                  {"args", {{"op", v}, {"position", position[static_cast<size_t>(v)]}, {"device", scheduleformat::deviceName(p, o.device)}}}};
        if (!op.type.empty()) {
            e["cat"] = op.type;
            e["args"]["type"] = op.type;
        }
        add(e);
    }

    // transfers: timed ones as slices in lanes per (from, to); every one as a flow arrow
    std::map<std::pair<int, int>, std::vector<std::pair<int, double>>> lanes;   // (from, to) -> (tid, busy until)
    int nextLaneTid = 0;
    bool anyTimed = false;
    std::vector<size_t> byStart(s.transfers.size());   // lanes are packed in start order
    for (size_t k = 0; k < byStart.size(); ++k) byStart[k] = k;
    std::stable_sort(byStart.begin(), byStart.end(),
                     [&](size_t a, size_t b) { return s.transfers[a].start < s.transfers[b].start; });
    for (const size_t k : byStart) {
        const ScheduledTransfer& t = s.transfers[k];
        const Tensor& x = g.tensor(t.tensor);
        if (t.end > t.start) {
            auto& pairLanes = lanes[{t.from, t.to}];
            int tid = -1;
            for (auto& [laneTid, busyUntil] : pairLanes)
                if (busyUntil <= t.start) {
                    tid = laneTid;
                    busyUntil = t.end;
                    break;
                }
            if (tid < 0) {
                tid = nextLaneTid++;
                std::string name = scheduleformat::deviceName(p, t.from) + " -> " + scheduleformat::deviceName(p, t.to);
                if (!pairLanes.empty()) name += " #" + std::to_string(pairLanes.size() + 1);
                pairLanes.emplace_back(tid, t.end);
                add(meta("thread_name", kTransfersPid, tid, {{"name", name}}));
                add(meta("thread_sort_index", kTransfersPid, tid, {{"sort_index", tid}}));
            }
            anyTimed = true;
            add({{"name", x.name}, {"cat", "transfer"}, {"ph", "X"}, {"ts", t.start}, {"dur", t.end - t.start},
                              {"pid", kTransfersPid}, {"tid", tid},
                              {"args", {{"tensor", x.name}, {"bytes", x.bytes},
                                        {"from", scheduleformat::deviceName(p, t.from)}, {"to", scheduleformat::deviceName(p, t.to)}}}});
        }
        // the arrow: producer's slice -> the first consumer of the tensor on the destination
        OpId first = kNoOp;
        for (OpId c : x.consumers) {
            const ScheduledOp& co = s.ops[static_cast<size_t>(c)];
            if (co.device == t.to && (first == kNoOp || co.start < s.ops[static_cast<size_t>(first)].start)) first = c;
        }
        if (first == kNoOp || x.producer == kNoOp) continue;
        const ScheduledOp& prod = s.ops[static_cast<size_t>(x.producer)];
        const ScheduledOp& cons = s.ops[static_cast<size_t>(first)];
        const auto id = static_cast<std::int64_t>(k) + 1;
        add({{"name", "transfer"}, {"cat", "transfer"}, {"ph", "s"}, {"id", id}, {"pid", kDevicesPid},
                          {"tid", prod.device}, {"ts", (prod.start + prod.end) / 2}});
        add({{"name", "transfer"}, {"cat", "transfer"}, {"ph", "f"}, {"bp", "e"}, {"id", id},
                          {"pid", kDevicesPid}, {"tid", cons.device}, {"ts", cons.start}});
    }
    if (anyTimed) {
        add(meta("process_name", kTransfersPid, {}, {{"name", "transfers"}}));
        add(meta("process_sort_index", kTransfersPid, {}, {{"sort_index", 1}}));
    }

    // memory per device: the cost model's step function, one counter track per device
    const MemoryTimeline tl = computeMemoryTimeline(p, s);
    for (int d = 0; d < nd; ++d) {
        const std::string name = "memory " + scheduleformat::deviceName(p, d);
        for (const MemoryPoint& pt : tl.curves[static_cast<size_t>(d)])
            add({{"name", name}, {"ph", "C"}, {"pid", kDevicesPid}, {"ts", pt.time}, {"args", {{"bytes", pt.bytes}}}});
    }

    json otherData = {{"generator", "SchedLab"},
                      {"time_unit", "1 schedule time unit = 1 us"},
                      {"makespan", s.makespan},
                      {"peak_memory_bytes", s.peakMemory()},
                      {"memory_clock", toString(s.memoryClock)},
                      {"counter_peak_memory_bytes", tl.peak},
                      {"method", s.method},
                      {"seed", s.seed}};
    std::string text = "{\"displayTimeUnit\": \"ms\", \"otherData\": " + otherData.dump() + ", \"traceEvents\": [";
    text += events;
    text += "\n]}\n";
    return text;
}

} // namespace sl

// SPDX-License-Identifier: MIT
// Schedule JSON: the stable contract of core/io/scheduleio.h and docs/formats.md.
#include "core/io/scheduleio.h"

#include "core/costmodel/memorytimeline.h"
#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"
#include "core/io/scheduleformat.h"
#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace sl {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "schedlab-schedule";
/// 1: SchedLab up to 0.4; 2: pins ("pins"). A file without pins is still written as version 1, so
/// older readers read it; one with pins is version 2, which they refuse rather than drop the pins.
constexpr int kVersion = 2;
constexpr int kVersionWithoutPins = 1;

/// Reads typed fields and names the file and the place of every fault.
class ScheduleReader {
public:
    explicit ScheduleReader(const std::string& source) : m_source(source) {}

    [[noreturn]] void fail(const std::string& what) const { throw IoError(m_source + ": " + what); }

    const json& field(const json& object, const char* key, const std::string& where) const {
        auto it = object.find(key);
        if (it == object.end()) fail(where + " has no \"" + key + "\"");
        return *it;
    }
    double number(const json& v, const std::string& where) const {
        if (!v.is_number()) fail(where + " must be a number, not " + typeName(v));
        const double x = v.get<double>();
        if (!std::isfinite(x)) fail(where + " must be a finite number");
        return x;
    }
    std::string string(const json& v, const std::string& where) const {
        if (!v.is_string()) fail(where + " must be a string, not " + typeName(v));
        return v.get<std::string>();
    }
    const json& array(const json& v, const std::string& where) const {
        if (!v.is_array()) fail(where + " must be an array, not " + typeName(v));
        return v;
    }
    /// A device index: an integer (2 or 2.0) in [0, count). `owner` names the op or transfer.
    int device(const json& v, const std::string& owner, const char* key, int count) const {
        if (!v.is_number()) fail(owner + ": \"" + key + "\" must be a device index (an integer), not " + typeName(v));
        const double x = v.get<double>();
        if (x != std::floor(x)) fail(owner + ": \"" + key + "\" must be a device index (an integer), not " + v.dump());
        if (x < 0 || x >= count)
            fail(owner + ": device " + v.dump() + " is out of range (the platform has " + std::to_string(count) +
                 (count == 1 ? " device)" : " devices)"));
        return static_cast<int>(x);
    }

private:
    static std::string typeName(const json& v) {
        if (v.is_number()) return "a number";
        if (v.is_string()) return "a string (" + v.dump() + ")";
        if (v.is_null()) return "null";
        if (v.is_boolean()) return "a boolean";
        if (v.is_array()) return "an array";
        return "an object";
    }
    std::string m_source;
};

std::string quoted(const std::string& name) { return "'" + name + "'"; }

} // namespace

/// "pins": [{"op": name, "device": index, "rank": place among the device's ranked pins (when ranked)}].
json pinsJson(const Problem& p) {
    json pins = json::array();
    for (OpId v = 0; v < p.g().opCount(); ++v) {
        const Pin pin = p.pins.of(v);
        if (pin.device < 0) continue;
        json e = {{"op", p.g().op(v).name}, {"device", pin.device}};
        if (pin.rank >= 0) e["rank"] = pin.rank;
        pins.push_back(std::move(e));
    }
    return pins;
}

std::string scheduleToJson(const Problem& p, const Schedule& s) {
    scheduleformat::checkShape(p, s, "schedule" + (s.method.empty() ? std::string() : " of " + s.method));
    const Graph& g = p.g();
    // Written by hand around nlohmann's dump: the header fields first, one op or transfer per line.
    nlohmann::ordered_json head = nlohmann::ordered_json::object();
    head["format"] = kFormat;
    head["version"] = p.pins.empty() ? kVersionWithoutPins : kVersion;
    if (!p.pins.empty()) head["pins"] = pinsJson(p);
    head["makespan"] = s.makespan;
    head["peak_memory_bytes"] = s.peakMemory();
    head["memory_clock"] = toString(s.memoryClock);
    head["peak_memory_step_bytes"] = s.stepMemory.peak;
    head["peak_memory_time_bytes"] = s.timeMemory.peak;
    head["method"] = s.method;
    head["seed"] = s.seed;
    json devices = json::array();
    for (int d = 0; d < p.platform.deviceCount(); ++d) devices.push_back(scheduleformat::deviceName(p, d));
    head["devices"] = std::move(devices);
    // where the schedule belongs: readers adopt the platform and tell another graph by its fingerprint
    head["platform"] = io_detail::platformJsonValue(p.platform);
    head["graph"] = {{"ops", g.opCount()}, {"tensors", g.tensorCount()}, {"fingerprint", fingerprintText(graphFingerprint(g))}};
    if (s.memory().devices.size() == static_cast<size_t>(p.platform.deviceCount()))
        head["device_peak_memory_bytes"] = s.memory().devices;
    json order = json::array();
    for (OpId v : scheduleformat::rowOrder(p, s)) order.push_back(g.op(v).name);
    head["order"] = std::move(order);

    std::string out = "{\n";
    for (const auto& [key, value] : head.items()) out += " " + json(key).dump() + ": " + value.dump() + ",\n";
    out += " \"ops\": [";
    for (OpId v = 0; v < g.opCount(); ++v) {
        const ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        nlohmann::ordered_json e = {{"id", g.op(v).name}, {"device", o.device}, {"start", o.start}, {"end", o.end}};
        out += (v ? ",\n  " : "\n  ") + e.dump();
    }
    out += g.opCount() ? "\n ],\n" : "],\n";
    out += " \"transfers\": [";
    for (size_t k = 0; k < s.transfers.size(); ++k) {
        const ScheduledTransfer& t = s.transfers[k];
        nlohmann::ordered_json e = {{"tensor", g.tensor(t.tensor).name}, {"from", t.from}, {"to", t.to},
                                    {"start", t.start}, {"end", t.end}};
        if (t.step >= 0) e["step"] = t.step;
        out += (k ? ",\n  " : "\n  ") + e.dump();
    }
    out += s.transfers.empty() ? "]\n}\n" : "\n ]\n}\n";
    return out;
}

void saveScheduleJson(const Problem& p, const Schedule& s, const std::string& path) {
    scheduleformat::checkShape(p, s, path);
    writeFileAtomically(path, scheduleToJson(p, s));
}

namespace {

/// The JSON document, or a fault naming what is wrong with the text.
json parseDocument(const ScheduleReader& r, std::string_view text) {
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        std::string why = e.what();
        if (auto at = why.find("] "); at != std::string::npos) why.erase(0, at + 2);   // drop "[json.exception...]"
        r.fail("not valid JSON (truncated?): " + why);
    } catch (const json::out_of_range& e) {   // a number beyond a double: not a parse_error
        r.fail("not valid JSON: " + io_detail::jsonOutOfRangeReason(e));
    }
}

/// An object of our format, in a version this build reads.
void checkHeader(const ScheduleReader& r, const json& j) {
    if (!j.is_object()) r.fail("a schedule file is a JSON object with \"ops\" and \"order\"");
    if (auto it = j.find("format"); it != j.end() && (!it->is_string() || it->get<std::string>() != kFormat))
        r.fail("not a SchedLab schedule (\"format\" is " + it->dump() + ", expected \"" + kFormat + "\")");
    if (auto it = j.find("version"); it != j.end()) {
        if (!it->is_number_integer()) r.fail("\"version\" must be an integer");
        if (it->get<std::int64_t>() > kVersion)
            r.fail("schedule version " + it->dump() + " is newer than this SchedLab reads (" + std::to_string(kVersion) + ")");
    }
}

/// "devices": names, no more of them than the platform has.
void checkDevices(const ScheduleReader& r, const json& j, int deviceCount) {
    auto it = j.find("devices");
    if (it == j.end()) return;
    const json& names = r.array(*it, "\"devices\"");
    for (size_t d = 0; d < names.size(); ++d) r.string(names[d], "\"devices\"[" + std::to_string(d) + "]");
    if (names.size() > static_cast<size_t>(deviceCount))
        r.fail("the schedule uses " + std::to_string(names.size()) + " devices, the platform has " +
               std::to_string(deviceCount) + " (use --devices or --platform to match)");
}

/// "ops": one entry per op of the graph, into s.ops.
void readOps(const ScheduleReader& r, const json& j, const Graph& g, int deviceCount, Schedule& s) {
    std::vector<char> seen(static_cast<size_t>(g.opCount()), 0);
    const json& ops = r.array(r.field(j, "ops", "the file"), "\"ops\"");
    for (size_t i = 0; i < ops.size(); ++i) {
        const std::string where = "\"ops\"[" + std::to_string(i) + "]";
        const json& e = ops[i];
        if (!e.is_object()) r.fail(where + " must be an object {\"id\", \"device\", \"start\", \"end\"}");
        const std::string name = r.string(r.field(e, "id", where), where + ".id");
        const OpId v = g.findOp(name);
        if (v == kNoOp) r.fail(where + ": unknown op " + quoted(name) + " (not in the graph)");
        if (seen[static_cast<size_t>(v)]) r.fail("op " + quoted(name) + " appears twice in \"ops\"");
        seen[static_cast<size_t>(v)] = 1;
        const std::string at = "op " + quoted(name);
        ScheduledOp& o = s.ops[static_cast<size_t>(v)];
        o.device = r.device(r.field(e, "device", at), at, "device", deviceCount);
        o.start = r.number(r.field(e, "start", at), at + ": \"start\"");
        o.end = r.number(r.field(e, "end", at), at + ": \"end\"");
    }
    for (OpId v = 0; v < g.opCount(); ++v)
        if (!seen[static_cast<size_t>(v)]) {
            const auto missing = std::count(seen.begin(), seen.end(), 0);
            r.fail("\"ops\" has no entry for op " + quoted(g.op(v).name) +
                   (missing > 1 ? " (and " + std::to_string(missing - 1) + " other ops)" : std::string()));
        }
}

/// "order": every op once; derived from the start times when absent.
void readOrder(const ScheduleReader& r, const json& j, const Problem& p, Schedule& s) {
    const Graph& g = p.g();
    auto it = j.find("order");
    if (it == j.end()) {
        s.order = scheduleformat::rowOrder(p, s);
        return;
    }
    const json& order = r.array(*it, "\"order\"");
    std::vector<char> seen(static_cast<size_t>(g.opCount()), 0);
    s.order.reserve(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
        const std::string name = r.string(order[i], "\"order\"[" + std::to_string(i) + "]");
        const OpId v = g.findOp(name);
        if (v == kNoOp) r.fail("\"order\"[" + std::to_string(i) + "]: unknown op " + quoted(name) + " (not in the graph)");
        if (seen[static_cast<size_t>(v)]) r.fail("op " + quoted(name) + " appears twice in \"order\"");
        seen[static_cast<size_t>(v)] = 1;
        s.order.push_back(v);
    }
    for (OpId v = 0; v < g.opCount(); ++v)
        if (!seen[static_cast<size_t>(v)]) r.fail("\"order\" does not contain op " + quoted(g.op(v).name));
}

/// One entry of "transfers"; among same-named tensors, the one produced on `from`.
ScheduledTransfer readTransfer(const ScheduleReader& r, const json& e, const std::string& where, const Graph& g, int deviceCount,
                               const std::unordered_multimap<std::string_view, TensorId>& byName, const Schedule& s) {
    if (!e.is_object()) r.fail(where + " must be an object {\"tensor\", \"from\", \"to\", \"start\", \"end\"}");
    ScheduledTransfer t;
    const std::string name = r.string(r.field(e, "tensor", where), where + ".tensor");
    t.from = r.device(r.field(e, "from", where), where, "from", deviceCount);
    t.to = r.device(r.field(e, "to", where), where, "to", deviceCount);
    t.start = r.number(r.field(e, "start", where), where + ".start");
    t.end = r.number(r.field(e, "end", where), where + ".end");
    if (auto st = e.find("step"); st != e.end()) {
        if (!st->is_number_integer() || st->get<std::int64_t>() < 0 || st->get<std::int64_t>() > (1 << 30))
            r.fail(where + ".step must be a non-negative integer (the transfer's position in the step sequence), not " + st->dump());
        t.step = st->get<int>();
    }
    auto [b, end] = byName.equal_range(name);
    if (b == end) r.fail(where + ": unknown tensor " + quoted(name) + " (not in the graph)");
    t.tensor = b->second;
    for (auto c = b; c != end; ++c)
        if (s.ops[static_cast<size_t>(g.tensor(c->second).producer)].device == t.from) {
            t.tensor = c->second;
            break;
        }
    return t;
}

/// "transfers": as written, else the ones the placement implies.
void readTransfers(const ScheduleReader& r, const json& j, const Problem& p, Schedule& s) {
    auto it = j.find("transfers");
    if (it == j.end()) {
        s.transfers = impliedTransfers(p, s);
        return;
    }
    const Graph& g = p.g();
    const json& transfers = r.array(*it, "\"transfers\"");
    std::unordered_multimap<std::string_view, TensorId> byName;
    byName.reserve(static_cast<size_t>(g.tensorCount()));
    for (TensorId t = 0; t < g.tensorCount(); ++t) byName.emplace(g.tensor(t).name, t);
    for (size_t i = 0; i < transfers.size(); ++i)
        s.transfers.push_back(readTransfer(r, transfers[i], "\"transfers\"[" + std::to_string(i) + "]", g,
                                           p.platform.deviceCount(), byName, s));
}

/// "memory_clock", "method" and "seed".
void readProvenance(const ScheduleReader& r, const json& j, Schedule& s) {
    if (auto it = j.find("memory_clock"); it != j.end()) {
        const std::string clock = r.string(*it, "\"memory_clock\"");
        if (clock != "time" && clock != "step")
            r.fail("\"memory_clock\" must be \"time\" or \"step\", not " + it->dump());
        s.memoryClock = memoryClockFromString(clock);
    }
    if (auto it = j.find("method"); it != j.end() && !it->is_null()) s.method = r.string(*it, "\"method\"");
    if (auto it = j.find("seed"); it != j.end() && !it->is_null()) {
        if (!it->is_number_unsigned()) r.fail("\"seed\" must be a non-negative integer, not " + it->dump());
        s.seed = it->get<std::uint64_t>();
    }
}

/// The objective values in the file are not trusted: sl::scoreSchedule recomputes them once the
/// schedule is validated. They must still be numbers: anything else is a corrupt file.
void checkReportedValues(const ScheduleReader& r, const json& j) {
    for (const char* key : {"makespan", "peak_memory_bytes", "peak_memory_step_bytes", "peak_memory_time_bytes"})
        if (auto it = j.find(key); it != j.end()) r.number(*it, "\"" + std::string(key) + "\"");
    if (auto it = j.find("device_peak_memory_bytes"); it != j.end()) {
        const json& peaks = r.array(*it, "\"device_peak_memory_bytes\"");
        for (size_t d = 0; d < peaks.size(); ++d) r.number(peaks[d], "\"device_peak_memory_bytes\"[" + std::to_string(d) + "]");
    }
}

} // namespace

Schedule parseScheduleJson(const Problem& p, std::string_view text, const std::string& sourceName) {
    const ScheduleReader r(sourceName);
    const int deviceCount = p.platform.deviceCount();
    const json j = parseDocument(r, text);
    checkHeader(r, j);

    Schedule s;
    s.ops.assign(static_cast<size_t>(p.g().opCount()), ScheduledOp{});
    checkDevices(r, j, deviceCount);
    readOps(r, j, p.g(), deviceCount, s);
    readOrder(r, j, p, s);
    readTransfers(r, j, p, s);
    readProvenance(r, j, s);
    checkReportedValues(r, j);
    return s;
}

Pins parseSchedulePins(const Problem& p, std::string_view text, const std::string& sourceName) {
    const ScheduleReader r(sourceName);
    const json j = parseDocument(r, text);
    checkHeader(r, j);
    Pins pins;
    auto it = j.find("pins");
    if (it == j.end()) return pins;
    const json& entries = r.array(*it, "\"pins\"");
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string where = "\"pins\"[" + std::to_string(i) + "]";
        const json& e = entries[i];
        if (!e.is_object()) r.fail(where + " must be an object {\"op\", \"device\", \"rank\"}");
        const std::string name = r.string(r.field(e, "op", where), where + ".op");
        const OpId v = p.g().findOp(name);
        if (v == kNoOp) r.fail(where + ": unknown op " + quoted(name) + " (not in the graph)");
        const int device = r.device(r.field(e, "device", where), where, "device", p.platform.deviceCount());
        int rank = -1;
        if (auto k = e.find("rank"); k != e.end()) {
            const double x = r.number(*k, where + ".rank");
            if (x < 0 || x != std::floor(x) || x > INT_MAX) r.fail(where + ": \"rank\" must be a whole number >= 0, not " + k->dump());
            rank = static_cast<int>(x);
        }
        pins.pin(v, device, rank);
    }
    if (const std::string why = pinsError(p.g(), p.platform, pins); !why.empty()) r.fail("\"pins\": " + why);
    return pins;
}

Pins loadSchedulePins(const Problem& p, const std::string& path) {
    return parseSchedulePins(p, readFile(path, std::size_t(1) << 30), path);
}

Schedule loadScheduleJson(const Problem& p, const std::string& path) {
    return parseScheduleJson(p, readFile(path, std::size_t(1) << 30), path);
}

ScheduleOrigin parseScheduleOrigin(std::string_view text, const std::string& sourceName) {
    const ScheduleReader r(sourceName);
    json j;
    try {
        j = json::parse(text.begin(), text.end());
    } catch (const json::parse_error&) {
        return {};   // parseScheduleJson names the fault with its line and column
    } catch (const json::out_of_range&) {
        return {};   // a number beyond a double: parseScheduleJson names it too
    }
    ScheduleOrigin o;
    if (!j.is_object()) return o;
    if (auto it = j.find("devices"); it != j.end() && it->is_array()) o.deviceCount = static_cast<int>(it->size());
    if (auto it = j.find("platform"); it != j.end() && !it->is_null())
        o.platform = io_detail::platformFromJson(*it, sourceName + ": platform");
    if (auto it = j.find("graph"); it != j.end() && it->is_object()) {
        if (auto f = it->find("fingerprint"); f != it->end()) {
            o.graphFingerprint = parseFingerprint(r.string(*f, "\"graph\".fingerprint"));
            if (!o.graphFingerprint) r.fail("\"graph\".fingerprint must read \"fnv1a64:\" and 16 hex digits, not " + f->dump());
        }
        if (auto n = it->find("ops"); n != it->end()) {
            // a count: casting 1e300 to int would be undefined behaviour
            const double ops = r.number(*n, "\"graph\".ops");
            if (ops < 0 || ops > INT_MAX || ops != std::floor(ops))
                r.fail("\"graph\".ops must be a whole number of ops, not " + n->dump());
            o.graphOps = static_cast<int>(ops);
        }
    }
    return o;
}

ScheduleOrigin loadScheduleOrigin(const std::string& path) {
    return parseScheduleOrigin(readFile(path, std::size_t(1) << 30), path);
}

} // namespace sl

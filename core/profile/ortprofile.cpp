// SPDX-License-Identifier: MIT
// ONNX Runtime profiling traces as profiles (core/profile/ortprofile.h). The schema is ORT's
// profiler output (onnxruntime/core/common/profiler.cc writes the events, the executors name them;
// docs: "Profiling tools"). Only "Node" events named "<node>_kernel_time" are kernel time, and
// "model_run" session events mark the runs.
#include "core/profile/ortprofile.h"

#include "core/io/ioutil.h"
#include "core/profile/repetitions.h"
#include "core/util/atomicfile.h"
#include "core/util/errors.h"
#include "core/util/limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

namespace sl {
namespace {

using OrtJson = nlohmann::json;

constexpr std::string_view kOrtKernelSuffix = "_kernel_time";
constexpr std::string_view kOrtFusedPrefix = "fused ";   // ORT's fusions name the node "fused <first node>"

struct OrtKernelEvent {
    std::string node;     ///< the node name, "_kernel_time" removed
    std::string opType;   ///< args.op_name
    std::string provider;
    std::string tid;
    double ts = 0;
    double dur = 0;
};

struct OrtRun {
    double begin = 0;
    double end = 0;
    bool holds(double ts) const { return ts >= begin && ts <= end; }
};

struct OrtTrace {
    std::vector<OrtKernelEvent> kernels;   ///< by start time
    std::vector<OrtRun> runs;              ///< by start time
};

/// One node's kernel times over all runs.
struct OrtNodeTimes {
    std::string name;
    std::string type;
    std::vector<double> durations;
};

const OrtJson& ortEventArray(const OrtJson& doc, const std::string& source) {
    if (doc.is_array()) return doc;
    if (doc.is_object()) {   // the Chrome trace format's object form
        auto it = doc.find("traceEvents");
        if (it != doc.end() && it->is_array()) return *it;
    }
    io_detail::fail(source, "an ONNX Runtime profile is a JSON array of trace events, got " + io_detail::jsonKind(doc));
}

std::string ortText(const OrtJson& object, const char* key) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string ortEventWhere(std::size_t i, const std::string& name) { return "event #" + std::to_string(i) + " ('" + name + "')"; }

double ortTime(const OrtJson& event, const char* key, const std::string& where, const std::string& source) {
    auto it = event.find(key);
    if (it == event.end() || !it->is_number())
        io_detail::fail(source, where + ": \"" + key + "\" must be a number of microseconds, got " +
                                    (it == event.end() ? std::string("nothing") : io_detail::jsonKind(*it)));
    return it->get<double>();   // finite: JSON has no NaN, and the parser refuses overflow
}

/// ORT writes tid as a number; other tracers may write a string.
std::string ortThreadId(const OrtJson& event) {
    auto it = event.find("tid");
    if (it == event.end()) return "";
    return it->is_string() ? it->get<std::string>() : it->dump();
}

bool isOrtKernelEvent(const OrtJson& e) {
    if (ortText(e, "cat") != "Node") return false;
    auto ph = e.find("ph");
    if (ph != e.end() && !(ph->is_string() && *ph == "X")) return false;   // only complete events have a duration
    return std::string_view(ortText(e, "name")).ends_with(kOrtKernelSuffix);
}

bool isOrtRunEvent(const OrtJson& e) { return ortText(e, "cat") == "Session" && ortText(e, "name") == "model_run"; }

OrtKernelEvent readOrtKernel(const OrtJson& e, std::size_t i, const std::string& source) {
    const std::string name = ortText(e, "name");
    const std::string where = ortEventWhere(i, name);
    OrtKernelEvent k;
    k.node = name.substr(0, name.size() - kOrtKernelSuffix.size());
    if (k.node.empty()) io_detail::fail(source, where + ": a kernel event without a node name");
    k.ts = ortTime(e, "ts", where, source);
    k.dur = ortTime(e, "dur", where, source);
    if (k.dur < 0) io_detail::fail(source, where + ": \"dur\" must not be negative, got " + io_detail::formatNumber(k.dur));
    k.tid = ortThreadId(e);
    if (auto args = e.find("args"); args != e.end() && args->is_object()) {
        k.opType = ortText(*args, "op_name");
        k.provider = ortText(*args, "provider");
    }
    return k;
}

OrtRun readOrtRun(const OrtJson& e, std::size_t i, const std::string& source) {
    const std::string where = ortEventWhere(i, "model_run");
    OrtRun r;
    r.begin = ortTime(e, "ts", where, source);
    r.end = r.begin + ortTime(e, "dur", where, source);
    if (r.end < r.begin) io_detail::fail(source, where + ": \"dur\" must not be negative");
    return r;
}

OrtTrace readOrtTrace(const OrtJson& events, const std::string& source) {
    OrtTrace t;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const OrtJson& e = events[i];
        if (!e.is_object()) io_detail::fail(source, "event #" + std::to_string(i) + " must be an object, got " + io_detail::jsonKind(e));
        if (isOrtRunEvent(e)) t.runs.push_back(readOrtRun(e, i, source));
        else if (isOrtKernelEvent(e)) t.kernels.push_back(readOrtKernel(e, i, source));
    }
    if (t.kernels.empty())
        io_detail::fail(source, "no \"<node>_kernel_time\" events: not an ONNX Runtime profile, or no run happened "
                                "while profiling was enabled");
    // ORT sorts by start time already; other writers may not
    std::stable_sort(t.kernels.begin(), t.kernels.end(), [](const auto& a, const auto& b) { return a.ts < b.ts; });
    std::stable_sort(t.runs.begin(), t.runs.end(), [](const auto& a, const auto& b) { return a.begin < b.begin; });
    return t;
}

std::vector<OrtNodeTimes> groupOrtKernels(const std::vector<OrtKernelEvent>& kernels) {
    std::vector<OrtNodeTimes> nodes;
    std::unordered_map<std::string, std::size_t> slot;
    for (const OrtKernelEvent& k : kernels) {
        auto [it, fresh] = slot.emplace(k.node, nodes.size());
        if (fresh) nodes.push_back({k.node, k.opType, {}});
        nodes[it->second].durations.push_back(k.dur);
    }
    return nodes;
}

std::vector<std::string> ortProviders(const std::vector<OrtKernelEvent>& kernels) {
    std::vector<std::string> providers;
    for (const OrtKernelEvent& k : kernels)
        if (!k.provider.empty() && std::find(providers.begin(), providers.end(), k.provider) == providers.end())
            providers.push_back(k.provider);
    return providers;
}

std::string ortDevice(const std::vector<std::string>& providers) {
    std::string device = "ONNX Runtime";
    for (std::size_t i = 0; i < providers.size(); ++i) device += (i == 0 ? " (" : ", ") + providers[i];
    return providers.empty() ? device : device + ")";
}

/// "2024-05-01T10:20:30" from ORT's default file name "..._2024-05-01_10-20-30.json", else "".
std::string ortCreatedFromName(std::string_view source) {
    if (source.ends_with(".json")) source.remove_suffix(5);
    if (source.size() < 19) return "";
    const std::string_view s = source.substr(source.size() - 19);
    constexpr std::string_view pattern = "dddd-dd-dd_dd-dd-dd";
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const bool digit = std::isdigit(static_cast<unsigned char>(s[i])) != 0;
        if (pattern[i] == 'd' ? !digit : s[i] != pattern[i]) return "";
    }
    return std::string(s.substr(0, 10)) + "T" + std::string(s.substr(11, 2)) + ":" + std::string(s.substr(14, 2)) + ":" +
           std::string(s.substr(17, 2));
}

/// Graph ops that ran inside an ORT fusion ("fused c" holds op c), with the fused node's text.
std::unordered_map<OpId, std::string> ortFusionHosts(const std::vector<OrtNodeTimes>& nodes, const Graph& g) {
    std::unordered_map<OpId, std::string> hosts;
    for (const OrtNodeTimes& n : nodes) {
        if (!std::string_view(n.name).starts_with(kOrtFusedPrefix)) continue;
        const OpId inner = g.findOp(std::string_view(n.name).substr(kOrtFusedPrefix.size()));
        if (inner != kNoOp && g.findOp(n.name) == kNoOp)
            hosts.emplace(inner, "fused by ONNX Runtime into '" + n.name + "'" + (n.type.empty() ? "" : " (" + n.type + ")"));
    }
    return hosts;
}

/// The profile's entries and the report's counts: graph ops in op-id order, then unknown nodes.
void fillOrtMeasurements(const std::vector<OrtNodeTimes>& nodes, const Graph& g, Profile& p, OrtImportReport& report) {
    std::vector<const OrtNodeTimes*> ofOp(static_cast<std::size_t>(g.opCount()), nullptr);
    std::vector<const OrtNodeTimes*> unknown;
    for (const OrtNodeTimes& n : nodes) {
        const OpId v = g.findOp(n.name);
        if (v == kNoOp) unknown.push_back(&n);
        else ofOp[static_cast<std::size_t>(v)] = &n;
    }
    const auto hosts = ortFusionHosts(nodes, g);
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Op& op = g.op(v);
        if (const OrtNodeTimes* n = ofOp[static_cast<std::size_t>(v)]) {
            p.ops.push_back(summarizeRepetitions(op.name, n->type.empty() ? op.type : n->type, n->durations));
            ++report.matched;
            continue;
        }
        auto host = hosts.find(v);
        p.unmeasured.push_back({op.name, op.type,
                                host != hosts.end() ? host->second
                                                    : "not run by ONNX Runtime (removed or fused by its graph optimizations)"});
        report.notRun.push_back(op.name);
    }
    for (const OrtNodeTimes* n : unknown) {
        p.ops.push_back(summarizeRepetitions(n->name, n->type, n->durations));
        report.unknownNodes.push_back({n->name, n->type, static_cast<int>(n->durations.size())});
    }
}

/// Per thread, the graph's ops in the order the first run started them (see the header).
void fillOrtMeasuredOrder(const OrtTrace& t, const Graph& g, OrtImportReport& report) {
    std::vector<char> placed(static_cast<std::size_t>(g.opCount()), 0);
    std::unordered_map<std::string, std::size_t> listOfThread;
    for (const OrtKernelEvent& k : t.kernels) {
        if (!t.runs.empty() && !t.runs.front().holds(k.ts)) continue;
        const OpId v = g.findOp(k.node);
        if (v == kNoOp || placed[static_cast<std::size_t>(v)]) continue;
        placed[static_cast<std::size_t>(v)] = 1;
        auto [it, fresh] = listOfThread.emplace(k.tid, report.measuredOrderPerThread.size());
        if (fresh) {
            report.measuredOrderPerThread.emplace_back();
            report.threadIds.push_back(k.tid);
        }
        report.measuredOrderPerThread[it->second].push_back(v);
    }
}

} // namespace

Profile importOrtProfile(std::string_view json, const std::string& sourceName, const Graph& g, OrtImportReport& report) {
    const OrtJson doc = io_detail::parseJson(json, sourceName);
    const OrtTrace trace = readOrtTrace(ortEventArray(doc, sourceName), sourceName);
    OrtImportReport r;
    r.runs = static_cast<int>(trace.runs.size());
    r.kernelEvents = static_cast<int>(trace.kernels.size());
    r.graphOps = g.opCount();
    r.providers = ortProviders(trace.kernels);
    Profile p;
    p.device = ortDevice(r.providers);
    p.created = ortCreatedFromName(sourceName);
    p.tool = "onnxruntime";
    fillOrtMeasurements(groupOrtKernels(trace.kernels), g, p, r);
    fillOrtMeasuredOrder(trace, g, r);
    report = std::move(r);
    return p;
}

Profile loadOrtProfile(const std::string& path, const Graph& g, OrtImportReport& report) {
    return importOrtProfile(readFile(path, static_cast<std::size_t>(limits().textBytes)), path, g, report);
}

} // namespace sl

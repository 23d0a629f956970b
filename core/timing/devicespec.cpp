// SPDX-License-Identifier: MIT
// Device files (docs/time.md, "Device files") and the roofline of one op on one device.
#include "core/timing/devicespec.h"

#include "core/io/ioutil.h"
#include "core/io/jsonfields.h"
#include "core/util/atomicfile.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace sl {

using namespace io_detail;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

constexpr int kDeviceVersion = 1;
constexpr double kGiga = 1e9;
constexpr double kTera = 1e12;
constexpr double kMega = 1e6;

ComputeUnit unitFromText(const std::string& text, const std::string& where) {
    if (text == "matrix") return ComputeUnit::Matrix;
    if (text == "vector") return ComputeUnit::Vector;
    fail(where, "\"unit\" must be \"matrix\" or \"vector\", got \"" + text + "\"");
}

EfficiencyCurve curveFromJson(const JsonFields& f, const char* key) {
    EfficiencyCurve curve;
    const json& steps = f.array(key, false);
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const std::string where = f.where + ": \"" + key + "\" #" + std::to_string(i);
        const json& s = steps[i];
        if (!s.is_array() || s.size() != 2 || !s[0].is_number() || !s[1].is_number())
            fail(where, "must be [threshold, efficiency]");
        const double threshold = s[0].get<double>(), eff = s[1].get<double>();
        if (!(threshold >= 0) || !std::isfinite(threshold)) fail(where, "the threshold must be a finite number >= 0");
        if (!(eff > 0 && eff <= 1)) fail(where, "the efficiency must be in (0, 1]");
        if (!curve.steps.empty() && !(threshold < curve.steps.back().first))
            fail(where, "thresholds must decrease strictly");
        curve.steps.emplace_back(threshold, eff);
    }
    if (!curve.steps.empty() && curve.steps.back().first != 0) fail(f.where, std::string("\"") + key + "\" must end at threshold 0");
    return curve;
}

ojson curveToJson(const EfficiencyCurve& c) {
    ojson out = ojson::array();
    for (const auto& [threshold, eff] : c.steps) out.push_back({threshold, eff});
    return out;
}

ComputePeak peakFromJson(const json& j, const std::string& where) {
    if (!j.is_object()) fail(where, "must be an object, got " + jsonKind(j));
    const JsonFields f{j, where};
    ComputePeak p;
    p.unit = unitFromText(f.string("unit"), where);
    const std::string dtype = f.string("dtype");
    if (!parseDType(dtype, p.dtype) || p.dtype == DType::Unknown) fail(where, "unknown \"dtype\" \"" + dtype + "\"");
    p.flopsPerSecond = f.number("tflops") * kTera;
    if (!(p.flopsPerSecond > 0)) fail(where, "\"tflops\" must be positive");
    p.source = f.string("source");
    return p;
}

/// Time at `rate` per second with efficiency `eff`, in microseconds.
double microseconds(double amount, double rate, double eff) { return amount / (rate * eff) * 1e6; }

FitTerm fitTermFromJson(const json& v, const std::string& where) {
    if (!v.is_object()) fail(where, "must be an object, got " + jsonKind(v));
    const JsonFields f{v, where};
    FitTerm t{.launchUs = f.number("launch_us"),
              .scale = f.number("scale"),
              .exponent = f.number("exponent", 1.0),
              .samples = static_cast<int>(f.number("samples", 0.0))};
    if (!(t.launchUs >= 0)) fail(where, "\"launch_us\" must not be negative");
    if (!(t.scale > 0)) fail(where, "\"scale\" must be positive");
    if (!(t.exponent >= kMinFitExponent && t.exponent <= kMaxFitExponent))
        fail(where,
             "\"exponent\" must be in [" + formatNumber(kMinFitExponent) + ", " + formatNumber(kMaxFitExponent) + "]");
    return t;
}

ojson fitTermToJson(const FitTerm& t) {
    return {{"launch_us", t.launchUs}, {"scale", t.scale}, {"exponent", t.exponent}, {"samples", t.samples}};
}

/// "fit": {"sources": [...], "by_type": {"Conv": term}, "by_class": {"conv": term}}
TimeFit timeFitFromJson(const json& v, const std::string& where) {
    if (!v.is_object()) fail(where, "must be an object, got " + jsonKind(v));
    TimeFit fit;
    if (const auto s = v.find("sources"); s != v.end()) {
        if (!s->is_array()) fail(where, "\"sources\" must be an array of strings");
        for (const json& x : *s) {
            if (!x.is_string()) fail(where, "\"sources\" must be an array of strings");
            fit.sources.push_back(x.get<std::string>());
        }
    }
    if (const auto t = v.find("by_type"); t != v.end()) {
        if (!t->is_object()) fail(where, "\"by_type\" must be an object");
        for (const auto& [type, term] : t->items())
            fit.byType[type] = fitTermFromJson(term, where + ": by_type \"" + type + "\"");
    }
    if (const auto c = v.find("by_class"); c != v.end()) {
        if (!c->is_object()) fail(where, "\"by_class\" must be an object");
        for (const auto& [name, term] : c->items()) {
            OpClass opClass;
            if (!parseOpClass(name, opClass)) fail(where, "by_class: unknown op class \"" + name + "\"");
            fit.byClass[opClass] = fitTermFromJson(term, where + ": by_class \"" + name + "\"");
        }
    }
    return fit;
}

ojson timeFitToJson(const TimeFit& fit) {
    ojson j;
    j["sources"] = fit.sources;
    ojson types = ojson::object(), classes = ojson::object();
    for (const auto& [type, term] : fit.byType) types[type] = fitTermToJson(term);
    for (const auto& [c, term] : fit.byClass) classes[std::string(toString(c))] = fitTermToJson(term);
    j["by_type"] = std::move(types);
    j["by_class"] = std::move(classes);
    return j;
}

} // namespace

double EfficiencyCurve::at(double size) const {
    for (const auto& [threshold, eff] : steps)
        if (size >= threshold) return eff;
    return steps.empty() ? 1.0 : steps.back().second;
}

const ComputePeak* DeviceSpec::peakFor(const OpWork& work) const {
    const DType dtype = work.dtype == DType::Unknown ? DType::F32 : work.dtype;
    auto find = [&](ComputeUnit unit, DType t) -> const ComputePeak* {
        for (const ComputePeak& p : peaks)
            if (p.unit == unit && p.dtype == t) return &p;
        return nullptr;
    };
    const bool matrixOp = work.opClass == OpClass::Matmul || work.opClass == OpClass::Conv;
    if (matrixOp)
        if (const ComputePeak* p = find(ComputeUnit::Matrix, dtype)) return p;
    if (const ComputePeak* p = find(ComputeUnit::Vector, dtype)) return p;
    return find(ComputeUnit::Vector, DType::F32);
}

double rooflineMicroseconds(const DeviceSpec& d, const OpWork& work) {
    if (!work.known() || work.opClass == OpClass::Alias || work.opClass == OpClass::Collective) return 0;
    return d.launchOverheadUs + rooflineBodyMicroseconds(d, work);
}

double estimatedMicroseconds(const DeviceSpec& d, const std::string& opType, const OpWork& work) {
    const double roofline = rooflineMicroseconds(d, work);
    if (d.fit.empty() || roofline == 0) return roofline;
    const FitTerm* term = d.fit.termFor(opType, work.opClass);
    return term ? term->at(rooflineBodyMicroseconds(d, work)) : roofline;
}

double rooflineBodyMicroseconds(const DeviceSpec& d, const OpWork& work) {
    if (!work.known() || work.opClass == OpClass::Alias || work.opClass == OpClass::Collective) return 0;
    double compute = 0;
    if (work.flops > 0)
        if (const ComputePeak* peak = d.peakFor(work)) {
            const EfficiencyCurve& curve = peak->unit == ComputeUnit::Matrix ? d.matrixEfficiency : d.vectorEfficiency;
            compute = microseconds(work.flops, peak->flopsPerSecond, curve.at(work.flops / kGiga));
        }
    const double bytes = work.bytesRead + work.bytesWritten;
    const bool matrixVector = work.opClass == OpClass::Matmul && d.matrixVectorBandwidth > 0 && bytes > 0 &&
                              work.flops / bytes < kMatrixVectorIntensity;
    const double memory = bytes <= 0 ? 0
                          : matrixVector ? microseconds(bytes, d.matrixVectorBandwidth, 1.0)
                                         : microseconds(bytes, d.memoryBandwidth, d.memoryEfficiency.at(bytes / kMega));
    return std::max(compute, memory);
}

DeviceSpec parseDeviceSpec(std::string_view text, const std::string& sourceName) {
    const json doc = parseJsonObject(text, sourceName, "schedlab-device", kDeviceVersion, "a device file");
    const JsonFields f{doc, sourceName};
    DeviceSpec d;
    d.id = f.string("id");
    if (d.id.empty()) fail(sourceName, "\"id\" is empty");
    d.name = f.string("name");
    d.kind = f.string("kind");
    if (d.kind != "gpu" && d.kind != "cpu") fail(sourceName, "\"kind\" must be \"gpu\" or \"cpu\", got \"" + d.kind + "\"");
    d.source = f.string("source");
    const json& memory = f.require("memory");
    if (!memory.is_object()) fail(sourceName, "\"memory\" must be an object, got " + jsonKind(memory));
    const JsonFields m{memory, sourceName + ": memory"};
    d.memoryBytes = m.number("bytes");
    d.memoryBandwidth = m.number("bandwidth_GBps") * kGiga;
    d.memorySource = m.string("source");
    if (!(d.memoryBytes > 0)) fail(m.where, "\"bytes\" must be positive");
    if (!(d.memoryBandwidth > 0)) fail(m.where, "\"bandwidth_GBps\" must be positive");
    d.launchOverheadUs = f.number("launch_overhead_us");
    if (d.launchOverheadUs < 0) fail(sourceName, "\"launch_overhead_us\" must not be negative");
    d.launchSource = f.string("launch_source");
    const json& peaks = f.array("peaks");
    if (peaks.empty()) fail(sourceName, "\"peaks\" is empty; a device needs at least its fp32 rate");
    for (std::size_t i = 0; i < peaks.size(); ++i) d.peaks.push_back(peakFromJson(peaks[i], sourceName + ": peaks #" + std::to_string(i)));
    if (const json* eff = f.find("efficiency")) {
        if (!eff->is_object()) fail(sourceName, "\"efficiency\" must be an object, got " + jsonKind(*eff));
        const JsonFields e{*eff, sourceName + ": efficiency"};
        d.matrixEfficiency = curveFromJson(e, "matrix_gflops");
        d.vectorEfficiency = curveFromJson(e, "vector_gflops");
        d.memoryEfficiency = curveFromJson(e, "memory_mb");
        d.efficiencySource = e.string("source");
    }
    if (const json* mv = f.find("matrix_vector")) {
        if (!mv->is_object()) fail(sourceName, "\"matrix_vector\" must be an object, got " + jsonKind(*mv));
        const JsonFields m{*mv, sourceName + ": matrix_vector"};
        d.matrixVectorBandwidth = m.number("bandwidth_GBps") * kGiga;
        d.matrixVectorSource = m.string("source");
        if (!(d.matrixVectorBandwidth > 0)) fail(m.where, "\"bandwidth_GBps\" must be positive");
    }
    if (const json* fit = f.find("fit")) d.fit = timeFitFromJson(*fit, sourceName + ": fit");
    return d;
}

std::string deviceSpecToJson(const DeviceSpec& d) {
    ojson j;
    j["format"] = "schedlab-device";
    j["version"] = kDeviceVersion;
    j["id"] = d.id;
    j["name"] = d.name;
    j["kind"] = d.kind;
    j["source"] = d.source;
    j["memory"] = {{"bytes", d.memoryBytes}, {"bandwidth_GBps", d.memoryBandwidth / kGiga}, {"source", d.memorySource}};
    j["launch_overhead_us"] = d.launchOverheadUs;
    j["launch_source"] = d.launchSource;
    ojson peaks = ojson::array();
    for (const ComputePeak& p : d.peaks)
        peaks.push_back({{"unit", p.unit == ComputeUnit::Matrix ? "matrix" : "vector"},
                         {"dtype", std::string(toString(p.dtype))},
                         {"tflops", p.flopsPerSecond / kTera},
                         {"source", p.source}});
    j["peaks"] = std::move(peaks);
    j["efficiency"] = {{"matrix_gflops", curveToJson(d.matrixEfficiency)},
                       {"vector_gflops", curveToJson(d.vectorEfficiency)},
                       {"memory_mb", curveToJson(d.memoryEfficiency)},
                       {"source", d.efficiencySource}};
    if (d.matrixVectorBandwidth > 0)
        j["matrix_vector"] = {{"bandwidth_GBps", d.matrixVectorBandwidth / kGiga}, {"source", d.matrixVectorSource}};
    if (!d.fit.empty()) j["fit"] = timeFitToJson(d.fit);
    return j.dump(2) + "\n";
}

void saveDeviceSpec(const DeviceSpec& d, const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);   // writeFileAtomically names the file if this failed
    writeFileAtomically(path, deviceSpecToJson(d));
}

} // namespace sl

// SPDX-License-Identifier: MIT
#include "core/sweep/sweepio.h"

#include "core/io/ioutil.h"
#include "core/util/atomicfile.h"
#include "core/util/errors.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

namespace sl {
namespace {

using nlohmann::json;
constexpr const char* kFormat = "schedlab-sweep";
// caps that keep a hostile file from exhausting memory; real sweeps are far below
constexpr std::int64_t kMaxPoints = 100'000;

json targetsJson(const SweepPoint& p) {
    json t = json::object();
    for (const TargetOutcome& o : p.targets)
        t[toString(o.model)] = {{"best_of_k", o.bestOfK}, {"of_proxy_top1", o.ofProxyTop1}};
    return t;
}

json pointJson(const SweepPoint& p) {
    return {{"temperature", p.temperature},
            {"samples", p.samples},
            {"proxy_mean", p.proxyMean},
            {"proxy_std", p.proxyStd},
            {"proxy_top1", p.proxyTop1},
            {"proxy_topk_mean", p.proxyTopKMean},
            {"kept", p.kept},
            {"distinct", p.distinct.exact},
            {"distinct_up_to_relabelling", p.distinct.upToRelabelling},
            {"topk_distinct", p.topK.distinct},
            {"topk_distinct_up_to_relabelling", p.topK.distinctUpToRelabelling},
            {"topk_ged", p.topK.ged},
            {"topk_d_inv", p.topK.dInv},
            {"topk_d_sen", p.topK.dSen},
            {"targets", targetsJson(p)},
            {"best_makespan", p.bestMakespan},
            {"best_chains", p.best}};
}

/// Typed reads that name the file and the field of every fault.
class Reader {
public:
    explicit Reader(std::string source) : m_source(std::move(source)) {}
    [[noreturn]] void fail(const std::string& what) const { io_detail::fail(m_source, what); }
    static std::string name(const std::string& where, const char* key) {
        return where.empty() ? key : where + "." + key;
    }

    const json& field(const json& object, const std::string& where, const char* key) const {
        if (!object.is_object())
            fail((where.empty() ? std::string("the file") : where) + " must be an object, not " +
                 io_detail::jsonKind(object));
        auto it = object.find(key);
        if (it == object.end()) fail(name(where, key) + " is missing");
        return *it;
    }
    double number(const json& o, const std::string& where, const char* key, double lo = -INFINITY) const {
        const json& v = field(o, where, key);
        const std::string name = Reader::name(where, key);
        if (!v.is_number()) fail(name + " must be a number, not " + io_detail::jsonKind(v));
        const double x = v.get<double>();
        if (!std::isfinite(x)) fail(name + " must be finite");
        if (x < lo)
            fail(name + " must be at least " + io_detail::formatNumber(lo) + ", not " + io_detail::formatNumber(x));
        return x;
    }
    std::int64_t integer(const json& o, const std::string& where, const char* key, std::int64_t lo,
                         std::int64_t hi) const {
        const double x = number(o, where, key);
        const std::string name = Reader::name(where, key);
        if (x != std::floor(x)) fail(name + " must be a whole number, not " + io_detail::formatNumber(x));
        if (x < static_cast<double>(lo) || x > static_cast<double>(hi))
            fail(name + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], not " +
                 io_detail::formatNumber(x));
        return static_cast<std::int64_t>(x);
    }
    std::uint64_t seed(const json& o, const char* key) const {
        const json& v = field(o, "", key);
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<std::int64_t>() >= 0))
            fail(std::string(key) + " must be a whole number >= 0, not " +
                 (v.is_number() ? v.dump() : io_detail::jsonKind(v)));
        return v.get<std::uint64_t>();
    }
    const json& array(const json& o, const std::string& where, const char* key) const {
        const json& v = field(o, where, key);
        if (!v.is_array()) fail(name(where, key) + " must be an array, not " + io_detail::jsonKind(v));
        return v;
    }
    std::string string(const json& o, const std::string& where, const char* key) const {
        const json& v = field(o, where, key);
        if (!v.is_string()) fail(name(where, key) + " must be a string, not " + io_detail::jsonKind(v));
        return v.get<std::string>();
    }

private:
    std::string m_source;
};

DeviceChains readChains(const Reader& r, const json& point, const std::string& where, const Sweep& s) {
    const json& chains = r.array(point, where, "best_chains");
    if (static_cast<int>(chains.size()) > s.devices)
        r.fail(where + ".best_chains has " + std::to_string(chains.size()) + " chains for " +
               std::to_string(s.devices) + " devices");
    DeviceChains out;
    std::vector<char> seen(static_cast<size_t>(s.ops), 0);
    std::int64_t total = 0;
    for (size_t d = 0; d < chains.size(); ++d) {
        const std::string at = where + ".best_chains[" + std::to_string(d) + "]";
        if (!chains[d].is_array()) r.fail(at + " must be an array of op ids, not " + io_detail::jsonKind(chains[d]));
        auto& chain = out.emplace_back();
        for (const json& v : chains[d]) {
            if (!v.is_number_integer() || v.get<std::int64_t>() < 0 || v.get<std::int64_t>() >= s.ops)
                r.fail(at + " holds " + v.dump() + ", not an op id in [0, " + std::to_string(s.ops) + ")");
            const auto op = static_cast<OpId>(v.get<std::int64_t>());
            if (seen[static_cast<size_t>(op)]++) r.fail(at + ": op " + std::to_string(op) + " appears twice");
            chain.push_back(op);
            ++total;
        }
    }
    if (total != s.ops)
        r.fail(where + ".best_chains holds " + std::to_string(total) + " ops, the graph has " + std::to_string(s.ops));
    return out;
}

SweepPoint readPoint(const Reader& r, const json& j, const std::string& where, const Sweep& s) {
    SweepPoint p;
    p.temperature = r.number(j, where, "temperature");
    if (!(p.temperature > 0)) r.fail(where + ".temperature must be positive");
    p.samples = static_cast<int>(r.integer(j, where, "samples", 1, INT32_MAX));
    p.proxyMean = r.number(j, where, "proxy_mean", 0);
    p.proxyStd = r.number(j, where, "proxy_std", 0);
    p.proxyTop1 = r.number(j, where, "proxy_top1", 0);
    p.proxyTopKMean = r.number(j, where, "proxy_topk_mean", 0);
    p.kept = static_cast<int>(r.integer(j, where, "kept", 1, p.samples));
    p.distinct.exact = static_cast<int>(r.integer(j, where, "distinct", 1, p.samples));
    p.distinct.upToRelabelling =
        static_cast<int>(r.integer(j, where, "distinct_up_to_relabelling", 1, p.distinct.exact));
    p.topK.distinct = static_cast<int>(r.integer(j, where, "topk_distinct", 1, p.kept));
    p.topK.distinctUpToRelabelling =
        static_cast<int>(r.integer(j, where, "topk_distinct_up_to_relabelling", 1, p.topK.distinct));
    p.topK.ged = r.number(j, where, "topk_ged", 0);
    p.topK.dInv = r.number(j, where, "topk_d_inv", 0);
    p.topK.dSen = r.number(j, where, "topk_d_sen", 0);
    const json& targets = r.field(j, where, "targets");
    for (TargetModel m : s.options.targets) {
        const std::string at = where + ".targets";
        const json& t = r.field(targets, at, toString(m).c_str());
        TargetOutcome o;
        o.model = m;
        o.bestOfK = r.number(t, at + "." + toString(m), "best_of_k", 0);
        o.ofProxyTop1 = r.number(t, at + "." + toString(m), "of_proxy_top1", 0);
        p.targets.push_back(o);
    }
    p.bestMakespan = r.number(j, where, "best_makespan", 0);
    p.best = readChains(r, j, where, s);
    return p;
}

}   // namespace

std::string sweepToJson(const Sweep& s) {
    json targets = json::array();
    for (TargetModel m : s.options.targets) targets.push_back(toString(m));
    json points = json::array();
    for (const SweepPoint& p : s.points) points.push_back(pointJson(p));
    const json j = {
        {"format", kFormat},
        {"version", kSweepFormatVersion},
        {"sampler", s.sampler},
        {"graph",
         {{"name", s.graphName},
          {"ops", s.ops},
          {"devices", s.devices},
          {"time_unit", std::string(toString(s.timeUnit))}}},
        {"samples", s.options.samples},
        {"top_k", s.options.topK},
        {"seed", s.options.seed},
        {"target_seed", s.options.targetSeed},
        {"targets", targets},
        {"temperatures", s.options.temperatures},
        {"ged_denominator", s.options.diversity.gedDenominator == GedDenominator::EdgeSum ? "edge-sum" : "edge-mean"},
        {"kappa", s.options.diversity.kappa},
        {"cancelled", s.cancelled},
        {"points", points}};
    return j.dump(1) + "\n";
}

Sweep sweepFromJson(const std::string& text, const std::string& source) {
    const json j = io_detail::parseJson(text, source);
    const Reader r(source);
    if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
        r.fail("not a SchedLab sweep (expected \"format\": \"schedlab-sweep\")");
    const std::int64_t version = r.integer(j, "", "version", 1, INT32_MAX);
    if (version > kSweepFormatVersion)
        r.fail("sweep format version " + std::to_string(version) + " is newer than this build reads (" +
               std::to_string(kSweepFormatVersion) + ")");
    Sweep s;
    s.sampler = r.string(j, "", "sampler");
    const json& g = r.field(j, "", "graph");
    s.graphName = r.string(g, "graph", "name");
    s.ops = static_cast<int>(r.integer(g, "graph", "ops", 1, limits().ops));
    s.devices = static_cast<int>(r.integer(g, "graph", "devices", 1, limits().devices));
    if (g.contains("time_unit") &&
        !parseTimeUnit(r.string(g, "graph", "time_unit"), s.timeUnit))   // absent in older files
        r.fail("graph.time_unit must be \"units\", \"us\" or \"s\"");
    s.options.samples = static_cast<int>(r.integer(j, "", "samples", 1, INT32_MAX));
    s.options.topK = static_cast<int>(r.integer(j, "", "top_k", 1, INT32_MAX));
    s.options.seed = r.seed(j, "seed");
    s.options.targetSeed = r.seed(j, "target_seed");
    s.options.targets.clear();
    for (const json& t : r.array(j, "", "targets")) {
        if (!t.is_string()) r.fail("targets must hold names, not " + io_detail::jsonKind(t));
        try {
            s.options.targets.push_back(targetModelFromString(t.get<std::string>()));
        } catch (const std::invalid_argument& e) {
            r.fail(std::string("targets: ") + e.what());
        }
    }
    const json& temps = r.array(j, "", "temperatures");
    if (temps.empty() || static_cast<std::int64_t>(temps.size()) > kMaxPoints)
        r.fail("temperatures must hold 1 to 100000 values");
    s.options.temperatures.clear();
    for (size_t i = 0; i < temps.size(); ++i) {
        if (!temps[i].is_number() || !(temps[i].get<double>() > 0) || !std::isfinite(temps[i].get<double>()))
            r.fail("temperatures[" + std::to_string(i) + "] must be a positive number");
        s.options.temperatures.push_back(temps[i].get<double>());
    }
    const std::string denominator = r.string(j, "", "ged_denominator");
    if (denominator != "edge-sum" && denominator != "edge-mean")
        r.fail("ged_denominator must be edge-sum or edge-mean");
    s.options.diversity.gedDenominator = denominator == "edge-sum" ? GedDenominator::EdgeSum : GedDenominator::EdgeMean;
    s.options.diversity.kappa = r.number(j, "", "kappa", 0);
    const json& cancelled = r.field(j, "", "cancelled");
    if (!cancelled.is_boolean()) r.fail("cancelled must be true or false");
    s.cancelled = cancelled.get<bool>();
    const json& points = r.array(j, "", "points");
    if (points.size() > temps.size()) r.fail("points has more entries than temperatures");
    for (size_t i = 0; i < points.size(); ++i)
        s.points.push_back(readPoint(r, points[i], "points[" + std::to_string(i) + "]", s));
    return s;
}

void saveSweepJson(const Sweep& s, const std::string& path) { writeFileAtomically(path, sweepToJson(s)); }

Sweep loadSweepJson(const std::string& path) { return sweepFromJson(readFile(path, std::size_t(256) << 20), path); }

std::string sweepToCsv(const Sweep& s) {
    std::ostringstream out;
    out.precision(10);
    out << "temperature,samples,proxy_mean,proxy_std,proxy_top1,proxy_topk_mean,kept,distinct,distinct_up_to_relabelling,"
           "topk_ged,topk_d_inv,topk_d_sen,best_makespan";
    for (TargetModel m : s.options.targets)
        out << ",best_of_k_" << toString(m) << "," << toString(m) << "_of_proxy_top1";
    out << "\n";
    for (const SweepPoint& p : s.points) {
        out << p.temperature << "," << p.samples << "," << p.proxyMean << "," << p.proxyStd << "," << p.proxyTop1 << ","
            << p.proxyTopKMean << "," << p.kept << "," << p.distinct.exact << "," << p.distinct.upToRelabelling << ","
            << p.topK.ged << "," << p.topK.dInv << "," << p.topK.dSen << "," << p.bestMakespan;
        for (const TargetOutcome& t : p.targets) out << "," << t.bestOfK << "," << t.ofProxyTop1;
        out << "\n";
    }
    return out.str();
}

void saveSweepCsv(const Sweep& s, const std::string& path) { writeFileAtomically(path, sweepToCsv(s)); }

}   // namespace sl

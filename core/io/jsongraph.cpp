// SPDX-License-Identifier: MIT
// Native graph JSON ("format": "schedlab-graph", version 1) and platform JSON, read and write.
// Numbers are written by nlohmann_json's shortest round-trip formatting, so write -> read gives
// back exactly the same doubles. Infinite capacities and bandwidths are written as absent keys.
#include "core/io/graphio.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"
#include "core/io/jsonfields.h"
#include "core/util/atomicfile.h"

#include <climits>
#include <cmath>
#include <memory>
#include <unordered_map>

namespace sl {

using namespace io_detail;
using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

constexpr int kGraphVersion = 1;
constexpr int kPlatformVersion = 1;

using Fields = JsonFields;

/// An op's "work" object (docs/formats.md): what the device models time.
OpWork workFromJson(const json& j, const std::string& where) {
    if (!j.is_object()) fail(where, "\"work\" must be an object, got " + jsonKind(j));
    const Fields f{j, where + ": work"};
    OpWork w;
    const std::string cls = f.string("class"), dtype = f.string("dtype", "unknown"), coll = f.string("collective", "none");
    if (!parseOpClass(cls, w.opClass) || w.opClass == OpClass::Unknown) fail(f.where, "unknown \"class\" \"" + cls + "\"");
    if (!parseDType(dtype, w.dtype)) fail(f.where, "unknown \"dtype\" \"" + dtype + "\"");
    if (!parseCollective(coll, w.collective)) fail(f.where, "unknown \"collective\" \"" + coll + "\"");
    w.flops = f.number("flops", 0.0);
    w.bytesRead = f.number("bytes_read", 0.0);
    w.bytesWritten = f.number("bytes_written", 0.0);
    w.groupSize = f.integer("group_size", 0);
    w.commBytes = f.number("comm_bytes", 0.0);
    if (w.flops < 0 || w.bytesRead < 0 || w.bytesWritten < 0 || w.commBytes < 0 || w.groupSize < 0)
        fail(f.where, "FLOPs, bytes and group size must not be negative");
    if ((w.opClass == OpClass::Collective) != (w.collective != Collective::None))
        fail(f.where, "a \"collective\" kind goes with class \"collective\", and only with it");
    return w;
}

ojson workToJson(const OpWork& w) {
    ojson j;
    j["class"] = std::string(toString(w.opClass));
    j["dtype"] = std::string(toString(w.dtype));
    j["flops"] = w.flops;
    j["bytes_read"] = w.bytesRead;
    j["bytes_written"] = w.bytesWritten;
    if (w.collective != Collective::None) {
        j["collective"] = std::string(toString(w.collective));
        j["group_size"] = w.groupSize;
        j["comm_bytes"] = w.commBytes;
    }
    return j;
}

Topology topologyFromJson(const json& j, const std::string& where, int devices) {
    if (!j.is_object()) fail(where, "must be an object, got " + jsonKind(j));
    const Fields f{j, where};
    Topology t;
    const json& links = f.array("links");
    for (std::size_t i = 0; i < links.size(); ++i) {
        const std::string who = where + ": link #" + std::to_string(i);
        if (!links[i].is_object()) fail(who, "must be an object, got " + jsonKind(links[i]));
        const Fields l{links[i], who};
        t.links.push_back({l.string("name", "link" + std::to_string(i)), l.number("latency", 0.0), l.numberOrInfinity("bandwidth")});
    }
    const json& routes = f.array("routes");
    for (std::size_t i = 0; i < routes.size(); ++i) {
        if (!routes[i].is_array()) fail(where, "route #" + std::to_string(i) + " must be an array of link indices");
        std::vector<int> route;
        for (const json& id : routes[i]) {
            if (!id.is_number_integer()) fail(where, "route #" + std::to_string(i) + " must hold link indices");
            route.push_back(id.get<int>());
        }
        t.routes.push_back(std::move(route));
    }
    t.shared = f.boolean("shared", true);   // a machine's links are shared unless the file says not
    try {
        t.finalize(devices);
    } catch (const GraphError& e) {
        fail(where, e.what());
    }
    return t;
}

ojson topologyToJson(const Topology& t) {
    ojson links = ojson::array();
    for (const Link& l : t.links) {
        ojson j{{"name", l.name}, {"latency", l.latency}};
        if (std::isfinite(l.bandwidth)) j["bandwidth"] = l.bandwidth;
        links.push_back(std::move(j));
    }
    ojson out{{"links", std::move(links)}, {"routes", t.routes}};
    out["shared"] = t.shared;
    return out;
}

} // namespace

namespace io_detail {

Platform platformFromJson(const json& j, const std::string& where) {
    if (!j.is_object()) fail(where, "a platform must be a JSON object, got " + jsonKind(j));
    checkHeader(j, where, "schedlab-platform", kPlatformVersion);
    const Fields f{j, where};
    const json& devices = f.array("devices");
    if (devices.empty()) fail(where, "\"devices\" is empty; a platform needs at least one device");
    if (static_cast<std::int64_t>(devices.size()) > limits().devices)
        fail(where, std::to_string(devices.size()) + " devices is more than this reader accepts" + limitNote("devices", static_cast<double>(limits().devices)));
    Platform p;
    for (std::size_t i = 0; i < devices.size(); ++i) {
        const std::string who = where + ": device #" + std::to_string(i);
        if (!devices[i].is_object()) fail(who, "must be an object, got " + jsonKind(devices[i]));
        const Fields d{devices[i], who};
        Device dev;
        dev.name = d.string("name", "dev" + std::to_string(i));
        dev.machineType = d.integer("machine_type", 0);
        dev.memoryCapacity = d.numberOrInfinity("memory_bytes");
        dev.resourceCapacity = d.number("resource_capacity", 1.0);
        dev.model = d.string("model", "");
        if (dev.machineType < 0) fail(who, "negative \"machine_type\"");
        if (!(dev.memoryCapacity > 0)) fail(who, "\"memory_bytes\" must be positive");
        if (!(dev.resourceCapacity > 0)) fail(who, "\"resource_capacity\" must be positive");
        p.devices.push_back(std::move(dev));
    }
    if (const json* link = f.find("interconnect")) {
        if (!link->is_object()) fail(where, "\"interconnect\" must be an object, got " + jsonKind(*link));
        const Fields l{*link, where + ": interconnect"};
        p.link.latency = l.number("latency", 0.0);
        p.link.bandwidth = l.numberOrInfinity("bandwidth");
        if (p.link.latency < 0) fail(l.where, "\"latency\" must not be negative");
        if (!(p.link.bandwidth > 0)) fail(l.where, "\"bandwidth\" must be positive");
    }
    p.name = f.string("name", "");
    if (const json* t = f.find("topology")) p.topology = topologyFromJson(*t, where + ": topology", p.deviceCount());
    return p;
}

ojson platformJsonValue(const Platform& p) {
    ojson devices = ojson::array();
    for (const Device& d : p.devices) {
        ojson dev;
        dev["name"] = d.name;
        dev["machine_type"] = d.machineType;
        if (std::isfinite(d.memoryCapacity)) dev["memory_bytes"] = d.memoryCapacity;
        dev["resource_capacity"] = d.resourceCapacity;
        if (!d.model.empty()) dev["model"] = d.model;
        devices.push_back(std::move(dev));
    }
    ojson link;
    link["latency"] = p.link.latency;
    if (std::isfinite(p.link.bandwidth)) link["bandwidth"] = p.link.bandwidth;
    ojson j;
    j["format"] = "schedlab-platform";
    j["version"] = kPlatformVersion;
    j["devices"] = std::move(devices);
    j["interconnect"] = std::move(link);
    if (!p.name.empty()) j["name"] = p.name;
    if (!p.topology.empty()) j["topology"] = topologyToJson(p.topology);
    return j;
}

bool looksLikeWfCommons(const json& doc) {
    if (!doc.is_object()) return false;
    if (auto f = doc.find("format"); f != doc.end() && f->is_string() && *f == "schedlab-graph") return false;
    auto w = doc.find("workflow");
    return w != doc.end() && w->is_object();
}

LoadedGraph readNativeJson(const json& doc, const std::string& source) {
    if (!doc.is_object()) fail(source, "a graph file must be a JSON object, got " + jsonKind(doc));
    checkHeader(doc, source, "schedlab-graph", kGraphVersion);
    const Fields top{doc, source};
    const json& ops = top.array("ops");
    const json& tensors = top.array("tensors", false);
    if (static_cast<std::int64_t>(ops.size()) > limits().ops)
        fail(source, std::to_string(ops.size()) + " ops is more than this reader accepts" + limitNote("ops", static_cast<double>(limits().ops)));
    if (static_cast<std::int64_t>(tensors.size()) > limits().edges)
        fail(source, std::to_string(tensors.size()) + " tensors is more than this reader accepts");

    auto g = std::make_shared<Graph>();
    if (top.find("time_unit")) {
        TimeUnit unit;
        if (!parseTimeUnit(top.string("time_unit"), unit)) fail(source, "\"time_unit\" must be \"units\", \"us\" or \"s\"");
        g->setTimeUnit(unit);
    }
    std::unordered_map<std::string, OpId> byName;
    for (std::size_t i = 0; i < ops.size(); ++i) {
        std::string who = source + ": op #" + std::to_string(i);
        if (!ops[i].is_object()) fail(who, "must be an object, got " + jsonKind(ops[i]));
        Fields f{ops[i], who};
        Op op;
        op.name = f.string("name");
        f.where = who + " ('" + op.name + "')";
        op.type = f.string("type", "");
        op.duration = f.number("duration");
        op.paramBytes = f.number("param_bytes", 0.0);
        op.resourceDemand = f.number("resource_demand", 1.0);
        op.machineType = f.integer("machine_type", 0);
        const json& dd = f.array("device_durations", false);
        for (const json& d : dd) {
            if (!d.is_number()) fail(f.where, "\"device_durations\" must hold numbers, got " + jsonKind(d));
            op.deviceDurations.push_back(d.get<double>());
        }
        if (const json* w = f.find("work")) op.work = workFromJson(*w, f.where);
        const std::string source = f.string("time_source", "given");
        if (!parseTimeSource(source, op.timeSource)) fail(f.where, "\"time_source\" must be \"given\", \"estimated\" or \"measured\"");
        if (!byName.emplace(op.name, static_cast<OpId>(i)).second) fail(f.where, "duplicate op name '" + op.name + "'");
        g->addOp(std::move(op));
    }
    auto opNamed = [&](const json& v, const std::string& who, const char* role) {
        if (!v.is_string()) fail(who, std::string(role) + " must be an op name (a string), got " + jsonKind(v));
        auto it = byName.find(v.get<std::string>());
        if (it == byName.end()) fail(who, std::string(role) + " '" + v.get<std::string>() + "' is not an op of this file (dangling reference)");
        return it->second;
    };
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        std::string who = source + ": tensor #" + std::to_string(i);
        if (!tensors[i].is_object()) fail(who, "must be an object, got " + jsonKind(tensors[i]));
        Fields f{tensors[i], who};
        std::string name = f.string("name", "t" + std::to_string(i));
        f.where = who + " ('" + name + "')";
        const OpId producer = opNamed(f.require("producer"), f.where, "producer");
        const double bytes = f.number("bytes", 0.0);
        const TensorId t = g->addTensor(std::move(name), producer, bytes);
        for (const json& c : f.array("consumers", false)) g->addConsumer(t, opNamed(c, f.where, "consumer"));
    }
    finalizeGraph(*g, source);
    LoadedGraph out;
    out.graph = std::move(g);
    if (const json* p = top.find("platform"); p && !p->is_null()) out.platform = platformFromJson(*p, source + ": platform");
    return out;
}

} // namespace io_detail

std::string graphToJson(const Graph& g, const Platform* platform) {
    ojson ops = ojson::array();
    for (const Op& o : g.ops()) {
        ojson j;
        j["name"] = o.name;
        j["type"] = o.type;
        j["duration"] = o.duration;
        j["param_bytes"] = o.paramBytes;
        j["resource_demand"] = o.resourceDemand;
        j["machine_type"] = o.machineType;
        if (!o.deviceDurations.empty()) j["device_durations"] = o.deviceDurations;
        if (o.work.known()) j["work"] = workToJson(o.work);
        if (o.timeSource != TimeSource::Given) j["time_source"] = std::string(toString(o.timeSource));
        ops.push_back(std::move(j));
    }
    ojson tensors = ojson::array();
    for (const Tensor& t : g.tensors()) {
        ojson j;
        j["name"] = t.name;
        j["producer"] = g.op(t.producer).name;
        ojson consumers = ojson::array();
        for (OpId c : t.consumers) consumers.push_back(g.op(c).name);
        j["consumers"] = std::move(consumers);
        j["bytes"] = t.bytes;
        tensors.push_back(std::move(j));
    }
    ojson doc;
    doc["format"] = "schedlab-graph";
    doc["version"] = kGraphVersion;
    doc["time_unit"] = std::string(toString(g.timeUnit()));
    doc["ops"] = std::move(ops);
    doc["tensors"] = std::move(tensors);
    if (platform) doc["platform"] = platformJsonValue(*platform);
    return doc.dump(1) + "\n";
}

void saveGraphJson(const Graph& g, const Platform* platform, const std::string& path) {
    writeFileAtomically(path, graphToJson(g, platform));
}

Platform parsePlatform(std::string_view text, const std::string& sourceName) {
    return platformFromJson(parseJson(text, sourceName), sourceName);
}

Platform loadPlatform(const std::string& path) { return parsePlatform(readFile(path, static_cast<std::size_t>(limits().textBytes)), path); }

std::string platformToJson(const Platform& p) { return platformJsonValue(p).dump(2) + "\n"; }

} // namespace sl

// SPDX-License-Identifier: MIT
// MLCommons Chakra execution traces (docs/formats.md, "Chakra execution traces"), schema
// et_def.proto of mlcommons/chakra:
//   - the protobuf `.et` stream: varint-length-prefixed records, a GlobalMetadata then one Node
//     each, possibly gzipped. Decoded by hand with a small wire-format walker (no generated code);
//   - its JSON forms: chakra_jsonizer's concatenated objects (protobuf JSON names, 64-bit integers
//     as strings), or one object whose "nodes" array holds the nodes.
// Every node becomes an op with its measured duration (microseconds); data_deps and ctrl_deps become
// edges; communication nodes carry their collective in Op::work.
// The parts: the reader's node and the Reader (chakrareader.h), its JSON forms (chakrajson.cpp),
// the sizes of IOInfo (chakrasizes.h), the wire format (chakrawire.h) and gzip (chakragzip.h).
#include "core/io/chakra/chakragzip.h"
#include "core/io/chakra/chakrareader.h"
#include "core/io/chakra/chakrawire.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>

namespace sl::io_detail {

namespace chakra {

// ---------------------------------------------------------------- the reader's node

namespace {

std::string nodeTypeName(std::int64_t t) {
    return t >= 0 && t < static_cast<std::int64_t>(kNodeTypeNames.size())
        ? std::string(kNodeTypeNames[static_cast<std::size_t>(t)])
        : "NODE_TYPE_" + std::to_string(t);
}

std::string label(const Node& n) {
    return "node " + std::to_string(n.id) + (n.name.empty() ? "" : " ('" + n.name + "')");
}

}   // namespace

void applyAttr(Node& n, std::string_view name, const AttrValue& v) {
    using K = AttrValue::Kind;
    if (name == "is_cpu_op") {
        if (v.kind == K::Bool)
            n.isCpuOp = v.flag;
        else if (v.kind == K::Number)
            n.isCpuOp = v.number != 0;
    } else if (name == "comm_type") {
        if (v.kind == K::Number)
            n.commType = static_cast<std::int64_t>(v.number);
        else if (v.kind == K::String)
            for (std::size_t i = 0; i < kCommTypeNames.size(); ++i)
                if (kCommTypeNames[i] == v.text) n.commType = static_cast<std::int64_t>(i);
    } else if (name == "comm_size") {
        if (v.kind == K::Number && std::isfinite(v.number) && v.number >= 0) n.commSize = std::floor(v.number);
    } else if (name == "pg_size" || name == "comm_group_size" || name == "group_size") {
        if (v.kind == K::Number && v.number >= 1 && v.number <= INT_MAX) n.groupSize = static_cast<int>(v.number);
    } else if (name == "pg_ranks" || name == "comm_group_ranks" || name == "ranks") {
        if (v.kind == K::List && v.listSize >= 1 && v.listSize <= INT_MAX) n.groupSize = static_cast<int>(v.listSize);
    }
}

// ---------------------------------------------------------------- the reader

void Reader::nodeFail(const Node& n, const std::string& message) const {
    switch (n.place) {
    case Node::Place::Line: failAt(m_source, static_cast<std::int64_t>(n.at), label(n) + ": " + message);
    case Node::Place::Index: fail(m_source, label(n) + " (nodes[" + std::to_string(n.at) + "]): " + message);
    case Node::Place::Feeder: fail(m_source, label(n) + " (workload_graph[" + std::to_string(n.at) + "]): " + message);
    case Node::Place::Byte: break;
    }
    fail(m_source, label(n) + " (record at byte " + std::to_string(n.at) + "): " + message);
}

void Reader::finish(Node& n) {
    if (!std::isfinite(n.duration) || n.duration < 0)
        nodeFail(n, "duration_micros " + formatNumber(n.duration) + " is not a non-negative number of microseconds");
    if (n.duration > limits().duration)
        nodeFail(n, "duration_micros " + formatNumber(n.duration) + limitNote("duration", limits().duration));
    const std::function<void(const std::string&)> tooBig = [&](const std::string& what) {
        nodeFail(n,
                 "a tensor " + what + " is beyond the limit for one tensor" +
                     limitNote("tensor-bytes", limits().tensorBytes));
    };
    SizeReader sizes(tooBig);
    n.inputSizes = sizes.read(n.inputs.shapes, n.inputs.types);
    n.outputSizes = sizes.read(n.outputs.shapes, n.outputs.types);
    n.inputs = {};
    n.outputs = {};
    if (static_cast<std::int64_t>(m_nodes.size()) >= limits().ops)
        nodeFail(n,
                 "more than " + std::to_string(limits().ops) + " nodes" +
                     limitNote("ops", static_cast<double>(limits().ops)));
    m_nodes.push_back(std::move(n));
}

// ---------------------------------------------------------------- protobuf records

namespace {

/// AttributeProto: name = 1, doc_string = 2, then one typed value.
std::pair<std::string_view, AttrValue> attribute(Wire& w) {
    std::string_view name;
    AttrValue v;
    while (w.more()) {
        const Field f = w.next();
        if (f.number == 1) {
            w.expect(f, 2, "name");
            name = f.bytes;
        } else if (f.number == 29 || f.number == 31) {   // string_val, bytes_val
            w.expect(f, 2, "string_val");
            v.kind = AttrValue::Kind::String;
            v.text = std::string(f.bytes);
        } else if (const Scalar s = scalarOfField(f.number); s != Scalar::None) {
            w.expect(f, wireTypeOf(s), "value");
            v.kind = s == Scalar::Bool ? AttrValue::Kind::Bool : AttrValue::Kind::Number;
            v.number = scalarValue(s, f.value);
            v.flag = f.value != 0;
        } else if (const Scalar e = scalarOfField(f.number - 1); f.number % 2 == 0 && e != Scalar::None) {
            w.expect(f, 2, "list");
            Wire list = w.nested(f);
            v.kind = AttrValue::Kind::List;
            v.listSize = countListValues(list, e);
        }
    }
    return {name, v};
}

/// IOInfo: values = 1 (ignored), shapes = 2, types = 3.
IoText ioInfo(Wire& w) {
    IoText out;
    while (w.more()) {
        const Field f = w.next();
        if (f.number == 2 || f.number == 3) {
            w.expect(f, 2, f.number == 2 ? "shapes" : "types");
            (f.number == 2 ? out.shapes : out.types) = std::string(f.bytes);
        }
    }
    return out;
}

void dependencies(Wire& w, const Field& f, std::vector<std::uint64_t>& out) {
    if (f.wireType == 2) {
        Wire packed = w.nested(f);
        while (packed.more()) out.push_back(packed.varint());
    } else {
        w.expect(f, 0, f.number == 4 ? "ctrl_deps" : "data_deps");
        out.push_back(f.value);
    }
}

/// GlobalMetadata has only version = 1 and attr = 2, both length-delimited: a first record with
/// anything else is a node (traces written before the metadata record existed).
bool isMetadata(std::string_view record, std::size_t base, const std::string& source, const std::string& where) {
    Wire w(record, base, source, where);
    while (w.more()) {
        const Field f = w.next();
        if ((f.number != 1 && f.number != 2) || f.wireType != 2) return false;
    }
    return true;
}

}   // namespace

void Reader::protobufRecord(std::string_view record, std::size_t base, std::size_t index) {
    const std::string where = "record " + std::to_string(index);
    Wire w(record, base, m_source, where);
    Node n;
    n.at = base;
    while (w.more()) {
        const Field f = w.next();
        switch (f.number) {
        case 1:
            w.expect(f, 0, "id");
            n.id = f.value;
            break;
        case 2:
            w.expect(f, 2, "name");
            n.name = std::string(f.bytes);
            break;
        case 3:
            w.expect(f, 0, "type");
            n.type = static_cast<std::int64_t>(f.value);
            break;
        case 4: dependencies(w, f, n.ctrlDeps); break;
        case 5: dependencies(w, f, n.dataDeps); break;
        case 7:   // uint64; a writer that stored a negative int64 leaves 2^64 - x, read back as -x
            w.expect(f, 0, "duration_micros");
            n.duration = static_cast<double>(static_cast<std::int64_t>(f.value));
            break;
        case 8:
        case 9: {
            w.expect(f, 2, f.number == 8 ? "inputs" : "outputs");
            Wire io = w.nested(f);
            (f.number == 8 ? n.inputs : n.outputs) = ioInfo(io);
            break;
        }
        case 10: {
            w.expect(f, 2, "attr");
            Wire a = w.nested(f);
            const auto [name, value] = attribute(a);
            applyAttr(n, name, value);
            break;
        }
        default: break;   // start_time_micros, storage, fields of newer schemas
        }
    }
    finish(n);
}

void Reader::readProtobuf(std::string_view data) {
    const std::string framing = "record framing";
    std::size_t pos = 0;
    std::size_t index = 0;
    while (pos < data.size()) {
        const std::size_t start = pos;
        Wire head(data.substr(pos), pos, m_source, framing);
        const std::uint64_t length = head.varint();
        pos += head.position();
        if (length > data.size() - pos)
            fail(m_source,
                 "byte " + std::to_string(start) + ": record " + std::to_string(index) + " needs " +
                     std::to_string(length) + " bytes but the file has " + std::to_string(data.size() - pos) +
                     " left (truncated file?)");
        if (length == 0) {   // Chakra's own readers stop at an empty record
            if (pos < data.size())
                m_warnings.push_back("stopped at the empty record at byte " + std::to_string(start) +
                                     ", as Chakra's readers do; " + std::to_string(data.size() - pos) +
                                     " bytes after it were not read");
            break;
        }
        const std::string_view record = data.substr(pos, static_cast<std::size_t>(length));
        if (index == 0 && isMetadata(record, pos, m_source, "record 0")) {
            // GlobalMetadata: version and attributes (schema, pid, ...) are not used
        } else {
            protobufRecord(record, pos, index);
        }
        pos += static_cast<std::size_t>(length);
        ++index;
    }
    if (index == 0)
        fail(m_source, "empty file: a Chakra trace holds a GlobalMetadata record, then one record per node");
}

// ---------------------------------------------------------------- the graph

namespace {

/// "aten::linear" -> "linear", "void at::native::foo_kernel<4>(...)" -> "foo_kernel",
/// "Memcpy DtoH (...)" -> "Memcpy": the operator or kernel a node name starts with, without its
/// namespace; empty when the name starts with something else ("## forward ##").
std::string operatorOf(std::string_view name) {
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    std::size_t end = 0;
    while (end < name.size() &&
           (std::isalnum(static_cast<unsigned char>(name[end])) || name[end] == '_' || name[end] == ':' ||
            name[end] == '.'))
        ++end;
    std::string_view op = name.substr(0, end);
    if (const auto colons = op.rfind("::"); colons != std::string_view::npos) op.remove_prefix(colons + 2);
    while (!op.empty() && (op.back() == ':' || op.back() == '.')) op.remove_suffix(1);
    return std::string(op);
}

/// The collective of a COMM_COLL node: its comm_type attribute, else its name (as Chakra's PyTorch
/// converter derives comm_type). None for kinds the op model has no algorithm for.
Collective collectiveOf(const Node& n) {
    if (n.commType) {
        switch (*n.commType) {
        case 0: return Collective::AllReduce;
        case 2: return Collective::AllGather;
        case 5: return Collective::Broadcast;
        case 6: return Collective::AllToAll;
        case 7:
        case 8: return Collective::ReduceScatter;
        default: return Collective::None;   // REDUCE, GATHER, SCATTER, BARRIER
        }
    }
    std::string key;
    for (char c : n.name)
        if (c != '_' && c != '-') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (key.find("allreduce") != std::string::npos) return Collective::AllReduce;
    if (key.find("alltoall") != std::string::npos) return Collective::AllToAll;
    if (key.find("allgather") != std::string::npos) return Collective::AllGather;
    if (key.find("reducescatter") != std::string::npos) return Collective::ReduceScatter;
    if (key.find("broadcast") != std::string::npos) return Collective::Broadcast;
    return Collective::None;
}

}   // namespace

void Reader::addWork(Op& op, const Node& n) {
    const bool pointToPoint = n.type == kCommSend || n.type == kCommRecv;
    if (n.type != kCommColl && !pointToPoint) return;   // computation keeps its measured time only
    const Collective c = pointToPoint ? Collective::Permute : collectiveOf(n);
    if (c == Collective::None) {
        ++m_unmodelledCollectives;
        return;
    }
    op.work.opClass = OpClass::Collective;
    op.work.collective = c;
    op.work.dtype = n.inputSizes.dtype != DType::Unknown ? n.inputSizes.dtype : n.outputSizes.dtype;
    op.work.groupSize = pointToPoint ? 2 : n.groupSize;
    if (n.commSize) {
        op.work.commBytes = *n.commSize;
    } else {   // what Chakra's PyTorch converter puts in comm_size: the input tensors' bytes
        const Sizes& sent = n.inputSizes.bytes > 0 ? n.inputSizes : n.outputSizes;
        op.work.commBytes = sent.bytes;
        if (!sent.known || sent.bytes == 0) ++m_sizelessCollectives;
    }
    op.type = pointToPoint ? (n.type == kCommSend ? "send" : "recv") : std::string(toString(c));
}

/// Node names, made unique with "#<id>" where several nodes share one (all of them get it).
std::vector<std::string> Reader::uniqueNames() const {
    std::unordered_map<std::string_view, int> count;
    for (const Node& n : m_nodes) ++count[n.name];
    std::unordered_set<std::string> taken;
    for (const Node& n : m_nodes)
        if (count[n.name] == 1 && !n.name.empty()) taken.insert(n.name);
    std::vector<std::string> out;
    out.reserve(m_nodes.size());
    for (const Node& n : m_nodes) {
        if (count[n.name] == 1 && !n.name.empty()) {
            out.push_back(n.name);
            continue;
        }
        std::string name = n.name.empty() ? "node" : n.name;
        do name += "#" + std::to_string(n.id);
        while (!taken.insert(name).second);
        out.push_back(std::move(name));
    }
    return out;
}

void Reader::addOps(Graph& g, const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& n = m_nodes[i];
        Op op{.name = names[i],
              .duration = n.duration,
              .machineType = n.isCpuOp.value_or(false) ? 1 : 0};   // CPU and GPU lanes
        op.type = operatorOf(n.name);
        if (op.type.empty()) op.type = nodeTypeName(n.type);
        op.timeSource = TimeSource::Measured;   // a trace's durations were measured
        addWork(op, n);
        m_cpuOps += op.machineType;
        m_renamed += names[i] != n.name;
        g.addOp(std::move(op));
    }
}

/// One tensor per producer of data dependencies (its outputs' bytes, read by all its data
/// dependents), one zero-byte edge per control dependency that no data dependency already orders.
/// A dependency on a node the trace does not hold is dropped and counted: converters drop nodes
/// and leave dependencies on them, and Chakra's own feeder does not refuse such a trace (docs/formats.md).
void Reader::addDependencies(Graph& g, const std::vector<std::string>& names) {
    std::unordered_map<std::uint64_t, OpId> opOf;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (const auto [it, fresh] = opOf.emplace(m_nodes[i].id, static_cast<OpId>(i)); !fresh)
            nodeFail(m_nodes[i],
                     "a second node with this id (the first is '" + m_nodes[static_cast<std::size_t>(it->second)].name +
                         "')");
    auto resolve = [&](const Node& n, std::uint64_t dep, const char* field, int& dangling) -> std::optional<OpId> {
        const auto it = opOf.find(dep);
        if (it == opOf.end()) {
            ++dangling;
            return std::nullopt;
        }
        if (m_nodes[static_cast<std::size_t>(it->second)].id == n.id)
            nodeFail(n, std::string(field) + " names the node itself");
        return it->second;
    };
    std::vector<std::vector<OpId>> readers(m_nodes.size());
    std::vector<std::unordered_set<OpId>> preds(m_nodes.size());
    std::int64_t edges = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& n = m_nodes[i];
        edges += static_cast<std::int64_t>(n.dataDeps.size() + n.ctrlDeps.size());
        if (edges > limits().edges)
            nodeFail(n,
                     "more than " + std::to_string(limits().edges) + " dependencies" +
                         limitNote("edges", static_cast<double>(limits().edges)));
        for (std::uint64_t d : n.dataDeps)
            if (const std::optional<OpId> p = resolve(n, d, "data_deps", m_danglingData);
                p && preds[i].insert(*p).second)
                readers[static_cast<std::size_t>(*p)].push_back(static_cast<OpId>(i));
    }
    for (std::size_t p = 0; p < m_nodes.size(); ++p) {
        if (readers[p].empty()) continue;
        const Sizes& out = m_nodes[p].outputSizes;
        m_sizelessProducers += !out.known;
        const TensorId t = g.addTensor(names[p], static_cast<OpId>(p), out.bytes);
        for (OpId c : readers[p]) g.addConsumer(t, c);
    }
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        for (std::uint64_t d : m_nodes[i].ctrlDeps)
            if (const std::optional<OpId> p = resolve(m_nodes[i], d, "ctrl_deps", m_danglingCtrl);
                p && preds[i].insert(*p).second)
                g.addEdge(*p, static_cast<OpId>(i), 0);
}

/// The machine of one rank as the trace ran it: its GPU (machine type 0) and its host CPU (type 1),
/// each when some op runs there, so that the trace schedules as recorded without options.
Platform Reader::rankPlatform(const Graph& g) const {
    Platform p;
    if (m_cpuOps < g.opCount()) p.devices.push_back({.name = "gpu0", .machineType = 0});
    if (m_cpuOps > 0) p.devices.push_back({.name = "cpu0", .machineType = 1});
    return p;
}

/// The warnings of the load, counted while the graph was built.
std::vector<std::string> Reader::summary(const Graph& g) const {
    std::vector<std::string> out = m_warnings;
    if (m_cpuOps > 0 && m_cpuOps < g.opCount())
        out.push_back(
            std::to_string(m_cpuOps) +
            " CPU ops (is_cpu_op) are on machine type 1, the GPU ops on 0: the file's machine is the rank's GPU and CPU");
    else if (m_cpuOps > 0)
        out.push_back("every op is a CPU op (is_cpu_op), on machine type 1: the file's machine is the rank's CPU");
    if (m_danglingData + m_danglingCtrl > 0)
        out.push_back(
            std::to_string(m_danglingData) + " data and " + std::to_string(m_danglingCtrl) +
            " control dependencies name nodes the trace does not hold (a converter dropped those nodes); "
            "the dependencies were dropped, the ops keep their other edges (Chakra's feeder does not refuse such traces either)");
    if (m_renamed > 0)
        out.push_back(std::to_string(m_renamed) + " ops were renamed '<name>#<id>' (shared or empty node names)");
    if (m_sizelessProducers > 0)
        out.push_back(
            std::to_string(m_sizelessProducers) +
            " nodes have data dependents but no output shapes and types the reader knows; their edges carry 0 bytes");
    if (m_unmodelledCollectives > 0)
        out.push_back(
            std::to_string(m_unmodelledCollectives) +
            " collectives are of a kind without a network model (reduce, gather, scatter, barrier or unnamed); they keep their measured time only");
    if (m_sizelessCollectives > 0)
        out.push_back(std::to_string(m_sizelessCollectives) +
                      " communication nodes have no comm_size nor input sizes; 0 bytes used");
    return out;
}

LoadedGraph Reader::build() {
    if (m_nodes.empty()) fail(m_source, "the trace has no nodes");
    auto g = std::make_shared<Graph>();
    g->setTimeUnit(TimeUnit::Microseconds);
    const std::vector<std::string> names = uniqueNames();
    addOps(*g, names);
    addDependencies(*g, names);
    finalizeGraph(*g, m_source);
    LoadedGraph out;
    out.warnings = summary(*g);
    out.platform = rankPlatform(*g);
    out.graph = std::move(g);
    return out;
}

// ---------------------------------------------------------------- the file's form

namespace {

/// JSON text starts with '{' or '[' and has no control bytes but blanks. A protobuf trace whose
/// first record is 123 or 91 bytes long also starts with '{' or '[', but its keys and lengths
/// (0x08, 0x12, a string's length, ...) are control bytes within the first few dozen.
bool isJsonText(std::string_view bytes) {
    std::size_t first = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (first < bytes.size() &&
           (bytes[first] == ' ' || bytes[first] == '\n' || bytes[first] == '\r' || bytes[first] == '\t'))
        ++first;
    if (first >= bytes.size() || (bytes[first] != '{' && bytes[first] != '[')) return false;
    const std::string_view head = bytes.substr(first, 256);
    return std::none_of(head.begin(), head.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return (b < 0x20 && b != '\n' && b != '\r' && b != '\t') || b == 0x7f;
    });
}

}   // namespace
}   // namespace chakra

bool looksLikeChakraJson(std::string_view head) {
    for (const char* key : {"\"workload_graph\"", "\"durationMicros\"", "\"duration_micros\"", "\"dataDeps\"",
                            "\"data_deps\"", "\"ctrlDeps\"", "\"COMP_NODE\"", "\"COMM_COLL_NODE\"",
                            "\"COMM_SEND_NODE\"", "\"COMM_RECV_NODE\"", "\"METADATA_NODE\""})
        if (head.find(key) != std::string_view::npos) return true;
    return false;
}

LoadedGraph readChakra(std::string_view bytes, const std::string& source) {
    std::string inflated;
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
        static_cast<unsigned char>(bytes[1]) == 0x8b) {
        inflated = chakra::gunzip(bytes, source);
        bytes = inflated;
    }
    chakra::Reader reader(source);
    if (chakra::isJsonText(bytes))
        reader.readJson(bytes);
    else
        reader.readProtobuf(bytes);
    return reader.build();
}

}   // namespace sl::io_detail

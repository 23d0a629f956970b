// SPDX-License-Identifier: MIT
// MLCommons Chakra execution traces (docs/formats.md, "Chakra execution traces"), schema
// et_def.proto of mlcommons/chakra:
//   - the protobuf `.et` stream: varint-length-prefixed records, a GlobalMetadata then one Node
//     each, possibly gzipped. Decoded by hand with a small wire-format walker (no generated code);
//   - its JSON forms: chakra_jsonizer's concatenated objects (protobuf JSON names, 64-bit integers
//     as strings), or one object whose "nodes" array holds the nodes.
// Every node becomes an op with its measured duration (microseconds); data_deps and ctrl_deps become
// edges; communication nodes carry their collective in Op::work.
#include "core/io/importers.h"
#include "core/io/ioutil.h"
#include "core/util/text.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cctype>
#include <climits>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace sl::io_detail {

// A named namespace: core is built in unity batches, where anonymous-namespace helpers of the
// readers would meet.
namespace chakra {
namespace {

using json = nlohmann::json;

// NodeType of et_def.proto.
enum NodeType : std::int64_t { kInvalid = 0, kMetadata = 1, kMemLoad = 2, kMemStore = 3, kComp = 4, kCommSend = 5, kCommRecv = 6, kCommColl = 7 };
constexpr std::array<std::string_view, 11> kNodeTypeNames = {
    "INVALID_NODE", "METADATA_NODE", "MEM_LOAD_NODE", "MEM_STORE_NODE", "COMP_NODE", "COMM_SEND_NODE",
    "COMM_RECV_NODE", "COMM_COLL_NODE", "STORAGE_NODE", "BATCH_NODE", "CHECKPOINT_NODE"};
// CollectiveCommType of et_def.proto, in enum order.
constexpr std::array<std::string_view, 10> kCommTypeNames = {
    "ALL_REDUCE", "REDUCE", "ALL_GATHER", "GATHER", "SCATTER", "BROADCAST", "ALL_TO_ALL", "REDUCE_SCATTER",
    "REDUCE_SCATTER_BLOCK", "BARRIER"};

std::string nodeTypeName(std::int64_t t) {
    return t >= 0 && t < static_cast<std::int64_t>(kNodeTypeNames.size()) ? std::string(kNodeTypeNames[static_cast<std::size_t>(t)])
                                                                           : "NODE_TYPE_" + std::to_string(t);
}

// ---------------------------------------------------------------- sizes from IOInfo

/// Bytes of a tensor's elements from PyTorch's dtype spelling in "Tensor(<dtype>)".
struct TorchType {
    std::string_view name;
    DType dtype;
    double width;
};
constexpr std::array<TorchType, 30> kTorchTypes{{
    {"float", DType::F32, 4}, {"float32", DType::F32, 4}, {"double", DType::F64, 8}, {"float64", DType::F64, 8},
    {"half", DType::F16, 2}, {"float16", DType::F16, 2}, {"c10::Half", DType::F16, 2}, {"bfloat16", DType::BF16, 2},
    {"c10::BFloat16", DType::BF16, 2}, {"c10::Float8_e4m3fn", DType::F8, 1}, {"c10::Float8_e5m2", DType::F8, 1},
    {"complex64", DType::Unknown, 8}, {"c10::complex<float>", DType::Unknown, 8}, {"complex128", DType::Unknown, 16},
    {"c10::complex<double>", DType::Unknown, 16}, {"bool", DType::Bool, 1}, {"uint8", DType::I8, 1},
    {"unsigned char", DType::I8, 1}, {"int8", DType::I8, 1}, {"signed char", DType::I8, 1}, {"int16", DType::I16, 2},
    {"short", DType::I16, 2}, {"int", DType::I32, 4}, {"int32", DType::I32, 4}, {"unsigned int", DType::I32, 4},
    {"long", DType::I64, 8}, {"int64", DType::I64, 8}, {"long int", DType::I64, 8}, {"long long", DType::I64, 8},
    {"c10::qint8", DType::I8, 1}}};

const TorchType* torchType(std::string_view type) {
    if (type.substr(0, 7) != "Tensor(" || type.back() != ')') return nullptr;
    const std::string_view inner = type.substr(7, type.size() - 8);
    for (const TorchType& t : kTorchTypes)
        if (t.name == inner) return &t;
    return nullptr;
}

/// A Python or JSON list literal of whole numbers, as IOInfo.shapes holds it: "[[8, 1024], []]".
struct Literal {
    bool isList = false;
    double value = 0;
    std::vector<Literal> items;
};

constexpr int kMaxShapeDepth = 8;   // a tensor list of tensors is depth 3; deeper is not a shape

class LiteralParser {
public:
    explicit LiteralParser(std::string_view text) : m_text(text) {}

    std::optional<Literal> parseAll() {
        auto v = value(0);
        skipBlanks();
        if (!v || m_pos != m_text.size()) return std::nullopt;
        return v;
    }

private:
    void skipBlanks() {
        while (m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\t')) ++m_pos;
    }
    std::optional<Literal> value(int depth) {
        skipBlanks();
        if (m_pos >= m_text.size() || depth > kMaxShapeDepth) return std::nullopt;
        Literal out;
        if (m_text[m_pos] != '[' && m_text[m_pos] != '(') {   // a number (tuples print with parentheses)
            std::size_t end = m_pos;
            while (end < m_text.size() && (std::isdigit(static_cast<unsigned char>(m_text[end])) || m_text[end] == '-')) ++end;
            const auto v = parseInteger(m_text.substr(m_pos, end - m_pos));
            if (!v) return std::nullopt;
            m_pos = end;
            out.value = static_cast<double>(*v);
            return out;
        }
        const char close = m_text[m_pos] == '[' ? ']' : ')';
        ++m_pos;
        out.isList = true;
        skipBlanks();
        if (m_pos < m_text.size() && m_text[m_pos] == close) {
            ++m_pos;
            return out;
        }
        while (true) {
            auto item = value(depth + 1);
            if (!item) return std::nullopt;
            out.items.push_back(std::move(*item));
            skipBlanks();
            if (m_pos >= m_text.size()) return std::nullopt;
            if (m_text[m_pos] == close) {
                ++m_pos;
                return out;
            }
            if (m_text[m_pos] != ',') return std::nullopt;
            ++m_pos;
        }
    }

    std::string_view m_text;
    std::size_t m_pos = 0;
};

/// The strings of a Python or JSON list of strings, as IOInfo.types holds it: "['Tensor(float)', 'Int']".
std::optional<std::vector<std::string_view>> stringList(std::string_view text) {
    text = trimBlanks(text);
    if (text.size() < 2 || text.front() != '[' || text.back() != ']') return std::nullopt;
    std::vector<std::string_view> out;
    std::size_t i = 1;
    const std::size_t end = text.size() - 1;
    auto skip = [&] {
        while (i < end && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t')) ++i;
    };
    skip();
    while (i < end) {
        const char quote = text[i];
        if (quote != '\'' && quote != '"') return std::nullopt;
        const std::size_t close = text.find(quote, i + 1);
        if (close == std::string_view::npos || close >= end) return std::nullopt;
        out.push_back(text.substr(i + 1, close - i - 1));
        i = close + 1;
        skip();
        if (i < end && text[i] != ',') return std::nullopt;
        if (i < end) ++i;
        skip();
    }
    return out;
}

/// Splits "GenericList[Tensor(float),Tensor(int)]"'s items at the commas outside brackets.
std::vector<std::string_view> genericListItems(std::string_view type) {
    std::vector<std::string_view> out;
    const std::string_view inner = type.substr(12, type.size() - 13);
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= inner.size(); ++i) {
        const char c = i < inner.size() ? inner[i] : ',';
        if (c == '(' || c == '[' || c == '<') ++depth;
        else if (c == ')' || c == ']' || c == '>') --depth;
        else if (c == ',' && depth == 0) {
            out.push_back(trimBlanks(inner.substr(start, i - start)));
            start = i + 1;
        }
    }
    return out;
}

/// What the sizes of one IOInfo (inputs or outputs) come to.
struct Sizes {
    double bytes = 0;
    bool known = true;            ///< recorded, and every tensor of it had a shape and a dtype we know
    DType dtype = DType::Unknown; ///< of its first tensor
};

class SizeReader {
public:
    explicit SizeReader(const std::function<void(const std::string&)>& tooBig) : m_tooBig(tooBig) {}

    Sizes read(std::string_view shapes, std::string_view types) {
        Sizes out;
        const auto shape = LiteralParser(shapes).parseAll();
        const auto type = stringList(types);
        if (!shape || !shape->isList || !type || type->size() != shape->items.size()) {
            out.known = false;
            return out;
        }
        for (std::size_t i = 0; i < type->size(); ++i) add(out, (*type)[i], shape->items[i]);
        return out;
    }

private:
    void add(Sizes& out, std::string_view type, const Literal& shape) {
        if (type.substr(0, 12) == "GenericList[" && type.back() == ']') {
            const auto items = genericListItems(type);
            if (!shape.isList || items.empty()) return;   // a list of non-tensors, e.g. GenericList[Int]
            for (std::size_t j = 0; j < shape.items.size(); ++j) add(out, items[std::min(j, items.size() - 1)], shape.items[j]);
            return;
        }
        if (type.substr(0, 6) != "Tensor") return;   // Int, Double, Bool, Device, None, String: no bytes
        const TorchType* t = torchType(type);
        if (!t || !shape.isList) {
            out.known = false;
            return;
        }
        double elements = 1;
        for (const Literal& d : shape.items) {
            if (d.isList || d.value < 0) {
                out.known = false;
                return;
            }
            elements *= d.value;
            if (elements > limits().tensorBytes) m_tooBig(std::string(type) + " of " + formatNumber(elements) + "+ elements");
        }
        const double bytes = elements * t->width;
        if (bytes > limits().tensorBytes) m_tooBig(std::string(type) + " of " + formatNumber(bytes) + " bytes");
        out.bytes += bytes;
        if (out.dtype == DType::Unknown) out.dtype = t->dtype;
    }

    const std::function<void(const std::string&)>& m_tooBig;
};

// ---------------------------------------------------------------- the reader's node

/// One attribute's value, whatever its protobuf type.
struct AttrValue {
    enum class Kind { None, Number, Bool, String, List } kind = Kind::None;
    double number = 0;
    bool flag = false;
    std::string text;
    std::size_t listSize = 0;
};

struct IoText {
    std::string shapes, types;
};

struct Node {
    std::uint64_t id = 0;
    std::string name;
    std::int64_t type = kInvalid;
    std::vector<std::uint64_t> ctrlDeps, dataDeps;
    double duration = 0;
    IoText inputs, outputs;   // cleared once sized
    Sizes inputSizes, outputSizes;
    std::optional<bool> isCpuOp;
    std::optional<std::int64_t> commType;   // CollectiveCommType
    std::optional<double> commSize;
    int groupSize = 0;
    // where it is, for messages: the byte of its record (protobuf), the line of its object (a
    // JSON stream) or its index in a JSON array
    enum class Place : std::uint8_t { Byte, Line, Index } place = Place::Byte;
    std::size_t at = 0;
};

std::string label(const Node& n) {
    return "node " + std::to_string(n.id) + (n.name.empty() ? "" : " ('" + n.name + "')");
}

/// The attributes the mapping uses; the others (rf_id, op_schema, stream, ...) are ignored.
void applyAttr(Node& n, std::string_view name, const AttrValue& v) {
    using K = AttrValue::Kind;
    if (name == "is_cpu_op") {
        if (v.kind == K::Bool) n.isCpuOp = v.flag;
        else if (v.kind == K::Number) n.isCpuOp = v.number != 0;
    } else if (name == "comm_type") {
        if (v.kind == K::Number) n.commType = static_cast<std::int64_t>(v.number);
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

class Reader {
public:
    explicit Reader(const std::string& source) : m_source(source) {}

    [[noreturn]] void nodeFail(const Node& n, const std::string& message) const {
        switch (n.place) {
        case Node::Place::Line: failAt(m_source, static_cast<std::int64_t>(n.at), label(n) + ": " + message);
        case Node::Place::Index: fail(m_source, label(n) + " (nodes[" + std::to_string(n.at) + "]): " + message);
        case Node::Place::Byte: break;
        }
        fail(m_source, label(n) + " (record at byte " + std::to_string(n.at) + "): " + message);
    }

    /// Checks a node's numbers and turns its IOInfo text into sizes.
    void finish(Node& n) {
        if (!std::isfinite(n.duration) || n.duration < 0)
            nodeFail(n, "duration_micros " + formatNumber(n.duration) + " is not a non-negative number of microseconds");
        if (n.duration > limits().duration)
            nodeFail(n, "duration_micros " + formatNumber(n.duration) + limitNote("duration", limits().duration));
        const std::function<void(const std::string&)> tooBig = [&](const std::string& what) {
            nodeFail(n, "a tensor " + what + " is beyond the limit for one tensor" + limitNote("tensor-bytes", limits().tensorBytes));
        };
        SizeReader sizes(tooBig);
        n.inputSizes = sizes.read(n.inputs.shapes, n.inputs.types);
        n.outputSizes = sizes.read(n.outputs.shapes, n.outputs.types);
        n.inputs = {};
        n.outputs = {};
        if (static_cast<std::int64_t>(m_nodes.size()) >= limits().ops)
            nodeFail(n, "more than " + std::to_string(limits().ops) + " nodes" + limitNote("ops", static_cast<double>(limits().ops)));
        m_nodes.push_back(std::move(n));
    }

    void readProtobuf(std::string_view data);
    void readJson(std::string_view text);
    LoadedGraph build();

private:
    // protobuf
    void protobufRecord(std::string_view record, std::size_t base, std::size_t index);
    // JSON
    void jsonNodes(const json& nodes, std::string_view text, std::size_t offset);
    void jsonNode(const json& obj, Node::Place place, std::size_t at);
    // the graph
    std::vector<std::string> uniqueNames() const;
    void addOps(Graph& g, const std::vector<std::string>& names);
    void addWork(Op& op, const Node& n);
    void addDependencies(Graph& g, const std::vector<std::string>& names);
    std::vector<std::string> summary(const Graph& g) const;
    Platform rankPlatform(const Graph& g) const;

    const std::string& m_source;
    std::vector<Node> m_nodes;
    std::vector<std::string> m_warnings;
    int m_cpuOps = 0;
    int m_renamed = 0;
    int m_sizelessProducers = 0;
    int m_unmodelledCollectives = 0;
    int m_sizelessCollectives = 0;
};

// ---------------------------------------------------------------- protobuf wire format

/// A field of a protobuf message: its number, wire type and value (varint and fixed values in
/// `value`, length-delimited ones in `bytes`).
struct Field {
    std::uint32_t number = 0;
    int wireType = 0;
    std::uint64_t value = 0;
    std::string_view bytes;
    std::size_t offset = 0;   ///< of the field's key in the file
};

/// Walks the fields of one message. `base` is the file offset of `data[0]`; `where` names the
/// record in messages ("record 3").
class Wire {
public:
    Wire(std::string_view data, std::size_t base, const std::string& source, const std::string& where)
        : m_data(data), m_base(base), m_source(source), m_where(where) {}

    bool more() const { return m_pos < m_data.size(); }
    std::size_t position() const { return m_pos; }

    [[noreturn]] void failHere(std::size_t offset, const std::string& message) const {
        fail(m_source, "byte " + std::to_string(m_base + offset) + " (" + m_where + "): " + message);
    }

    std::uint64_t varint() {
        const std::size_t start = m_pos;
        std::uint64_t v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (m_pos >= m_data.size()) failHere(start, "truncated varint (the data ends inside a number; truncated file?)");
            const auto b = static_cast<unsigned char>(m_data[m_pos++]);
            if (shift == 63 && b > 1) failHere(start, "malformed varint (more than 64 bits)");
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        failHere(start, "malformed varint (more than 10 bytes)");
    }

    Field next() {
        Field f;
        f.offset = m_base + m_pos;
        const std::size_t start = m_pos;
        const std::uint64_t key = varint();
        f.number = static_cast<std::uint32_t>(std::min<std::uint64_t>(key >> 3, UINT32_MAX));
        f.wireType = static_cast<int>(key & 7);
        if (f.number == 0) failHere(start, "field number 0 (not protobuf data)");
        switch (f.wireType) {
        case 0: f.value = varint(); break;
        case 1: f.value = fixed(8, start); break;
        case 5: f.value = fixed(4, start); break;
        case 2: {
            const std::uint64_t length = varint();
            if (length > m_data.size() - m_pos)
                failHere(start, "field " + std::to_string(f.number) + " claims " + std::to_string(length) + " bytes but only " +
                                    std::to_string(m_data.size() - m_pos) + " remain in its message (truncated or corrupt file?)");
            f.bytes = m_data.substr(m_pos, static_cast<std::size_t>(length));
            m_pos += static_cast<std::size_t>(length);
            break;
        }
        default: failHere(start, "field " + std::to_string(f.number) + " has wire type " + std::to_string(f.wireType) + ", which proto3 does not write (not a Chakra trace?)");
        }
        return f;
    }

    /// Requires `f` to have wire type `type`; `name` is the schema's field name.
    void expect(const Field& f, int type, const char* name) const {
        if (f.wireType != type)
            failHere(f.offset - m_base, std::string("field ") + std::to_string(f.number) + " (" + name + ") has wire type " +
                                            std::to_string(f.wireType) + ", expected " + std::to_string(type) + " (not a Chakra trace?)");
    }

    /// The nested message of a length-delimited field.
    Wire nested(const Field& f) const {
        return Wire(f.bytes, m_base + static_cast<std::size_t>(f.bytes.data() - m_data.data()), m_source, m_where);
    }

private:
    std::uint64_t fixed(int width, std::size_t start) {
        if (m_data.size() - m_pos < static_cast<std::size_t>(width)) failHere(start, "truncated fixed-width value (truncated file?)");
        std::uint64_t v = 0;
        for (int i = width - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(m_data[m_pos + static_cast<std::size_t>(i)]);
        m_pos += static_cast<std::size_t>(width);
        return v;
    }

    std::string_view m_data;
    std::size_t m_base;
    std::size_t m_pos = 0;
    const std::string& m_source;
    const std::string& m_where;
};

/// The scalar kinds of AttributeProto's oneof, by field number (their lists are number + 1).
enum class Scalar { None, Double, Float, Int32, Int64, Unsigned, Zigzag, Fixed32, Fixed64, SFixed32, SFixed64, Bool };

Scalar scalarOfField(std::uint32_t number) {
    switch (number) {
    case 3: return Scalar::Double;
    case 5: return Scalar::Float;
    case 7: return Scalar::Int32;
    case 9: return Scalar::Int64;
    case 11:
    case 13: return Scalar::Unsigned;
    case 15:
    case 17: return Scalar::Zigzag;
    case 19: return Scalar::Fixed32;
    case 21: return Scalar::Fixed64;
    case 23: return Scalar::SFixed32;
    case 25: return Scalar::SFixed64;
    case 27: return Scalar::Bool;
    default: return Scalar::None;
    }
}

int wireTypeOf(Scalar s) {
    switch (s) {
    case Scalar::Double:
    case Scalar::Fixed64:
    case Scalar::SFixed64: return 1;
    case Scalar::Float:
    case Scalar::Fixed32:
    case Scalar::SFixed32: return 5;
    default: return 0;
    }
}

double scalarValue(Scalar s, std::uint64_t raw) {
    switch (s) {
    case Scalar::Double: return std::bit_cast<double>(raw);
    case Scalar::Float: return static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(raw)));
    case Scalar::Int32: return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(raw)));
    case Scalar::Int64:
    case Scalar::SFixed64: return static_cast<double>(static_cast<std::int64_t>(raw));
    case Scalar::SFixed32: return static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(raw)));
    case Scalar::Zigzag: return static_cast<double>(static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1) + 1)));
    case Scalar::Bool: return raw != 0;
    default: return static_cast<double>(raw);
    }
}

/// How many values a repeated scalar holds, packed (one length-delimited field) or not (one field each).
std::size_t countListValues(Wire& list, Scalar s) {
    std::size_t count = 0;
    while (list.more()) {
        const Field f = list.next();
        if (f.number != 1) continue;
        if (f.wireType == 2 && wireTypeOf(s) == 0) {
            Wire packed = list.nested(f);
            for (; packed.more(); ++count) packed.varint();
        } else if (f.wireType == 2) {   // packed fixed-width elements: the length over the width
            const std::size_t width = wireTypeOf(s) == 1 ? 8 : 4;
            if (f.bytes.size() % width != 0) list.nested(f).failHere(0, "a packed list whose length is not a multiple of its element size");
            count += f.bytes.size() / width;
        } else {
            list.expect(f, wireTypeOf(s), "values");
            ++count;
        }
    }
    return count;
}

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

void Reader::protobufRecord(std::string_view record, std::size_t base, std::size_t index) {
    const std::string where = "record " + std::to_string(index);
    Wire w(record, base, m_source, where);
    Node n;
    n.at = base;
    while (w.more()) {
        const Field f = w.next();
        switch (f.number) {
        case 1: w.expect(f, 0, "id"); n.id = f.value; break;
        case 2: w.expect(f, 2, "name"); n.name = std::string(f.bytes); break;
        case 3: w.expect(f, 0, "type"); n.type = static_cast<std::int64_t>(f.value); break;
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
            fail(m_source, "byte " + std::to_string(start) + ": record " + std::to_string(index) + " needs " + std::to_string(length) +
                               " bytes but the file has " + std::to_string(data.size() - pos) + " left (truncated file?)");
        if (length == 0) {   // Chakra's own readers stop at an empty record
            if (pos < data.size())
                m_warnings.push_back("stopped at the empty record at byte " + std::to_string(start) + ", as Chakra's readers do; " +
                                     std::to_string(data.size() - pos) + " bytes after it were not read");
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
    if (index == 0) fail(m_source, "empty file: a Chakra trace holds a GlobalMetadata record, then one record per node");
}

// ---------------------------------------------------------------- JSON

/// A member by its protobuf field name or its JSON (lowerCamelCase) name.
const json* member(const json& obj, const char* snake, const char* camel) {
    if (auto it = obj.find(snake); it != obj.end() && !it->is_null()) return &*it;
    if (auto it = obj.find(camel); it != obj.end() && !it->is_null()) return &*it;
    return nullptr;
}

/// A number, or a string holding one (protobuf's JSON writes 64-bit integers as strings).
std::optional<double> jsonNumber(const json& v) {
    if (v.is_boolean()) return v.get<bool>() ? 1.0 : 0.0;
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) return parseNumber(v.get_ref<const std::string&>());
    return std::nullopt;
}

std::optional<std::uint64_t> jsonId(const json& v) {
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer()) return v.get<std::int64_t>() < 0 ? std::nullopt : std::optional<std::uint64_t>(v.get<std::uint64_t>());
    if (v.is_number_float()) {
        const double d = v.get<double>();
        if (d >= 0 && d < 18446744073709551616.0 && d == std::floor(d)) return static_cast<std::uint64_t>(d);
        return std::nullopt;
    }
    if (!v.is_string()) return std::nullopt;
    const std::string& s = v.get_ref<const std::string&>();
    std::uint64_t out = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return out;
}

/// {"name": ..., "int64Val": "3"} (protobuf JSON), {"name": ..., "int64_val": 3} or {"name": ..., "value": 3}.
std::pair<std::string, AttrValue> jsonAttribute(const json& a) {
    std::string name;
    AttrValue v;
    if (!a.is_object()) return {name, v};
    for (const auto& [key, value] : a.items()) {
        if (key == "name") {
            if (value.is_string()) name = value.get<std::string>();
            continue;
        }
        const bool scalar = key == "value" || key.ends_with("Val") || key.ends_with("_val");
        const bool list = key.ends_with("List") || key.ends_with("_list");
        if (value.is_string() && (key == "value" || key.starts_with("string") || key.starts_with("bytes"))) {
            v.kind = AttrValue::Kind::String;
            v.text = value.get<std::string>();
        } else if (scalar && value.is_boolean()) {
            v.kind = AttrValue::Kind::Bool;
            v.flag = value.get<bool>();
        } else if (scalar && jsonNumber(value)) {
            v.kind = AttrValue::Kind::Number;
            v.number = *jsonNumber(value);
        } else if ((list || key == "value") && (value.is_array() || value.is_object())) {
            const json* values = value.is_object() ? member(value, "values", "values") : &value;
            v.kind = AttrValue::Kind::List;
            v.listSize = values && values->is_array() ? values->size() : 0;
        }
    }
    return {name, v};
}

/// IOInfo's shapes and types: strings (as the protobuf holds them) or JSON arrays.
IoText jsonIoInfo(const json* io) {
    IoText out;
    if (!io || !io->is_object()) return out;
    auto text = [](const json* v) {
        if (!v) return std::string();
        return v->is_string() ? v->get<std::string>() : v->dump();
    };
    out.shapes = text(member(*io, "shapes", "shapes"));
    out.types = text(member(*io, "types", "types"));
    return out;
}

void Reader::jsonNode(const json& obj, Node::Place place, std::size_t at) {
    Node n;
    n.place = place;
    n.at = at;
    auto bad = [&](const char* field, const json& v, const char* expected) {
        nodeFail(n, std::string("\"") + field + "\" must be " + expected + ", got " + jsonKind(v));
    };
    if (!obj.is_object()) nodeFail(n, "a node must be a JSON object, got " + jsonKind(obj));
    if (const json* v = member(obj, "id", "id")) {
        const auto id = jsonId(*v);
        if (!id) bad("id", *v, "a whole number 0 or more");
        n.id = *id;
    }
    if (const json* v = member(obj, "name", "name")) {
        if (!v->is_string()) bad("name", *v, "a string");
        n.name = v->get<std::string>();
    }
    if (const json* v = member(obj, "type", "type")) {
        if (v->is_string()) {
            const auto it = std::find(kNodeTypeNames.begin(), kNodeTypeNames.end(), v->get_ref<const std::string&>());
            if (it == kNodeTypeNames.end()) nodeFail(n, "unknown node type \"" + v->get<std::string>() + "\"");
            n.type = it - kNodeTypeNames.begin();
        } else if (v->is_number_integer()) {
            n.type = v->get<std::int64_t>();
        } else {
            bad("type", *v, "a NodeType name or number");
        }
    }
    for (auto [snake, camel, list] : {std::tuple{"ctrl_deps", "ctrlDeps", &n.ctrlDeps}, std::tuple{"data_deps", "dataDeps", &n.dataDeps}}) {
        const json* v = member(obj, snake, camel);
        if (!v) continue;
        if (v->is_number() && !obj.contains("type"))   // the PyTorch trace's parent id
            nodeFail(n, "a PyTorch execution trace (ctrl_deps is a parent id and nodes have no type), not a Chakra trace: "
                        "convert it with chakra_trace_link and chakra_converter first");
        if (!v->is_array()) bad(snake, *v, "an array of node ids");
        for (const json& d : *v) {
            const auto id = jsonId(d);
            if (!id) bad(snake, d, "node ids (whole numbers 0 or more)");
            list->push_back(*id);
        }
    }
    if (const json* v = member(obj, "duration_micros", "durationMicros")) {
        const auto d = jsonNumber(*v);
        if (!d || v->is_boolean()) bad("duration_micros", *v, "a number of microseconds");
        n.duration = *d;
    }
    n.inputs = jsonIoInfo(member(obj, "inputs", "inputs"));
    n.outputs = jsonIoInfo(member(obj, "outputs", "outputs"));
    for (const char* key : {"attr", "attrs"})
        if (const json* v = member(obj, key, key)) {
            if (!v->is_array()) bad(key, *v, "an array of attributes");
            for (const json& a : *v) {
                const auto [name, value] = jsonAttribute(a);
                applyAttr(n, name, value);
            }
        }
    finish(n);
}

/// Offsets of the top-level JSON values of `text`, one after another ("}{" or separated by
/// blanks, as chakra_jsonizer writes them). Strings are skipped, so braces in names do not count.
std::vector<std::pair<std::size_t, std::size_t>> topLevelValues(std::string_view text, const std::string& source) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    while (true) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t' || text[i] == ',')) ++i;
        if (i >= text.size()) return out;
        if (text[i] != '{' && text[i] != '[')
            failAt(source, lineOfOffset(text, i), std::string("expected a JSON object, found '") + text[i] + "'");
        const std::size_t start = i;
        int depth = 0;
        bool quoted = false;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            if (quoted) {
                if (c == '\\') ++i;
                else if (c == '"') quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                break;
            }
        }
        if (i >= text.size()) failAt(source, lineOfOffset(text, start), "a JSON value that is not closed (the file ends too early; truncated?)");
        out.emplace_back(start, ++i - start);
    }
}

/// One JSON value of the file; a syntax error names the file's line.
json parseAt(std::string_view text, std::size_t offset, std::size_t length, const std::string& source) {
    try {
        return json::parse(text.substr(offset, length));
    } catch (const json::parse_error& e) {
        std::string what = e.what();
        if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        failAt(source, lineOfOffset(text, offset + (e.byte > 0 ? static_cast<std::size_t>(e.byte - 1) : 0)), "invalid JSON: " + what);
    } catch (const json::out_of_range& e) {
        failAt(source, lineOfOffset(text, offset), "invalid JSON: " + jsonOutOfRangeReason(e));
    }
}

/// GlobalMetadata holds only version and attr.
bool isJsonMetadata(const json& obj) {
    if (!obj.is_object()) return false;
    return std::all_of(obj.items().begin(), obj.items().end(), [](const auto& kv) { return kv.key() == "version" || kv.key() == "attr"; });
}

void Reader::jsonNodes(const json& nodes, std::string_view text, std::size_t offset) {
    if (static_cast<std::int64_t>(nodes.size()) > limits().ops)
        failAt(m_source, lineOfOffset(text, offset), std::to_string(nodes.size()) + " nodes" + limitNote("ops", static_cast<double>(limits().ops)));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (i == 0 && isJsonMetadata(nodes[i])) continue;
        jsonNode(nodes[i], Node::Place::Index, i);
    }
}

void Reader::readJson(std::string_view text) {
    const auto values = topLevelValues(text, m_source);
    if (values.empty()) fail(m_source, "empty file");
    for (std::size_t v = 0; v < values.size(); ++v) {
        const auto [offset, length] = values[v];
        const json doc = parseAt(text, offset, length, m_source);
        const std::int64_t line = lineOfOffset(text, offset);
        if (doc.is_array()) {   // [metadata, node, node, ...]
            jsonNodes(doc, text, offset);
        } else if (const json* nodes = values.size() == 1 && doc.is_object() ? member(doc, "nodes", "nodes") : nullptr) {
            if (!nodes->is_array()) failAt(m_source, line, "\"nodes\" must be an array, got " + jsonKind(*nodes));
            jsonNodes(*nodes, text, offset);
        } else if (!(v == 0 && isJsonMetadata(doc))) {
            jsonNode(doc, Node::Place::Line, static_cast<std::size_t>(line));
        }
    }
}

// ---------------------------------------------------------------- the graph

/// "aten::linear" -> "linear", "void at::native::foo_kernel<4>(...)" -> "foo_kernel",
/// "Memcpy DtoH (...)" -> "Memcpy": the operator or kernel a node name starts with, without its
/// namespace; empty when the name starts with something else ("## forward ##").
std::string operatorOf(std::string_view name) {
    if (name.substr(0, 5) == "void ") name.remove_prefix(5);
    std::size_t end = 0;
    while (end < name.size() && (std::isalnum(static_cast<unsigned char>(name[end])) || name[end] == '_' || name[end] == ':' || name[end] == '.')) ++end;
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
        Op op{.name = names[i], .duration = n.duration, .machineType = n.isCpuOp.value_or(false) ? 1 : 0};   // CPU and GPU lanes
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
void Reader::addDependencies(Graph& g, const std::vector<std::string>& names) {
    std::unordered_map<std::uint64_t, OpId> opOf;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        if (const auto [it, fresh] = opOf.emplace(m_nodes[i].id, static_cast<OpId>(i)); !fresh)
            nodeFail(m_nodes[i], "a second node with this id (the first is '" + m_nodes[static_cast<std::size_t>(it->second)].name + "')");
    auto resolve = [&](const Node& n, std::uint64_t dep, const char* field) {
        const auto it = opOf.find(dep);
        if (it == opOf.end()) nodeFail(n, std::string(field) + " names node " + std::to_string(dep) + ", which is not in the trace");
        if (m_nodes[static_cast<std::size_t>(it->second)].id == n.id) nodeFail(n, std::string(field) + " names the node itself");
        return it->second;
    };
    std::vector<std::vector<OpId>> readers(m_nodes.size());
    std::vector<std::unordered_set<OpId>> preds(m_nodes.size());
    std::int64_t edges = 0;
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& n = m_nodes[i];
        edges += static_cast<std::int64_t>(n.dataDeps.size() + n.ctrlDeps.size());
        if (edges > limits().edges)
            nodeFail(n, "more than " + std::to_string(limits().edges) + " dependencies" + limitNote("edges", static_cast<double>(limits().edges)));
        for (std::uint64_t d : n.dataDeps)
            if (const OpId p = resolve(n, d, "data_deps"); preds[i].insert(p).second) readers[static_cast<std::size_t>(p)].push_back(static_cast<OpId>(i));
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
            if (const OpId p = resolve(m_nodes[i], d, "ctrl_deps"); preds[i].insert(p).second) g.addEdge(p, static_cast<OpId>(i), 0);
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
        out.push_back(std::to_string(m_cpuOps) + " CPU ops (is_cpu_op) are on machine type 1, the GPU ops on 0: the file's machine is the rank's GPU and CPU");
    else if (m_cpuOps > 0)
        out.push_back("every op is a CPU op (is_cpu_op), on machine type 1: the file's machine is the rank's CPU");
    if (m_renamed > 0) out.push_back(std::to_string(m_renamed) + " ops were renamed '<name>#<id>' (shared or empty node names)");
    if (m_sizelessProducers > 0)
        out.push_back(std::to_string(m_sizelessProducers) + " nodes have data dependents but no output shapes and types the reader knows; their edges carry 0 bytes");
    if (m_unmodelledCollectives > 0)
        out.push_back(std::to_string(m_unmodelledCollectives) + " collectives are of a kind without a network model (reduce, gather, scatter, barrier or unnamed); they keep their measured time only");
    if (m_sizelessCollectives > 0)
        out.push_back(std::to_string(m_sizelessCollectives) + " communication nodes have no comm_size nor input sizes; 0 bytes used");
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

// ---------------------------------------------------------------- gzip

/// The content of a gzip file (all its members), at most limits().textBytes.
std::string gunzip(std::string_view bytes, const std::string& source) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) fail(source, "cannot start zlib");
    struct End {
        z_stream* z;
        ~End() { inflateEnd(z); }
    } end{&z};
    const auto cap = static_cast<std::size_t>(limits().textBytes);
    std::string out;
    std::size_t consumed = 0;
    char buffer[1 << 16];
    while (true) {
        if (z.avail_in == 0 && consumed < bytes.size()) {
            const std::size_t chunk = std::min<std::size_t>(bytes.size() - consumed, UINT_MAX);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
            z.avail_in = static_cast<uInt>(chunk);
            consumed += chunk;
        }
        z.next_out = reinterpret_cast<Bytef*>(buffer);
        z.avail_out = sizeof buffer;
        const int rc = inflate(&z, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - z.avail_out);
        if (out.size() > cap) fail(source, "decompresses to more than " + std::to_string(cap) + " bytes" + limitNote("text-bytes", static_cast<double>(cap)));
        if (rc == Z_STREAM_END) {
            if (z.avail_in == 0 && consumed == bytes.size()) return out;
            if (inflateReset(&z) != Z_OK) fail(source, "cannot restart zlib");   // another gzip member follows
            continue;
        }
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && consumed == bytes.size())
            fail(source, "the gzip data ends early (truncated file?)");
        if (rc != Z_OK && rc != Z_BUF_ERROR) fail(source, std::string("not valid gzip data: ") + (z.msg ? z.msg : "zlib error " + std::to_string(rc)));
    }
}

/// JSON text starts with '{' or '[' and has no control bytes but blanks. A protobuf trace whose
/// first record is 123 or 91 bytes long also starts with '{' or '[', but its keys and lengths
/// (0x08, 0x12, a string's length, ...) are control bytes within the first few dozen.
bool isJsonText(std::string_view bytes) {
    std::size_t first = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
    while (first < bytes.size() && (bytes[first] == ' ' || bytes[first] == '\n' || bytes[first] == '\r' || bytes[first] == '\t')) ++first;
    if (first >= bytes.size() || (bytes[first] != '{' && bytes[first] != '[')) return false;
    const std::string_view head = bytes.substr(first, 256);
    return std::none_of(head.begin(), head.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return (b < 0x20 && b != '\n' && b != '\r' && b != '\t') || b == 0x7f;
    });
}

} // namespace
} // namespace chakra

bool looksLikeChakraJson(std::string_view head) {
    for (const char* key : {"\"durationMicros\"", "\"duration_micros\"", "\"dataDeps\"", "\"data_deps\"", "\"ctrlDeps\"",
                            "\"COMP_NODE\"", "\"COMM_COLL_NODE\"", "\"COMM_SEND_NODE\"", "\"COMM_RECV_NODE\"", "\"METADATA_NODE\""})
        if (head.find(key) != std::string_view::npos) return true;
    return false;
}

LoadedGraph readChakra(std::string_view bytes, const std::string& source) {
    std::string inflated;
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b) {
        inflated = chakra::gunzip(bytes, source);
        bytes = inflated;
    }
    chakra::Reader reader(source);
    if (chakra::isJsonText(bytes)) reader.readJson(bytes);
    else reader.readProtobuf(bytes);
    return reader.build();
}

} // namespace sl::io_detail

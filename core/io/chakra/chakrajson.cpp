// SPDX-License-Identifier: MIT
// The JSON forms of Chakra execution traces (the protobuf one is read in chakraformat.cpp):
// chakra_jsonizer's concatenated objects (protobuf JSON names, 64-bit integers as strings), or one
// object whose "nodes" array holds the nodes. Members are taken by their protobuf or JSON names.
#include "core/io/chakra/chakrareader.h"
#include "core/io/ioutil.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <tuple>
#include <utility>

namespace sl::io_detail::chakra {
namespace {

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
    if (v.is_number_integer())
        return v.get<std::int64_t>() < 0 ? std::nullopt : std::optional<std::uint64_t>(v.get<std::uint64_t>());
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

/// Members a node of et_def.proto may have, by protobuf and JSON name.
bool hasNodeMember(const json& obj) {
    static const char* const keys[] = {"id",
                                       "name",
                                       "type",
                                       "ctrl_deps",
                                       "ctrlDeps",
                                       "data_deps",
                                       "dataDeps",
                                       "start_time_micros",
                                       "startTimeMicros",
                                       "duration_micros",
                                       "durationMicros",
                                       "inputs",
                                       "outputs",
                                       "attr",
                                       "attrs"};
    return std::any_of(std::begin(keys), std::end(keys), [&](const char* k) { return obj.contains(k); });
}

/// What the reader expected, and the first keys of what it found (never a one-op graph of an
/// object it does not understand).
std::string notAChakraNode(const json& obj) {
    std::string found;
    int shown = 0;
    for (const auto& item : obj.items()) {
        if (shown == 6) {
            found += ", ...";
            break;
        }
        found += (shown++ ? ", \"" : "\"") + item.key() + "\"";
    }
    return "not a Chakra trace node: expected node objects with id, name, type, data_deps, ctrl_deps, duration_micros "
           "(chakra_jsonizer's records, or one object with a \"nodes\" array) or the feeder's {\"workload_graph\": [...]}; "
           "found an object with " +
        (found.empty() ? std::string("no members") : "members " + found);
}

}   // namespace

void Reader::jsonNode(const json& obj, Node::Place place, std::size_t at) {
    Node n;
    n.place = place;
    n.at = at;
    auto bad = [&](const char* field, const json& v, const char* expected) {
        nodeFail(n, std::string("\"") + field + "\" must be " + expected + ", got " + jsonKind(v));
    };
    if (!obj.is_object()) nodeFail(n, "a node must be a JSON object, got " + jsonKind(obj));
    if (!hasNodeMember(obj)) {
        if (place == Node::Place::Line) failAt(m_source, static_cast<std::int64_t>(at), notAChakraNode(obj));
        nodeFail(n, notAChakraNode(obj));
    }
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
    for (auto [snake, camel, list] :
         {std::tuple{"ctrl_deps", "ctrlDeps", &n.ctrlDeps}, std::tuple{"data_deps", "dataDeps", &n.dataDeps}}) {
        const json* v = member(obj, snake, camel);
        if (!v) continue;
        if (v->is_number() && !obj.contains("type"))   // the PyTorch trace's parent id
            nodeFail(n,
                     "a PyTorch execution trace (ctrl_deps is a parent id and nodes have no type), not a Chakra trace: "
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

namespace {

/// Offsets of the top-level JSON values of `text`, one after another ("}{" or separated by
/// blanks, as chakra_jsonizer writes them). Strings are skipped, so braces in names do not count.
std::vector<std::pair<std::size_t, std::size_t>> topLevelValues(std::string_view text, const std::string& source) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    std::size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
    while (true) {
        while (i < text.size() &&
               (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t' || text[i] == ','))
            ++i;
        if (i >= text.size()) return out;
        if (text[i] != '{' && text[i] != '[')
            failAt(source, lineOfOffset(text, i), std::string("expected a JSON object, found '") + text[i] + "'");
        const std::size_t start = i;
        int depth = 0;
        bool quoted = false;
        for (; i < text.size(); ++i) {
            const char c = text[i];
            if (quoted) {
                if (c == '\\')
                    ++i;
                else if (c == '"')
                    quoted = false;
            } else if (c == '"') {
                quoted = true;
            } else if (c == '{' || c == '[') {
                ++depth;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                break;
            }
        }
        if (i >= text.size())
            failAt(source, lineOfOffset(text, start),
                   "a JSON value that is not closed (the file ends too early; truncated?)");
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
        failAt(source, lineOfOffset(text, offset + (e.byte > 0 ? static_cast<std::size_t>(e.byte - 1) : 0)),
               "invalid JSON: " + what);
    } catch (const json::out_of_range& e) {
        failAt(source, lineOfOffset(text, offset), "invalid JSON: " + jsonOutOfRangeReason(e));
    }
}

/// GlobalMetadata holds only version and attr.
bool isJsonMetadata(const json& obj) {
    if (!obj.is_object()) return false;
    return std::all_of(obj.items().begin(), obj.items().end(),
                       [](const auto& kv) { return kv.key() == "version" || kv.key() == "attr"; });
}

}   // namespace

void Reader::jsonNodes(const json& nodes, std::string_view text, std::size_t offset) {
    if (static_cast<std::int64_t>(nodes.size()) > limits().ops)
        failAt(m_source, lineOfOffset(text, offset),
               std::to_string(nodes.size()) + " nodes" + limitNote("ops", static_cast<double>(limits().ops)));
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (i == 0 && isJsonMetadata(nodes[i])) continue;
        jsonNode(nodes[i], Node::Place::Index, i);
    }
}

/// A node of Chakra's feeder JSON (src/feeder/json_node.h): Id, Name, NodeType (a number),
/// runtime (microseconds), data_deps, is_cpu_op; communication nodes also comm_type (a
/// CollectiveCommType number) and comm_size. The feeder has no control dependencies.
void Reader::feederNode(const json& obj, std::size_t index) {
    Node n;
    n.place = Node::Place::Feeder;
    n.at = index;
    auto bad = [&](const char* field, const json& v, const char* expected) {
        nodeFail(n, std::string("\"") + field + "\" must be " + expected + ", got " + jsonKind(v));
    };
    if (!obj.is_object()) nodeFail(n, "a workload_graph node must be a JSON object, got " + jsonKind(obj));
    const auto it = obj.find("Id");
    if (it == obj.end()) nodeFail(n, "a workload_graph node has no \"Id\"");
    const auto id = jsonId(*it);
    if (!id) bad("Id", *it, "a whole number 0 or more");
    n.id = *id;
    if (const auto v = obj.find("Name"); v != obj.end()) {
        if (!v->is_string()) bad("Name", *v, "a string");
        n.name = v->get<std::string>();
    }
    if (const auto v = obj.find("NodeType"); v != obj.end()) {
        if (!v->is_number_integer())
            bad("NodeType", *v,
                "a NodeType number (4 COMP_NODE, 5 COMM_SEND_NODE, 6 COMM_RECV_NODE, 7 COMM_COLL_NODE)");
        n.type = v->get<std::int64_t>();
    }
    if (const auto v = obj.find("runtime"); v != obj.end()) {
        const auto d = jsonNumber(*v);
        if (!d || v->is_boolean()) bad("runtime", *v, "a number of microseconds");
        n.duration = *d;
    }
    if (const auto v = obj.find("data_deps"); v != obj.end()) {
        if (!v->is_array()) bad("data_deps", *v, "an array of node ids");
        for (const json& d : *v) {
            const auto dep = jsonId(d);
            if (!dep) bad("data_deps", d, "node ids (whole numbers 0 or more)");
            n.dataDeps.push_back(*dep);
        }
    }
    if (const auto v = obj.find("is_cpu_op"); v != obj.end()) {
        if (!v->is_boolean() && !v->is_number()) bad("is_cpu_op", *v, "true or false");
        n.isCpuOp = v->is_boolean() ? v->get<bool>() : v->get<double>() != 0;
    }
    if (const auto v = obj.find("comm_type"); v != obj.end())
        applyAttr(n, "comm_type", {.kind = AttrValue::Kind::Number, .number = jsonNumber(*v).value_or(-1)});
    if (const auto v = obj.find("comm_size"); v != obj.end())
        applyAttr(n, "comm_size", {.kind = AttrValue::Kind::Number, .number = jsonNumber(*v).value_or(-1)});
    finish(n);
}

void Reader::feederNodes(const json& nodes, std::string_view text, std::size_t offset) {
    if (!nodes.is_array())
        failAt(m_source, lineOfOffset(text, offset), "\"workload_graph\" must be an array, got " + jsonKind(nodes));
    if (static_cast<std::int64_t>(nodes.size()) > limits().ops)
        failAt(m_source, lineOfOffset(text, offset),
               std::to_string(nodes.size()) + " nodes" + limitNote("ops", static_cast<double>(limits().ops)));
    for (std::size_t i = 0; i < nodes.size(); ++i) feederNode(nodes[i], i);
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
        } else if (values.size() == 1 && doc.is_object() && doc.contains("workload_graph")) {   // Chakra's feeder JSON
            feederNodes(doc.at("workload_graph"), text, offset);
        } else if (const json* nodes =
                       values.size() == 1 && doc.is_object() ? member(doc, "nodes", "nodes") : nullptr) {
            if (!nodes->is_array()) failAt(m_source, line, "\"nodes\" must be an array, got " + jsonKind(*nodes));
            jsonNodes(*nodes, text, offset);
        } else if (!(v == 0 && isJsonMetadata(doc))) {
            jsonNode(doc, Node::Place::Line, static_cast<std::size_t>(line));
        }
    }
}

}   // namespace sl::io_detail::chakra

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Typed access to the fields of a JSON object, for the readers of core (graph, platform, device,
/// preset and profile files): every refusal is "<where>: \"key\" must be ...".

#include "core/graph/graph.h"
#include "core/io/ioutil.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sl::io_detail {

/// Typed field access with messages "<where>: \"key\" must be ...".
struct JsonFields {
    const nlohmann::json& obj;
    std::string where;

    const nlohmann::json* find(const char* key) const {
        auto it = obj.find(key);
        return it == obj.end() ? nullptr : &*it;
    }
    [[noreturn]] void bad(const char* key, const std::string& expected, const nlohmann::json& got) const {
        fail(where, std::string("\"") + key + "\" must be " + expected + ", got " + jsonKind(got));
    }
    const nlohmann::json& require(const char* key) const {
        const nlohmann::json* v = find(key);
        if (!v) fail(where, std::string("missing field \"") + key + "\"");
        return *v;
    }
    double number(const char* key, std::optional<double> fallback = std::nullopt) const {
        const nlohmann::json* v = fallback ? find(key) : &require(key);
        if (!v) return *fallback;
        if (!v->is_number()) bad(key, "a number", *v);
        const double x = v->get<double>();
        if (!std::isfinite(x)) fail(where, std::string("\"") + key + "\" is not a finite number");
        return x;
    }
    /// A number, or infinity when absent or null.
    double numberOrInfinity(const char* key) const {
        const nlohmann::json* v = find(key);
        if (!v || v->is_null()) return kInfinity;
        return number(key);
    }
    int integer(const char* key, std::optional<int> fallback = std::nullopt) const {
        const nlohmann::json* v = fallback ? find(key) : &require(key);
        if (!v) return *fallback;
        if (!v->is_number_integer()) bad(key, "a whole number", *v);
        if (v->is_number_unsigned() ? v->get<std::uint64_t>() > INT_MAX
                                    : (v->get<std::int64_t>() > INT_MAX || v->get<std::int64_t>() < INT_MIN))
            fail(where, std::string("\"") + key + "\" is out of range");
        return v->get<int>();
    }
    std::string string(const char* key, std::optional<std::string> fallback = std::nullopt) const {
        const nlohmann::json* v = fallback ? find(key) : &require(key);
        if (!v) return *fallback;
        if (!v->is_string()) bad(key, "a string", *v);
        return v->get<std::string>();
    }
    bool boolean(const char* key, bool fallback) const {
        const nlohmann::json* v = find(key);
        if (!v) return fallback;
        if (!v->is_boolean()) bad(key, "true or false", *v);
        return v->get<bool>();
    }
    const nlohmann::json& array(const char* key, bool required = true) const {
        static const nlohmann::json empty = nlohmann::json::array();
        const nlohmann::json* v = required ? &require(key) : find(key);
        if (!v) return empty;
        if (!v->is_array()) bad(key, "an array", *v);
        return *v;
    }
};

inline void checkHeader(const nlohmann::json& doc, const std::string& source, const char* format, int version) {
    const JsonFields f{doc, source};
    if (f.find("format")) {
        const std::string fmt = f.string("format");
        if (fmt != format) fail(source, "\"format\" is \"" + fmt + "\", expected \"" + format + "\"");
    }
    if (f.find("version")) {
        const int v = f.integer("version");
        if (v > version)
            fail(source, "version " + std::to_string(v) + " was written by a newer SchedLab; this one reads version " +
                             std::to_string(version));
        if (v < 1) fail(source, "unknown version " + std::to_string(v));
    }
}

/// A whole file's JSON object with its "format" and "version" checked (`what`: "a device file").
inline nlohmann::json parseJsonObject(std::string_view text, const std::string& source, const char* format, int version,
                                      const char* what) {
    nlohmann::json doc = parseJson(text, source);
    if (!doc.is_object()) fail(source, std::string(what) + " must be a JSON object, got " + jsonKind(doc));
    checkHeader(doc, source, format, version);
    return doc;
}

} // namespace sl::io_detail

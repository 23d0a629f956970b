// SPDX-License-Identifier: MIT
// Profile JSON ("format": "schedlab-profile", version 1; docs/formats.md "Profiles"), read and
// write. Numbers are written in nlohmann_json's shortest round-trip form, so write -> read gives
// back the same doubles. The reader refuses anything a profile cannot mean (a negative or absent
// median, no repetitions, an op named twice) naming the file and the field ("ops[3].median_us").
#include "core/graph/fingerprint.h"
#include "core/io/ioutil.h"
#include "core/profile/profile.h"
#include "core/util/atomicfile.h"
#include "core/util/errors.h"
#include "core/util/limits.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cmath>
#include <optional>
#include <unordered_map>

namespace sl {
namespace {

using ProfileJson = nlohmann::json;
using ProfileOrderedJson = nlohmann::ordered_json;
constexpr const char* kProfileFormat = "schedlab-profile";

/// Typed reads that name the file and the field path of every fault.
class ProfileReader {
public:
    explicit ProfileReader(std::string source) : m_source(std::move(source)) {}
    const std::string& source() const { return m_source; }
    [[noreturn]] void fail(const std::string& what) const { io_detail::fail(m_source, what); }

    static std::string path(const std::string& where, const char* key) { return where.empty() ? key : where + "." + key; }

    const ProfileJson* find(const ProfileJson& object, const char* key) const {
        auto it = object.find(key);
        return it == object.end() ? nullptr : &*it;
    }
    const ProfileJson& require(const ProfileJson& object, const std::string& where, const char* key) const {
        const ProfileJson* v = find(object, key);
        if (!v) fail(path(where, key) + " is missing");
        return *v;
    }
    std::string string(const ProfileJson& object, const std::string& where, const char* key,
                       std::optional<std::string> fallback = std::nullopt) const {
        const ProfileJson* v = fallback ? find(object, key) : &require(object, where, key);
        if (!v) return *fallback;
        if (!v->is_string()) fail(path(where, key) + " must be a string, got " + io_detail::jsonKind(*v));
        return v->get<std::string>();
    }
    /// A finite number >= 0, microseconds. JSON has no NaN or infinity; a value beyond a double
    /// is refused by the parser (readProfileJson names its field).
    double microseconds(const ProfileJson& object, const std::string& where, const char* key,
                        std::optional<double> fallback = std::nullopt) const {
        const ProfileJson* v = fallback ? find(object, key) : &require(object, where, key);
        if (!v) return *fallback;
        if (!v->is_number()) fail(path(where, key) + " must be a number of microseconds, got " + io_detail::jsonKind(*v));
        const double x = v->get<double>();
        if (!std::isfinite(x)) fail(path(where, key) + " is not a finite number");
        if (x < 0) fail(path(where, key) + " must not be negative, got " + io_detail::formatNumber(x));
        return x;
    }
    int integer(const ProfileJson& object, const std::string& where, const char* key) const {
        const ProfileJson& v = require(object, where, key);
        if (!v.is_number_integer()) fail(path(where, key) + " must be a whole number, got " + io_detail::jsonKind(v));
        if (v.is_number_unsigned() ? v.get<std::uint64_t>() > INT_MAX
                                   : (v.get<std::int64_t>() > INT_MAX || v.get<std::int64_t>() < INT_MIN))
            fail(path(where, key) + " is out of range");
        return v.get<int>();
    }
    const ProfileJson& array(const ProfileJson& object, const char* key, bool required) const {
        static const ProfileJson empty = ProfileJson::array();
        const ProfileJson* v = required ? &require(object, "", key) : find(object, key);
        if (!v) return empty;
        if (!v->is_array()) fail(std::string(key) + " must be an array, got " + io_detail::jsonKind(*v));
        if (static_cast<std::int64_t>(v->size()) > limits().ops)
            fail(std::string(key) + " holds " + std::to_string(v->size()) + " entries, more than a graph's ops" +
                 io_detail::limitNote("ops", static_cast<double>(limits().ops)));
        return *v;
    }

private:
    std::string m_source;
};

/// Parses like io_detail::parseJson, and on a syntax error also says which field it was in: the
/// parser's own message ("invalid literal", "number overflow") names no key, and a NaN or 1e999
/// median is a bad field, not only bad JSON.
ProfileJson readProfileJson(std::string_view text, const std::string& source) {
    std::string lastKey, lastName;
    auto noteField = [&](int, ProfileJson::parse_event_t event, ProfileJson& parsed) {
        if (event == ProfileJson::parse_event_t::key) lastKey = parsed.get<std::string>();
        else if (event == ProfileJson::parse_event_t::value && lastKey == "name" && parsed.is_string())
            lastName = parsed.get<std::string>();
        return true;
    };
    try {
        return ProfileJson::parse(text.begin(), text.end(), noteField);
    } catch (const ProfileJson::exception&) {
        std::string where = lastKey.empty() ? "" : " (in \"" + lastKey + "\"";
        if (!where.empty() && !lastName.empty() && lastKey != "name") where += " after op '" + lastName + "'";
        if (!where.empty()) where += ")";
        try {
            io_detail::parseJson(text, source);   // the standard message: line, "truncated?", reason
        } catch (const IoError& e) {
            throw IoError(e.what() + where);
        }
        throw;   // not reached: the same text fails the same way
    }
}

void readProfileHeader(const ProfileReader& r, const ProfileJson& doc, Profile& p) {
    const std::string format = r.string(doc, "", "format");
    if (format != kProfileFormat) r.fail("format is \"" + format + "\", expected \"" + kProfileFormat + "\"");
    const int version = r.integer(doc, "", "version");
    if (version > kProfileVersion)
        r.fail("version " + std::to_string(version) + " was written by a newer SchedLab; this one reads version " +
               std::to_string(kProfileVersion));
    if (version < 1) r.fail("unknown version " + std::to_string(version));
    p.version = version;
    p.model = r.string(doc, "", "model", "");
    p.fingerprint = r.string(doc, "", "fingerprint", "");
    p.device = r.string(doc, "", "device", "");
    p.created = r.string(doc, "", "created", "");
    p.tool = r.string(doc, "", "tool", "");
    if (!p.fingerprint.empty() && !parseModelFingerprint(p.fingerprint))
        r.fail("fingerprint \"" + p.fingerprint + "\" is not a model fingerprint (\"model-fnv1a64:\" and 16 hex digits)" +
               (parseFingerprint(p.fingerprint) ? "; it is a graph fingerprint, which changes with the durations" : ""));
}

/// "ops[3]" or "ops[3] ('conv1')" once the name is known.
std::string profileEntryPath(const char* list, std::size_t i) { return std::string(list) + "[" + std::to_string(i) + "]"; }

std::string profileEntryName(const ProfileReader& r, const ProfileJson& entry, const std::string& where) {
    if (!entry.is_object()) r.fail(where + " must be an object, got " + io_detail::jsonKind(entry));
    std::string name = r.string(entry, where, "name");
    if (name.empty()) r.fail(where + ".name is empty");
    return name;
}

OpMeasurement readMeasurement(const ProfileReader& r, const ProfileJson& entry, std::size_t i) {
    const std::string at = profileEntryPath("ops", i);
    OpMeasurement m;
    m.name = profileEntryName(r, entry, at);
    const std::string where = at + " ('" + m.name + "')";
    m.type = r.string(entry, where, "type", "");
    m.medianUs = r.microseconds(entry, where, "median_us");
    m.spreadUs = r.microseconds(entry, where, "spread_us", 0.0);
    m.repetitions = r.integer(entry, where, "repetitions");
    if (m.repetitions < 1) r.fail(where + ".repetitions must be at least 1, got " + std::to_string(m.repetitions));
    return m;
}

UnmeasuredOp readUnmeasured(const ProfileReader& r, const ProfileJson& entry, std::size_t i) {
    const std::string at = profileEntryPath("unmeasured", i);
    UnmeasuredOp u;
    u.name = profileEntryName(r, entry, at);
    const std::string where = at + " ('" + u.name + "')";
    u.type = r.string(entry, where, "type", "");
    u.reason = r.string(entry, where, "reason", "");
    return u;
}

/// An op may appear once in all: twice would give it two durations (or a duration and none).
class ProfileNameSet {
public:
    void add(const ProfileReader& r, const std::string& name, const std::string& where) {
        auto [it, fresh] = m_seen.emplace(name, where);
        if (!fresh) r.fail(where + " names op '" + name + "' again (first in " + it->second + ")");
    }

private:
    std::unordered_map<std::string, std::string> m_seen;
};

Profile profileFromJson(const ProfileJson& doc, const std::string& source) {
    const ProfileReader r(source);
    if (!doc.is_object()) r.fail("a profile must be a JSON object, got " + io_detail::jsonKind(doc));
    Profile p;
    readProfileHeader(r, doc, p);
    ProfileNameSet names;
    const ProfileJson& ops = r.array(doc, "ops", true);
    for (std::size_t i = 0; i < ops.size(); ++i) {
        p.ops.push_back(readMeasurement(r, ops[i], i));
        names.add(r, p.ops.back().name, profileEntryPath("ops", i));
    }
    const ProfileJson& unmeasured = r.array(doc, "unmeasured", false);
    for (std::size_t i = 0; i < unmeasured.size(); ++i) {
        p.unmeasured.push_back(readUnmeasured(r, unmeasured[i], i));
        names.add(r, p.unmeasured.back().name, profileEntryPath("unmeasured", i));
    }
    return p;
}

ProfileOrderedJson measurementJson(const OpMeasurement& m) {
    ProfileOrderedJson j;
    j["name"] = m.name;
    j["type"] = m.type;
    j["median_us"] = m.medianUs;
    j["spread_us"] = m.spreadUs;
    j["repetitions"] = m.repetitions;
    return j;
}

ProfileOrderedJson unmeasuredJson(const UnmeasuredOp& u) {
    ProfileOrderedJson j;
    j["name"] = u.name;
    j["type"] = u.type;
    j["reason"] = u.reason;
    return j;
}

} // namespace

Profile parseProfile(std::string_view json, const std::string& sourceName) {
    return profileFromJson(readProfileJson(json, sourceName), sourceName);
}

Profile loadProfile(const std::string& path) {
    return parseProfile(readFile(path, static_cast<std::size_t>(limits().textBytes)), path);
}

std::string profileToJson(const Profile& p) {
    ProfileOrderedJson ops = ProfileOrderedJson::array();
    for (const OpMeasurement& m : p.ops) ops.push_back(measurementJson(m));
    ProfileOrderedJson unmeasured = ProfileOrderedJson::array();
    for (const UnmeasuredOp& u : p.unmeasured) unmeasured.push_back(unmeasuredJson(u));
    ProfileOrderedJson doc;
    doc["format"] = kProfileFormat;
    doc["version"] = kProfileVersion;   // what this writer writes, whatever version was read
    doc["model"] = p.model;
    doc["fingerprint"] = p.fingerprint;
    doc["device"] = p.device;
    doc["created"] = p.created;
    doc["tool"] = p.tool;
    doc["ops"] = std::move(ops);
    doc["unmeasured"] = std::move(unmeasured);
    try {
        return doc.dump(1) + "\n";
    } catch (const ProfileOrderedJson::type_error& e) {   // 316: a string that is not UTF-8
        throw IoError(std::string("profile: a name or text field is not valid UTF-8 (") + e.what() + ")");
    }
}

void saveProfile(const Profile& p, const std::string& path) {
    std::string text;
    try {
        text = profileToJson(p);
    } catch (const IoError& e) {
        io_detail::fail(path, e.what());
    }
    parseProfile(text, path);   // never write a file this reader refuses (NaN is written as null)
    writeFileAtomically(path, text);
}

} // namespace sl

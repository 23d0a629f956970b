// SPDX-License-Identifier: MIT
#include "core/io/ioutil.h"

#include <iomanip>
#include <sstream>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace sl::io_detail {

std::string limitNote(const char* key, double value) {
    std::ostringstream text;
    text << " (the '" << key << "' limit, " << std::setprecision(15) << value << "; raise it with --limit " << key << "=N or SCHEDLAB_LIMITS)";
    return text.str();
}

void fail(const std::string& source, const std::string& message) { throw IoError(source + ": " + message); }

void failAt(const std::string& source, std::int64_t line, const std::string& message) {
    throw IoError(source + ":" + std::to_string(line) + ": " + message);
}

std::int64_t lineOfOffset(std::string_view text, std::size_t offset) {
    offset = std::min(offset, text.size());
    return 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n');
}

std::optional<std::size_t> invalidUtf8Offset(std::string_view s) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    for (std::size_t i = 0; i < s.size();) {
        const unsigned c = byte(i);
        if (c < 0x80) { ++i; continue; }
        int extra = 0;
        unsigned lo = 0x80, hi = 0xBF;   // the range of the second byte (Unicode table 3-7)
        if (c >= 0xC2 && c <= 0xDF) extra = 1;
        else if (c >= 0xE0 && c <= 0xEF) { extra = 2; if (c == 0xE0) lo = 0xA0; if (c == 0xED) hi = 0x9F; }
        else if (c >= 0xF0 && c <= 0xF4) { extra = 3; if (c == 0xF0) lo = 0x90; if (c == 0xF4) hi = 0x8F; }
        else return i;
        if (i + static_cast<std::size_t>(extra) >= s.size()) return i;   // truncated sequence
        if (byte(i + 1) < lo || byte(i + 1) > hi) return i;
        for (int k = 2; k <= extra; ++k)
            if ((byte(i + static_cast<std::size_t>(k)) & 0xC0) != 0x80) return i;
        i += static_cast<std::size_t>(extra) + 1;
    }
    return std::nullopt;
}

void requireUtf8Names(const LoadedGraph& g, const std::string& source) {
    const auto check = [&](const std::string& s, const std::string& what) {
        if (const auto at = invalidUtf8Offset(s)) {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(s[*at]));
            fail(source, what + " is not valid UTF-8 (byte " + hex + " at offset " + std::to_string(*at) +
                             "); SchedLab writes names as JSON, which must be UTF-8");
        }
    };
    for (std::size_t i = 0; i < g.graph->ops().size(); ++i) {
        const Op& op = g.graph->ops()[i];
        check(op.name, "op " + std::to_string(i) + ": name");
        check(op.type, "op " + std::to_string(i) + ": type");
    }
    for (std::size_t i = 0; i < g.graph->tensors().size(); ++i)
        check(g.graph->tensors()[i].name, "tensor " + std::to_string(i) + ": name");
    if (g.platform)
        for (std::size_t i = 0; i < g.platform->devices.size(); ++i)
            check(g.platform->devices[i].name, "device " + std::to_string(i) + ": name");
}

void finalizeGraph(Graph& g, const std::string& source) {
    try {
        g.finalize();
    } catch (const IoError&) {
        throw;
    } catch (const GraphError& e) {
        fail(source, e.what());
    }
}

std::string formatNumber(double x) {
    if (x == std::floor(x) && std::fabs(x) < 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", x);
        return buf;
    }
    char buf[40];
    for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, x);
        if (std::strtod(buf, nullptr) == x) break;
    }
    return buf;
}

std::optional<std::int64_t> parseInteger(std::string_view token) {
    if (!token.empty() && token.front() == '+') token.remove_prefix(1);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
    return v;
}

std::optional<double> parseNumber(std::string_view token) {
    if (!token.empty() && token.front() == '+') token.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (token.empty() || ec != std::errc() || end != token.data() + token.size() || !std::isfinite(v))
        return std::nullopt;
    return v;
}

namespace {
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }
} // namespace

void TokenReader::skipBlanks(char stopAt) {
    while (m_pos < m_text.size()) {
        const char c = m_text[m_pos];
        if (c == '\n') {
            ++m_line;
            ++m_pos;
            m_atLineStart = true;
        } else if (isBlank(c)) {
            ++m_pos;
        } else {
            if (m_atLineStart && stopAt != '\0' && c == stopAt) m_stopped = true;
            return;
        }
    }
}

std::optional<std::string_view> TokenReader::next(char stopAt) {
    if (m_stopped) return std::nullopt;
    skipBlanks(stopAt);
    if (m_stopped || m_pos >= m_text.size()) return std::nullopt;
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && !isBlank(m_text[m_pos]) && m_text[m_pos] != '\n') ++m_pos;
    m_atLineStart = false;
    m_tokenLine = m_line;
    return m_text.substr(start, m_pos - start);
}

void TokenReader::skipLine() {
    while (m_pos < m_text.size() && m_text[m_pos] != '\n') ++m_pos;
}

bool TokenReader::atEnd() {
    skipBlanks('\0');
    return m_pos >= m_text.size();
}

nlohmann::json parseJson(std::string_view text, const std::string& source) {
    try {
        return nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is 1-based and points just past the offending character.
        const std::size_t offset = e.byte > 0 ? static_cast<std::size_t>(e.byte - 1) : 0;
        std::string what = e.what();
        // "[json.exception.parse_error.101] parse error at line 1, column 5: ..." -> keep the reason.
        if (const auto colon = what.find(": "); colon != std::string::npos) what = what.substr(colon + 2);
        const bool truncated = offset >= text.size();
        failAt(source, lineOfOffset(text, offset),
               std::string("invalid JSON") + (truncated ? " (the file ends too early; truncated?)" : "") + ": " + what);
    } catch (const nlohmann::json::out_of_range& e) {
        // the parser throws out_of_range 406, not parse_error, for a number beyond a double (1e999)
        fail(source, std::string("invalid JSON: ") + jsonOutOfRangeReason(e));
    }
}

std::string jsonOutOfRangeReason(const nlohmann::json::exception& e) {
    std::string what = e.what();
    if (const auto at = what.find("] "); at != std::string::npos) what.erase(0, at + 2);   // "[json.exception...] "
    if (what.size() > 120) what = what.substr(0, 117) + "...";   // the number itself may be megabytes long
    return what + " (above the largest double, about 1.8e308)";
}

std::string jsonKind(const nlohmann::json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::null: return "null";
    case nlohmann::json::value_t::object: return "an object";
    case nlohmann::json::value_t::array: return "an array";
    case nlohmann::json::value_t::string: return "a string";
    case nlohmann::json::value_t::boolean: return "a boolean";
    case nlohmann::json::value_t::binary: return "binary data";
    case nlohmann::json::value_t::discarded: return "nothing";
    default: {
        std::string text = j.dump();
        if (text.size() > 24) text = text.substr(0, 24) + "...";
        return "the number " + text;
    }
    }
}

} // namespace sl::io_detail

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Private helpers shared by the graph importers of core/io (not a public API): error messages
/// that start with the file name, size caps, strict number parsing, a line-aware token reader and
/// JSON parsing that reports line numbers.

#include "core/graph/graph.h"
#include "core/io/graphio.h"
#include "core/util/limits.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sl::io_detail {

/// The readers' caps are sl::limits() (core/util/limits.h); this names the knob in a refusal:
/// " (the 'ops' limit, 5000000; raise it with --limit ops=N or SCHEDLAB_LIMITS)".
std::string limitNote(const char* key, double value);

/// The nominal device of the ONNX and HLO duration estimates (docs/formats.md): 1 TFLOP/s and
/// 100 GB/s, with time in microseconds. duration = max(FLOPs / kFlopsPerMicrosecond,
/// bytes moved / kBytesPerMicrosecond), a roofline.
inline constexpr double kFlopsPerMicrosecond = 1e6;
inline constexpr double kBytesPerMicrosecond = 1e5;

/// Throws IoError("<source>: <message>").
[[noreturn]] void fail(const std::string& source, const std::string& message);
/// Throws IoError("<source>:<line>: <message>").
[[noreturn]] void failAt(const std::string& source, std::int64_t line, const std::string& message);

/// 1-based line number of a byte offset in `text` (clamped to the text).
std::int64_t lineOfOffset(std::string_view text, std::size_t offset);

/// Offset of the first byte that is not part of well-formed UTF-8 (no overlong forms, surrogates or
/// code points above U+10FFFF: what the JSON writers accept), or std::nullopt when all of it is.
std::optional<std::size_t> invalidUtf8Offset(std::string_view s);

/// Refuses names the JSON writers cannot write: an op, tensor or device name or op type that is not
/// UTF-8 (DOT, HLO and ONNX readers pass bytes through), naming the item and the byte.
void requireUtf8Names(const LoadedGraph& g, const std::string& source);

/// The reason of nlohmann's out_of_range 406 ("number overflow parsing '1e999'"), shortened, for
/// "invalid JSON: ..." messages: the JSON parser throws it instead of parse_error.
std::string jsonOutOfRangeReason(const nlohmann::json::exception& e);

/// Finalizes `g`, turning GraphError into IoError prefixed with the source name.
void finalizeGraph(Graph& g, const std::string& source);

/// Shortest text that reads back to exactly `x` ("%.17g" trimmed by round trip).
std::string formatNumber(double x);

/// A DOT quoted ID or attribute value. cgraph unescapes only \" (other backslashes stay as they
/// are); a trailing backslash would escape the closing quote, so a space keeps it literal.
std::string dotQuoted(const std::string& s);
/// The attributes the DOT reader reads back for an op, as ", type=..., duration=..." (defaults
/// left out), and the head of one tensor edge: "a" -> "b" [tensor=..., bytes=... (no closing ']').
std::string dotOpAttributes(const Op& op);
std::string dotTensorEdge(const Graph& g, const Tensor& t, OpId consumer);

/// Strict parsers for a whole token: no trailing garbage, no overflow. std::nullopt on failure.
std::optional<std::int64_t> parseInteger(std::string_view token);
std::optional<double> parseNumber(std::string_view token);   ///< finite only

/// Reads whitespace-separated tokens and knows the line of each.
class TokenReader {
public:
    explicit TokenReader(std::string_view text) : m_text(text) {}
    /// The next token on any line, or std::nullopt at the end of the text. Stops (returns nullopt)
    /// at a line whose first non-blank character is `stopAt` when it is not '\0'.
    std::optional<std::string_view> next(char stopAt = '\0');
    /// Line of the token returned last (1-based).
    std::int64_t line() const { return m_tokenLine; }
    /// Line where reading stands now.
    std::int64_t currentLine() const { return m_line; }
    /// The rest of the current line as tokens is skipped.
    void skipLine();
    bool atEnd();

private:
    void skipBlanks(char stopAt);
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::int64_t m_line = 1;
    std::int64_t m_tokenLine = 1;
    bool m_atLineStart = true;
    bool m_stopped = false;
};

/// Parses JSON; a syntax error becomes IoError "<source>:<line>: ...".
nlohmann::json parseJson(std::string_view text, const std::string& source);

/// A short description of a JSON value's type for messages ("a string", "an array", ...).
std::string jsonKind(const nlohmann::json& j);

} // namespace sl::io_detail

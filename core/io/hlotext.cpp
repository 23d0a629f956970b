// SPDX-License-Identifier: MIT
// XLA HLO text modules, the subset of docs/formats.md ("XLA HLO text", "Format details we rely
// on"): the `HloModule` line (its input_output_alias), then computations; of those only the ENTRY
// computation's instructions are read, one per line:
//   [ROOT ]%name = <shape> <opcode>(<operands>)[, attr=value]*
#include "core/io/hlotext.h"

#include "core/io/ioutil.h"
#include "core/util/limits.h"
#include "core/util/text.h"

#include <algorithm>

namespace sl::io_detail {

namespace {

double elementWidth(std::string_view e) {
    if (e == "pred" || e == "s8" || e == "u8" || e == "s4" || e == "u4" || e == "f8e4m3fn" || e == "f8e5m2") return 1;
    if (e == "s16" || e == "u16" || e == "f16" || e == "bf16") return 2;
    if (e == "s32" || e == "u32" || e == "f32") return 4;
    if (e == "s64" || e == "u64" || e == "f64" || e == "c64") return 8;
    if (e == "c128") return 16;
    return 0;   // token[], opaque, ...
}

DType hloDType(std::string_view e) {
    if (e == "f32") return DType::F32;
    if (e == "bf16") return DType::BF16;
    if (e == "f16") return DType::F16;
    if (e == "f64") return DType::F64;
    if (e.substr(0, 2) == "f8") return DType::F8;
    if (e == "s32" || e == "u32") return DType::I32;
    if (e == "s64" || e == "u64") return DType::I64;
    if (e == "s16" || e == "u16") return DType::I16;
    if (e == "s8" || e == "u8" || e == "s4" || e == "u4") return DType::I8;
    if (e == "pred") return DType::Bool;
    return DType::Unknown;
}

/// Index just past the bracket that closes s[open], skipping nested ()[]{} and quoted strings;
/// npos when unbalanced.
std::size_t closing(std::string_view s, std::size_t open) {
    int depth = 0;
    bool quoted = false;
    for (std::size_t i = open; i < s.size(); ++i) {
        const char c = s[i];
        if (quoted) {
            if (c == '\\') ++i;
            else if (c == '"') quoted = false;
            continue;
        }
        if (c == '"') quoted = true;
        else if (c == '(' || c == '[' || c == '{') ++depth;
        else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0) return i + 1;
        }
    }
    return std::string_view::npos;
}

/// Splits on commas at nesting depth 0.
std::vector<std::string_view> splitTopLevel(std::string_view s) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '(' || c == '[' || c == '{' || c == '"') {
            const std::size_t end = c == '"' ? s.find('"', i + 1) : closing(s, i);
            if (end == std::string_view::npos) break;
            i = (c == '"' ? end : end - 1);
        } else if (c == ',') {
            parts.push_back(trimBlanks(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (const auto last = trimBlanks(s.substr(std::min(start, s.size()))); !last.empty()) parts.push_back(last);
    return parts;
}

/// The line without /* ... */ comments (the printer writes "/*index=5*/" before long operand lists).
std::string withoutComments(std::string_view s) {
    std::string out;
    bool quoted = false;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (!quoted && s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            if (end == std::string_view::npos) break;
            i = end + 1;
            continue;
        }
        if (s[i] == '"' && (i == 0 || s[i - 1] != '\\')) quoted = !quoted;
        out += s[i];
    }
    return out;
}

/// "{1,0}" or "{1,0:T(8,128)}" after an array's dims: is it {rank-1, ..., 0}?
bool isDefaultLayout(std::string_view layout, std::size_t rank) {
    layout = trimBlanks(layout);
    if (layout.size() < 2 || layout.front() != '{') return true;
    std::string_view minorToMajor = layout.substr(1, layout.find_first_of(":}") - 1);
    const std::vector<std::string_view> parts = splitTopLevel(minorToMajor);
    if (parts.size() != rank) return parts.empty();
    for (std::size_t i = 0; i < rank; ++i) {
        const auto v = parseInteger(parts[i]);
        if (!v || *v != static_cast<std::int64_t>(rank - 1 - i)) return false;
    }
    return true;
}

/// The whole number after `key` ("index=") in an attribute list.
std::optional<std::int64_t> attributeInteger(std::string_view attrs, std::string_view key) {
    const std::size_t at = attrs.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const std::string_view rest = attrs.substr(at + key.size());
    return parseInteger(rest.substr(0, rest.find_first_of(", ")));
}

class HloTextReader {
public:
    explicit HloTextReader(const std::string& source) : m_source(source) {}

    HloModuleText read(std::string_view text) const {
        HloModuleText module;
        bool sawModule = false, inEntry = false, entryDone = false;
        int depth = 0;   // inside some computation
        std::int64_t number = 0, entryLine = 0;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            const std::size_t end = std::min(text.find('\n', pos), text.size());
            ++number;
            const std::string_view line = trimBlanks(text.substr(pos, end - pos));
            pos = end + 1;
            if (line.empty() || line.substr(0, 2) == "//") {
                if (end == text.size()) break;
                continue;
            }
            if (!sawModule) {
                if (line.substr(0, 9) != "HloModule") failAt(m_source, number, "not an HLO text module (expected 'HloModule <name>')");
                sawModule = true;
                module.aliases = outputAliases(line, number);
            } else if (depth == 0) {
                if (line.back() != '{') failAt(m_source, number, "expected a computation header ending in '{'");
                depth = 1;
                if (line.substr(0, 6) == "ENTRY ") {
                    if (entryDone) failAt(m_source, number, "a second ENTRY computation");
                    inEntry = true;
                    entryLine = number;
                }
            } else if (line == "}") {
                depth = 0;
                if (inEntry) entryDone = true;
                inEntry = false;
            } else if (inEntry) {
                module.entry.push_back(parseInstruction(withoutComments(line), number));
                if (static_cast<std::int64_t>(module.entry.size()) > limits().ops)
                    failAt(m_source, number, "more than " + std::to_string(limits().ops) + " instructions");
            }
            if (end == text.size()) break;
        }
        if (!sawModule) fail(m_source, "empty file; an HLO module starts with 'HloModule <name>'");
        if (entryLine == 0) fail(m_source, "no ENTRY computation");
        if (!entryDone) failAt(m_source, entryLine, "the ENTRY computation is not closed with '}' (truncated file?)");
        if (module.entry.empty()) failAt(m_source, entryLine, "the ENTRY computation has no instructions");
        return module;
    }

private:
    [[noreturn]] void tooBig(std::string_view shape, std::int64_t line, double elements, double width) const {
        failAt(m_source, line, "shape " + std::string(shape.substr(0, shape.find('{'))) + " has " + formatNumber(elements) +
                                   (elements * width > limits().tensorBytes ? " elements (" + formatNumber(elements * width) + " bytes)" : "+ elements") +
                                   ", beyond the " + formatNumber(limits().tensorBytes) + "-byte limit for one tensor");
    }

    /// `{0}: (2, {}, must-alias), {1}: (1, {}, may-alias)`: both kinds alias the buffers at run
    /// time (PyTorch/XLA donates them); nested output indices ({0,1}) are left out.
    std::vector<HloOutputAlias> outputAliases(std::string_view header, std::int64_t line) const {
        std::vector<HloOutputAlias> out;
        const std::size_t at = header.find("input_output_alias=");
        if (at == std::string_view::npos) return out;
        const std::size_t open = at + 19;
        const std::size_t end = closing(header, open);
        if (end == std::string_view::npos) failAt(m_source, line, "unbalanced input_output_alias");
        for (std::string_view entry : splitTopLevel(header.substr(open + 1, end - open - 2))) {
            const std::size_t indexEnd = entry.find('}');
            const std::size_t paren = entry.find('(');
            if (entry.empty() || entry.front() != '{' || indexEnd == std::string_view::npos || paren == std::string_view::npos)
                failAt(m_source, line, "cannot read the input_output_alias entry '" + std::string(entry.substr(0, 40)) + "'");
            const std::string_view index = trimBlanks(entry.substr(1, indexEnd - 1));
            const std::vector<std::string_view> target = splitTopLevel(entry.substr(paren + 1, entry.rfind(')') - paren - 1));
            const auto parameter = target.empty() ? std::nullopt : parseInteger(target[0]);
            if (!parameter || *parameter < 0) failAt(m_source, line, "input_output_alias: '" + std::string(entry.substr(0, 40)) + "' names no parameter");
            if (index.find(',') != std::string_view::npos) continue;
            const auto output = index.empty() ? std::optional<std::int64_t>(-1) : parseInteger(index);
            if (!output) failAt(m_source, line, "input_output_alias: output index '{" + std::string(index) + "}' is not a number");
            out.push_back({*output, *parameter});
        }
        return out;
    }

    HloShape parseShape(std::string_view s, std::int64_t line) const {
        s = trimBlanks(s);
        HloShape out;
        if (!s.empty() && s.front() == '(') {   // tuple: sum of the elements
            const std::size_t end = closing(s, 0);
            if (end == std::string_view::npos) failAt(m_source, line, "unbalanced tuple shape");
            out.tuple = true;
            for (std::string_view part : splitTopLevel(s.substr(1, end - 2))) {
                const HloShape e = parseShape(part, line);
                out.bytes += e.bytes;
                out.elements += e.elements;
                out.elementBytes.push_back(e.bytes);
                if (out.dtype == DType::Unknown) out.dtype = e.dtype;
            }
            return out;
        }
        const std::size_t open = s.find('[');
        const std::size_t close = s.find(']');
        if (open == std::string_view::npos || close == std::string_view::npos || close < open)
            failAt(m_source, line, "cannot read the shape '" + std::string(s.substr(0, 40)) + "'");
        const double width = elementWidth(s.substr(0, open));
        out.dtype = hloDType(trimBlanks(s.substr(0, open)));
        out.elements = 1;
        for (std::string_view d : splitTopLevel(s.substr(open + 1, close - open - 1))) {
            if (d.substr(0, 2) == "<=") d.remove_prefix(2);   // dynamic dimension: its bound
            const auto v = parseInteger(trimBlanks(d));
            if (!v || *v < 0) failAt(m_source, line, "dimension '" + std::string(d) + "' is not a non-negative whole number");
            out.dims.push_back(static_cast<double>(*v));
            out.elements *= static_cast<double>(*v);
            if (out.elements > limits().tensorBytes) tooBig(s, line, out.elements, width);
        }
        out.bytes = out.elements * width;
        if (out.bytes > limits().tensorBytes) tooBig(s, line, out.elements, width);
        out.defaultLayout = isDefaultLayout(s.substr(close + 1), out.dims.size());
        out.elementBytes = {out.bytes};
        return out;
    }

    HloInstruction parseInstruction(std::string_view text, std::int64_t line) const {
        HloInstruction in;
        in.line = line;
        if (text.substr(0, 5) == "ROOT ") {
            in.root = true;
            text = trimBlanks(text.substr(5));
        }
        const std::size_t eq = text.find(" = ");
        if (eq == std::string_view::npos) failAt(m_source, line, "expected '%name = shape opcode(operands)'");
        std::string_view name = trimBlanks(text.substr(0, eq));
        if (!name.empty() && name.front() == '%') name.remove_prefix(1);
        if (name.empty()) failAt(m_source, line, "an instruction without a name");
        in.name = std::string(name);
        std::string_view rest = trimBlanks(text.substr(eq + 3));
        std::size_t shapeEnd;
        if (!rest.empty() && rest.front() == '(') {
            shapeEnd = closing(rest, 0);
            if (shapeEnd == std::string_view::npos) failAt(m_source, line, "'" + in.name + "': unbalanced tuple shape (truncated line?)");
        } else {
            shapeEnd = rest.find(' ');
            if (shapeEnd == std::string_view::npos) failAt(m_source, line, "'" + in.name + "': no opcode after the shape (truncated line?)");
        }
        in.shape = parseShape(rest.substr(0, shapeEnd), line);
        rest = trimBlanks(rest.substr(shapeEnd));
        const std::size_t paren = rest.find('(');
        if (paren == std::string_view::npos || paren == 0) failAt(m_source, line, "'" + in.name + "': expected 'opcode(operands)'");
        in.opcode = std::string(trimBlanks(rest.substr(0, paren)));
        const std::size_t close = closing(rest, paren);
        if (close == std::string_view::npos) failAt(m_source, line, "'" + in.name + "': unbalanced operand list (truncated line?)");
        const std::string_view inside = rest.substr(paren + 1, close - paren - 2);
        if (in.opcode == "parameter") {
            const auto number = parseInteger(trimBlanks(inside));
            if (!number || *number < 0) failAt(m_source, line, "'" + in.name + "': parameter(" + std::string(inside) + ") is not a parameter number");
            in.parameterNumber = *number;
        } else if (in.opcode != "constant" && in.opcode != "iota") {
            for (std::string_view op : splitTopLevel(inside)) {
                // "%x", "x" or "f32[10]{0} %x": the name is the last word
                const std::size_t space = op.rfind(' ');
                std::string_view ref = space == std::string_view::npos ? op : op.substr(space + 1);
                if (!ref.empty() && ref.front() == '%') ref.remove_prefix(1);
                if (ref.empty()) failAt(m_source, line, "'" + in.name + "': an empty operand");
                in.operands.emplace_back(ref);
            }
        }
        in.attrs = std::string(rest.substr(close));
        if (in.opcode == "get-tuple-element") in.tupleIndex = attributeInteger(in.attrs, "index=").value_or(-1);
        return in;
    }

    const std::string& m_source;
};

} // namespace

HloModuleText parseHloModule(std::string_view text, const std::string& source) { return HloTextReader(source).read(text); }

std::vector<double> hloIntList(const std::string& attrs, const std::string& key) {
    std::vector<double> out;
    const auto at = attrs.find(key + "={");
    if (at == std::string::npos) return out;
    const auto start = at + key.size() + 2;
    const auto end = attrs.find('}', start);
    std::string list(attrs.substr(start, end - start));
    std::replace(list.begin(), list.end(), ',', ' ');
    TokenReader tokens(list);
    while (auto t = tokens.next())
        if (auto v = parseInteger(*t)) out.push_back(static_cast<double>(*v));
    return out;
}

} // namespace sl::io_detail

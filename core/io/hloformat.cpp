// SPDX-License-Identifier: MIT
// XLA HLO text modules, the subset of docs/formats.md ("XLA HLO text", "Format details we rely
// on"): the ENTRY computation's instructions, one per line:
//   [ROOT ]%name = <shape> <opcode>(<operands>)[, attr=value]*
// Called computations (to_apply=, calls=, ...) are opaque parts of their caller. Every instruction
// except `parameter` and `constant` is an op named by the instruction name (without '%');
// parameters and constants are inputs/weights: their bytes count as parameter bytes of the ops
// that read them. Each op's output is one tensor of its shape's bytes (`tuple` and
// `get-tuple-element` alias other buffers: 0 bytes). Durations: a roofline estimate from FLOPs
// (dot, convolution, reductions, element-wise) and bytes moved, as for ONNX.
#include "core/io/importers.h"
#include "core/io/ioutil.h"
#include "core/util/text.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>

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

struct Shape {
    std::vector<double> dims;   ///< of an array shape; empty for scalars and tuples
    double elements = 0;
    double bytes = 0;
    DType dtype = DType::Unknown;   ///< of an array; a tuple's first element's
    bool tuple = false;
};

struct Instr {
    std::int64_t line = 0;
    std::string name, opcode;
    Shape shape;
    std::vector<std::string> operands;
    std::string attrs;
    bool root = false;
};

class HloReader {
public:
    explicit HloReader(const std::string& source) : m_source(source) {}

    [[noreturn]] void tooBig(std::string_view shape, std::int64_t line, double elements, double width) const {
        failAt(m_source, line, "shape " + std::string(shape.substr(0, shape.find('{'))) + " has " + formatNumber(elements) +
                                   (elements * width > limits().tensorBytes ? " elements (" + formatNumber(elements * width) + " bytes)" : "+ elements") +
                                   ", beyond the " + formatNumber(limits().tensorBytes) + "-byte limit for one tensor");
    }

    Shape parseShape(std::string_view s, std::int64_t line) const {
        s = trimBlanks(s);
        Shape out;
        if (!s.empty() && s.front() == '(') {   // tuple: sum of the elements
            const std::size_t end = closing(s, 0);
            if (end == std::string_view::npos) failAt(m_source, line, "unbalanced tuple shape");
            out.tuple = true;
            for (std::string_view part : splitTopLevel(s.substr(1, end - 2))) {
                const Shape e = parseShape(part, line);
                out.bytes += e.bytes;
                out.elements += e.elements;
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
        return out;
    }

    Instr parseInstruction(std::string_view text, std::int64_t line) const {
        Instr in;
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
        if (in.opcode != "constant" && in.opcode != "parameter" && in.opcode != "iota")
            for (std::string_view op : splitTopLevel(rest.substr(paren + 1, close - paren - 2))) {
                // "%x", "x" or "f32[10]{0} %x": the name is the last word
                const std::size_t space = op.rfind(' ');
                std::string_view ref = space == std::string_view::npos ? op : op.substr(space + 1);
                if (!ref.empty() && ref.front() == '%') ref.remove_prefix(1);
                if (ref.empty()) failAt(m_source, line, "'" + in.name + "': an empty operand");
                in.operands.emplace_back(ref);
            }
        in.attrs = std::string(rest.substr(close));
        if (in.opcode == "tuple" || in.opcode == "get-tuple-element") in.shape.bytes = 0;
        return in;
    }

    /// The ENTRY computation's instructions.
    std::vector<Instr> entry(std::string_view text) const {
        std::vector<Instr> out;
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
                out.push_back(parseInstruction(withoutComments(line), number));
                if (static_cast<std::int64_t>(out.size()) > limits().ops)
                    failAt(m_source, number, "more than " + std::to_string(limits().ops) + " instructions");
            }
            if (end == text.size()) break;
        }
        if (!sawModule) fail(m_source, "empty file; an HLO module starts with 'HloModule <name>'");
        if (entryLine == 0) fail(m_source, "no ENTRY computation");
        if (!entryDone) failAt(m_source, entryLine, "the ENTRY computation is not closed with '}' (truncated file?)");
        if (out.empty()) failAt(m_source, entryLine, "the ENTRY computation has no instructions");
        return out;
    }

private:
    const std::string& m_source;
};

std::vector<double> intList(const std::string& attrs, const std::string& key) {
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

double estimateFlops(const Instr& in, const std::vector<const Shape*>& operands) {
    const double out = in.shape.elements;
    const std::string& op = in.opcode;
    if (op == "dot" && !operands.empty() && operands[0]) {
        double k = 1;
        for (double d : intList(in.attrs, "lhs_contracting_dims"))
            if (d >= 0 && d < static_cast<double>(operands[0]->dims.size())) k *= operands[0]->dims[static_cast<std::size_t>(d)];
        return 2 * out * k;
    }
    if (op == "convolution" && operands.size() > 1 && operands[1] && !in.shape.dims.empty()) {
        // MACs per output element = kernel elements / output features ('f' in the output dim_labels)
        std::size_t f = in.shape.dims.size() - 1;
        if (const auto at = in.attrs.find("->"); at != std::string::npos)
            if (const auto pos = in.attrs.find('f', at); pos != std::string::npos && pos - at - 2 < in.shape.dims.size())
                f = pos - at - 2;
        const double features = std::max(in.shape.dims[f], 1.0);
        return 2 * out * operands[1]->elements / features;
    }
    if ((op == "reduce" || op == "reduce-window") && !operands.empty() && operands[0]) return operands[0]->elements;
    static const std::unordered_set<std::string> movement = {
        "reshape", "broadcast", "transpose", "concatenate", "slice", "copy", "bitcast", "tuple", "get-tuple-element",
        "convert", "gather", "pad", "dynamic-slice", "dynamic-update-slice", "reverse", "iota", "bitcast-convert"};
    if (movement.count(op)) return 0;
    return out;
}

OpClass hloOpClass(const std::string& op) {
    if (op == "dot") return OpClass::Matmul;
    if (op == "convolution") return OpClass::Conv;
    if (op == "reduce" || op == "reduce-window" || op == "select-and-scatter" || op == "sort") return OpClass::Reduction;
    if (op == "batch-norm-training" || op == "batch-norm-inference" || op == "batch-norm-grad") return OpClass::Normalization;
    static const std::unordered_set<std::string> aliases = {
        "bitcast", "get-tuple-element", "tuple", "reshape", "all-reduce-done", "all-gather-done",
        "collective-permute-done", "copy-done", "send-done", "recv-done", "after-all", "opt-barrier"};
    if (aliases.count(op)) return OpClass::Alias;
    static const std::unordered_set<std::string> collectives = {
        "all-reduce", "all-reduce-start", "all-gather", "all-gather-start", "reduce-scatter", "all-to-all",
        "collective-permute", "collective-permute-start"};
    if (collectives.count(op)) return OpClass::Collective;
    static const std::unordered_set<std::string> movement = {
        "broadcast", "transpose", "concatenate", "slice", "copy", "copy-start", "convert", "gather", "scatter", "pad",
        "dynamic-slice", "dynamic-update-slice", "reverse", "iota", "bitcast-convert"};
    if (movement.count(op)) return OpClass::Movement;
    if (op == "custom-call" || op == "fusion" || op == "call" || op == "while" || op == "conditional") return OpClass::Other;
    return OpClass::Elementwise;
}

Collective hloCollective(const std::string& op) {
    if (op.rfind("all-reduce", 0) == 0) return Collective::AllReduce;
    if (op.rfind("all-gather", 0) == 0) return Collective::AllGather;
    if (op == "reduce-scatter") return Collective::ReduceScatter;
    if (op == "all-to-all") return Collective::AllToAll;
    return Collective::Permute;
}

/// Ranks of the first replica group: {{0,1,2,3},{4,5,6,7}} -> 4; the iota form [2,4]<=[8] -> 4;
/// source_target_pairs of a permute -> 2; none or {} -> 0 (every device).
int groupSizeOf(const std::string& attrs, Collective kind) {
    if (kind == Collective::Permute) return 2;
    const auto at = attrs.find("replica_groups=");
    if (at == std::string::npos) return 0;
    const std::string_view rest = std::string_view(attrs).substr(at + 15);
    if (rest.substr(0, 1) == "[") {   // iota: [groups,size]<=[n]
        const auto close = rest.find(']');
        const auto comma = rest.substr(0, close).rfind(',');
        if (close == std::string_view::npos || comma == std::string_view::npos) return 0;
        const auto v = parseInteger(trimBlanks(rest.substr(comma + 1, close - comma - 1)));
        return v && *v > 0 && *v < 1'000'000 ? static_cast<int>(*v) : 0;
    }
    if (rest.substr(0, 2) != "{{") return 0;
    const auto end = rest.find('}');
    const std::string_view first = rest.substr(2, end - 2);
    return first.empty() ? 0 : static_cast<int>(std::count(first.begin(), first.end(), ',')) + 1;
}

OpWork hloWork(const Instr& in, const std::vector<const Shape*>& operands, double flops, double bytesRead) {
    OpWork w;
    w.opClass = hloOpClass(in.opcode);
    w.dtype = in.shape.dtype;
    if (w.opClass == OpClass::Alias) return w;
    w.flops = flops;
    w.bytesRead = bytesRead;
    w.bytesWritten = in.shape.bytes;
    if (w.opClass != OpClass::Collective) return w;
    double operandBytes = 0;
    for (const Shape* s : operands) operandBytes += s ? s->bytes : 0;
    w.collective = hloCollective(in.opcode);
    w.groupSize = groupSizeOf(in.attrs, w.collective);
    // The buffer of the algorithm: a reduce-scatter's input, otherwise the result (a -start op's
    // tuple holds the operands beside it).
    if (w.collective == Collective::ReduceScatter) w.commBytes = operandBytes;
    else w.commBytes = in.shape.tuple ? std::max(in.shape.bytes - operandBytes, 0.0) : in.shape.bytes;
    return w;
}

} // namespace

LoadedGraph readHlo(std::string_view text, const std::string& source) {
    const HloReader reader(source);
    const std::vector<Instr> instrs = reader.entry(text);
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = 0; i < instrs.size(); ++i)
        if (!byName.emplace(instrs[i].name, i).second) failAt(source, instrs[i].line, "duplicate instruction name '" + instrs[i].name + "'");

    auto isWeight = [](const Instr& in) { return in.opcode == "parameter" || in.opcode == "constant"; };
    auto g = std::make_shared<Graph>();
    g->setTimeUnit(TimeUnit::Microseconds);   // roofline durations
    std::vector<OpId> opOf(instrs.size(), kNoOp);
    for (std::size_t i = 0; i < instrs.size(); ++i)
        if (!isWeight(instrs[i])) opOf[i] = g->addOp({.name = instrs[i].name, .type = instrs[i].opcode});
    if (g->opCount() == 0) fail(source, "the ENTRY computation has only parameters and constants");

    std::vector<std::vector<OpId>> readers(instrs.size());
    std::vector<double> inBytes(static_cast<std::size_t>(g->opCount()), 0.0);
    for (std::size_t i = 0; i < instrs.size(); ++i) {
        const OpId v = opOf[i];
        if (v == kNoOp) continue;
        std::unordered_set<std::size_t> seen;
        for (const std::string& ref : instrs[i].operands) {
            auto it = byName.find(ref);
            if (it == byName.end())
                failAt(source, instrs[i].line, "'" + instrs[i].name + "' uses '%" + ref + "', which the ENTRY computation does not define");
            if (!seen.insert(it->second).second) continue;
            const Instr& from = instrs[it->second];
            if (isWeight(from)) g->mutableOp(v).paramBytes += from.shape.bytes;
            else {
                readers[it->second].push_back(v);
                inBytes[static_cast<std::size_t>(v)] += from.shape.bytes;
            }
        }
    }
    for (std::size_t i = 0; i < instrs.size(); ++i) {
        if (opOf[i] == kNoOp || (readers[i].empty() && !instrs[i].root)) continue;
        const TensorId t = g->addTensor(instrs[i].name, opOf[i], instrs[i].shape.bytes);
        for (OpId c : readers[i]) g->addConsumer(t, c);
    }
    for (std::size_t i = 0; i < instrs.size(); ++i) {
        const OpId v = opOf[i];
        if (v == kNoOp) continue;
        std::vector<const Shape*> operands;
        for (const std::string& ref : instrs[i].operands) operands.push_back(&instrs[byName.at(ref)].shape);
        const double flops = estimateFlops(instrs[i], operands);
        const double read = inBytes[static_cast<std::size_t>(v)] + g->op(v).paramBytes;
        const double moved = read + instrs[i].shape.bytes;
        Op& op = g->mutableOp(v);
        op.duration = std::max(flops / kFlopsPerMicrosecond, moved / kBytesPerMicrosecond);
        op.work = hloWork(instrs[i], operands, flops, read);
        op.timeSource = TimeSource::Estimated;
    }
    finalizeGraph(*g, source);
    LoadedGraph out;
    out.graph = std::move(g);
    return out;
}

} // namespace sl::io_detail

// SPDX-License-Identifier: MIT
// XLA HLO text modules (docs/formats.md, "XLA HLO text"): the ENTRY computation becomes the graph,
// one op per instruction except `parameter` and `constant` (weights: their bytes count as
// parameter bytes of the ops that read them). Buffers are assigned as a compiler would
// (docs/formats.md, "Buffers and folded ops"): an op owns one buffer per element of its shape,
// except the ops that alias their operand and allocate nothing, which are folded:
//   get-tuple-element, tuple, bitcast, opt-barrier, *-done   always;
//   reshape        between default (major-to-minor) layouts: a bitcast (ShapeUtil::ReshapeIsBitcast);
//   broadcast      of one element whose every reader is element-wise or a reduce: fused into them;
// a folded op keeps its place in the graph (a 0-byte tensor to its readers, no time), and its
// readers read the buffers it stands for. An output that `input_output_alias` gives a parameter's
// buffer (the updated weights of a training step) is written into that buffer: 0 bytes.
#include "core/io/hlotext.h"
#include "core/io/hlowork.h"
#include "core/io/importers.h"
#include "core/io/ioutil.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <set>
#include <unordered_map>

namespace sl::io_detail {

namespace {

/// A buffer: element `element` of instruction `instr`'s result (a weight's or an op's).
struct Buffer {
    std::size_t instr = 0;
    int element = 0;
    auto operator<=>(const Buffer&) const = default;
};
/// An instruction's result: per element of its shape, the buffers that element lives in.
using Value = std::vector<std::vector<Buffer>>;

/// Tensors above a terabyte fit no device: read, and the reader says so.
constexpr double kHugeTensorBytes = 1099511627776.0;

/// "2.0 TiB (2199023255552 bytes)"
std::string tebibytes(double bytes) {
    char text[64];
    std::snprintf(text, sizeof text, "%.1f TiB (%.0f bytes)", bytes / kHugeTensorBytes, bytes);
    return text;
}

bool isWeight(const HloInstruction& in) { return in.opcode == "parameter" || in.opcode == "constant"; }

bool alwaysAliases(const std::string& opcode) {
    return opcode == "get-tuple-element" || opcode == "tuple" || opcode == "bitcast" || opcode == "opt-barrier" ||
           opcode == "after-all" || (opcode.size() > 5 && opcode.ends_with("-done"));
}

/// Readers a broadcast can be fused into as a loop fusion's operand.
bool fusesBroadcast(const HloInstruction& reader) {
    return hloOpClass(reader.opcode) == OpClass::Elementwise || reader.opcode == "reduce";
}

std::vector<Buffer> flatten(const Value& v) {
    std::vector<Buffer> all;
    for (const auto& e : v) all.insert(all.end(), e.begin(), e.end());
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
}

class HloGraphBuilder {
public:
    HloGraphBuilder(const HloModuleText& module, const std::string& source) : m_in(module.entry), m_source(source) {
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if (!m_byName.emplace(m_in[i].name, i).second) failAt(source, m_in[i].line, "duplicate instruction name '" + m_in[i].name + "'");
        resolveOperands();
        m_folded.assign(m_in.size(), false);
        m_values.resize(m_in.size());
        for (std::size_t i : instructionOrder()) {
            m_folded[i] = !isWeight(m_in[i]) && folds(i);
            m_values[i] = valueOf(i);
        }
        markInPlaceOutputs(module.aliases);
    }

    LoadedGraph build() {
        auto g = std::make_shared<Graph>();
        g->setTimeUnit(TimeUnit::Microseconds);   // roofline durations
        m_opOf.assign(m_in.size(), kNoOp);
        m_firstTensor.assign(m_in.size(), -1);
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if (!isWeight(m_in[i])) m_opOf[i] = g->addOp({.name = m_in[i].name, .type = m_in[i].opcode});
        if (g->opCount() == 0) fail(m_source, "the ENTRY computation has only parameters and constants");
        LoadedGraph out;
        addTensors(*g, out.warnings);
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if (m_opOf[i] != kNoOp) connectReader(*g, i);
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if (m_opOf[i] != kNoOp) setWork(*g, i);
        finalizeGraph(*g, m_source);
        out.graph = std::move(g);
        return out;
    }

private:
    void resolveOperands() {
        m_operands.resize(m_in.size());
        m_readers.resize(m_in.size());
        for (std::size_t i = 0; i < m_in.size(); ++i)
            for (const std::string& ref : m_in[i].operands) {
                const auto it = m_byName.find(ref);
                if (it == m_byName.end())
                    failAt(m_source, m_in[i].line, "'" + m_in[i].name + "' uses '%" + ref + "', which the ENTRY computation does not define");
                m_operands[i].push_back(it->second);
                m_readers[it->second].push_back(i);
            }
    }

    /// Operands before readers (Kahn); instructions on a cycle come last, in file order, and
    /// finalize() reports the cycle.
    std::vector<std::size_t> instructionOrder() const {
        std::vector<int> waiting(m_in.size());
        std::vector<std::size_t> order, ready;
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if ((waiting[i] = static_cast<int>(m_operands[i].size())) == 0) ready.push_back(i);
        std::vector<bool> placed(m_in.size(), false);
        while (!ready.empty()) {
            const std::size_t i = ready.back();
            ready.pop_back();
            order.push_back(i);
            placed[i] = true;
            for (std::size_t r : m_readers[i])
                if (--waiting[r] == 0) ready.push_back(r);
        }
        for (std::size_t i = 0; i < m_in.size(); ++i)
            if (!placed[i]) order.push_back(i);
        return order;
    }

    bool folds(std::size_t i) const {
        const HloInstruction& in = m_in[i];
        if (alwaysAliases(in.opcode)) return true;
        if (m_operands[i].size() != 1) return false;
        const HloShape& from = m_in[m_operands[i][0]].shape;
        if (in.opcode == "reshape") return !from.tuple && from.defaultLayout && in.shape.defaultLayout;
        if (in.opcode == "broadcast" && !from.tuple && from.elements <= 1 && !in.root && !m_readers[i].empty())
            return std::all_of(m_readers[i].begin(), m_readers[i].end(), [&](std::size_t r) { return fusesBroadcast(m_in[r]); });
        return false;
    }

    Value valueOf(std::size_t i) const {
        const HloInstruction& in = m_in[i];
        if (!m_folded[i]) {   // a weight's or an op's own buffers, one per element
            Value v(in.shape.elementBytes.size());
            for (std::size_t e = 0; e < v.size(); ++e) v[e] = {{i, static_cast<int>(e)}};
            return v;
        }
        if (in.opcode == "get-tuple-element") return {readFrom(i, m_operands[i].empty() ? i : m_operands[i][0])};
        if (in.opcode == "tuple") {
            Value v;
            for (std::size_t op : m_operands[i]) v.push_back(flatten(m_values[op]));
            return v;
        }
        if (m_operands[i].size() == 1) return m_values[m_operands[i][0]];   // same structure (opt-barrier's tuple)
        Value v(1);
        for (std::size_t op : m_operands[i]) v[0] = flatten({v[0], flatten(m_values[op])});
        return v;
    }

    /// The buffers reader `i` reads of operand `op`: a get-tuple-element's element, else all.
    std::vector<Buffer> readFrom(std::size_t i, std::size_t op) const {
        const Value& v = m_values[op];
        const std::int64_t k = m_in[i].tupleIndex;
        if (k >= 0 && k < static_cast<std::int64_t>(v.size())) return v[static_cast<std::size_t>(k)];
        return flatten(v);
    }

    /// Op buffers of the outputs `input_output_alias` gives a parameter's buffer.
    void markInPlaceOutputs(const std::vector<HloOutputAlias>& aliases) {
        const auto root = std::find_if(m_in.begin(), m_in.end(), [](const HloInstruction& in) { return in.root; });
        if (root == m_in.end()) return;
        const Value& out = m_values[static_cast<std::size_t>(root - m_in.begin())];
        for (const HloOutputAlias& a : aliases) {
            if (a.outputIndex >= static_cast<std::int64_t>(out.size())) continue;
            const std::vector<Buffer> buffers = a.outputIndex < 0 ? flatten(out) : out[static_cast<std::size_t>(a.outputIndex)];
            for (const Buffer& b : buffers)
                if (!isWeight(m_in[b.instr])) m_inPlace.insert(b);
        }
    }

    TensorId tensorOf(const Buffer& b) const { return m_firstTensor[b.instr] + b.element; }

    double bufferBytes(const Buffer& b) const {
        if (m_inPlace.count(b)) return 0;
        return m_in[b.instr].shape.elementBytes[static_cast<std::size_t>(b.element)];
    }

    /// One tensor per op buffer (named like HLO's shape index for a tuple's elements) and a 0-byte
    /// tensor for each folded op, which carries its edges to its readers.
    void addTensors(Graph& g, std::vector<std::string>& warnings) {
        for (std::size_t i = 0; i < m_in.size(); ++i) {
            if (m_opOf[i] == kNoOp) continue;
            if (m_folded[i]) {
                m_firstTensor[i] = g.addTensor(m_in[i].name, m_opOf[i], 0);
                continue;
            }
            const std::size_t elements = m_in[i].shape.elementBytes.size();
            m_firstTensor[i] = g.tensorCount();   // the elements' tensors are consecutive
            for (std::size_t e = 0; e < elements; ++e) {
                const Buffer b{i, static_cast<int>(e)};
                const std::string name = m_in[i].shape.tuple ? m_in[i].name + "{" + std::to_string(e) + "}" : m_in[i].name;
                g.addTensor(name, m_opOf[i], bufferBytes(b));
                if (bufferBytes(b) > kHugeTensorBytes)
                    warnings.push_back("'" + name + "' (line " + std::to_string(m_in[i].line) + ") is " + tebibytes(bufferBytes(b)) +
                                       ": huge, more than any device holds");
            }
        }
    }

    /// Instruction `i` reads its operands' buffers; a folded op reads no weight.
    void connectReader(Graph& g, std::size_t i) {
        const OpId v = m_opOf[i];
        std::set<TensorId> read;
        std::set<Buffer> weights;
        for (std::size_t op : m_operands[i]) {
            if (m_folded[op]) read.insert(m_firstTensor[op]);
            for (const Buffer& b : readFrom(i, op)) {
                if (isWeight(m_in[b.instr])) weights.insert(b);
                else read.insert(tensorOf(b));
            }
        }
        for (TensorId t : read) g.addConsumer(t, v);
        if (m_folded[i]) return;
        for (const Buffer& w : weights) g.mutableOp(v).paramBytes += bufferBytes(w);
    }

    void setWork(Graph& g, std::size_t i) {
        const OpId v = m_opOf[i];
        Op& op = g.mutableOp(v);
        op.timeSource = TimeSource::Estimated;
        if (m_folded[i]) {   // no kernel, no bytes moved
            op.work.opClass = OpClass::Alias;
            op.work.dtype = m_in[i].shape.dtype;
            return;
        }
        std::vector<const HloShape*> operands;
        std::set<std::size_t> distinct;
        double read = 0;
        for (std::size_t o : m_operands[i]) {
            operands.push_back(&m_in[o].shape);
            if (distinct.insert(o).second) read += m_in[o].shape.bytes;
        }
        const double flops = hloFlops(m_in[i], operands);
        op.duration = std::max(flops / kFlopsPerMicrosecond, (read + m_in[i].shape.bytes) / kBytesPerMicrosecond);
        op.work = hloWork(m_in[i], operands, flops, read);
    }

    const std::vector<HloInstruction>& m_in;
    const std::string& m_source;
    std::unordered_map<std::string, std::size_t> m_byName;
    std::vector<std::vector<std::size_t>> m_operands, m_readers;   ///< per instruction, by index
    std::vector<bool> m_folded;
    std::vector<Value> m_values;
    std::set<Buffer> m_inPlace;
    std::vector<OpId> m_opOf;
    /// Per op instruction: its first element's tensor (the rest follow it), or a folded op's 0-byte one.
    std::vector<TensorId> m_firstTensor;
};

} // namespace

LoadedGraph readHlo(std::string_view text, const std::string& source) {
    return HloGraphBuilder(parseHloModule(text, source), source).build();
}

} // namespace sl::io_detail

// SPDX-License-Identifier: MIT
// The HLO text writer of the hlo-step generator: XLA's printed form (typed operands, default
// layouts, `/*index=5*/` before every fifth operand), ids numbered like XLA's unique ids.
#include "core/generators/hlotrainingstep_emitter.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace sl::hlostep {
namespace {

template <typename T>
std::string commaList(const std::vector<T>& values) {
    std::string s;
    for (std::size_t i = 0; i < values.size(); ++i) s += (i ? "," : "") + std::to_string(values[i]);
    return s;
}

template <typename T>
std::string braced(const std::vector<T>& values) { return "{" + commaList(values) + "}"; }

/// A generator bug, not a user error: the module would not be valid HLO.
void require(bool ok, const std::string& what) {
    if (!ok) throw std::logic_error("hlo-step generator: " + what);
}

Shape arrayShape(const std::string& type, std::vector<long> dims) { return {.type = type, .dims = std::move(dims)}; }

/// Floating constants in their shortest round-trip float form (XLA prints `1e-05`, `0.125`, `-inf`).
std::string constantLiteral(const std::string& type, double value) {
    if (type == "pred") return value != 0 ? "true" : "false";
    if (type != "f32" && type != "bf16") return std::to_string(static_cast<long long>(value));
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value)).ptr;
    return std::string(buffer, end);
}

std::string printShapeAs(const Shape& s, bool withLayout) {
    if (!s.elements.empty()) {
        std::string out = "(";
        for (std::size_t i = 0; i < s.elements.size(); ++i)
            out += (i ? ", " : "") + std::string(i && i % 5 == 0 ? "/*index=" + std::to_string(i) + "*/" : "") +
                   printShapeAs(s.elements[i], withLayout);
        return out + ")";
    }
    std::string out = s.type + "[" + commaList(s.dims) + "]";
    if (!withLayout || s.dims.empty()) return out;
    if (!s.minorToMajor.empty()) return out + braced(s.minorToMajor);
    std::vector<int> defaultLayout;
    for (int d = static_cast<int>(s.dims.size()) - 1; d >= 0; --d) defaultLayout.push_back(d);
    return out + braced(defaultLayout);
}

/// The operand list as XLA prints it: `f32[16,120]{1,0} %dot.26, ...`.
std::string typedOperands(const std::vector<Value>& operands) {
    std::string out;
    for (std::size_t i = 0; i < operands.size(); ++i)
        out += (i ? ", " : "") + std::string(i && i % 5 == 0 ? "/*index=" + std::to_string(i) + "*/" : "") +
               printShape(operands[i].shape) + " %" + operands[i].name;
    return out;
}

std::string scalarComputation(const std::string& name, int firstId, const std::string& opcode) {
    const std::string x = "x." + std::to_string(firstId + 1), y = "y." + std::to_string(firstId + 2);
    return "%" + name + " (" + x + ": f32[], " + y + ": f32[]) -> f32[] {\n  %" + x + " = f32[] parameter(0)\n  %" + y +
           " = f32[] parameter(1)\n  ROOT %" + opcode + "." + std::to_string(firstId + 3) + " = f32[] " + opcode +
           "(f32[] %" + x + ", f32[] %" + y + ")\n}\n";
}

void requireSameDims(const Value& a, const Value& b, const std::string& opcode) {
    require(a.shape.elements.empty() && a.shape.dims == b.shape.dims,
            opcode + " of " + printShape(a.shape) + " %" + a.name + " and " + printShape(b.shape) + " %" + b.name);
}

} // namespace

std::string printShape(const Shape& s) { return printShapeAs(s, true); }

HloEmitter::HloEmitter(int tensorParallel, bool bf16) : m_tensorParallel(tensorParallel), m_bf16(bf16) {
    // The reducers every reduce, all-reduce and scatter applies, numbered first as in XLA's dumps.
    m_addComputation = "AddComputation." + std::to_string(m_nextId);
    m_computations = scalarComputation(m_addComputation, m_nextId, "add");
    m_nextId += 4;
    m_maxComputation = "MaxComputation." + std::to_string(m_nextId);
    m_computations += "\n" + scalarComputation(m_maxComputation, m_nextId, "maximum");
    m_nextId += 4;
}

std::string HloEmitter::nextName(const std::string& stem) { return stem + "." + std::to_string(m_nextId++); }

Value HloEmitter::emit(const std::string& opcode, Shape shape, const std::vector<Value>& operands, const std::string& attrs) {
    const std::string name = nextName(opcode);
    m_lines.push_back("  %" + name + " = " + printShape(shape) + " " + opcode + "(" + typedOperands(operands) + ")" + attrs);
    std::vector<std::string> reads;
    for (const Value& v : operands)
        if (!v.weight && std::find(reads.begin(), reads.end(), v.name) == reads.end()) reads.push_back(v.name);
    m_ops.emplace_back(name, std::move(reads));
    return {name, std::move(shape), false};
}

Value HloEmitter::parameter(Shape shape) {
    const int number = static_cast<int>(m_parameters.size());
    const Value p{nextName("p" + std::to_string(number)), std::move(shape), true};
    m_lines.push_back("  %" + p.name + " = " + printShape(p.shape) + " parameter(" + std::to_string(number) + ")");
    m_parameters.push_back(p);
    m_parameterNumbers[p.name] = number;
    return p;
}

int HloEmitter::parameterNumber(const Value& parameter) const {
    const auto it = m_parameterNumbers.find(parameter.name);
    require(it != m_parameterNumbers.end(), "'" + parameter.name + "' is not a parameter");
    return it->second;
}

Value HloEmitter::constant(const std::string& type, double value) {
    const Value c{nextName("constant"), arrayShape(type, {}), true};
    m_lines.push_back("  %" + c.name + " = " + type + "[] constant(" + constantLiteral(type, value) + ")");
    return c;
}

Value HloEmitter::iota(Shape shape, int dimension) {
    require(dimension >= 0 && dimension < static_cast<int>(shape.dims.size()), "iota dimension out of range");
    return emit("iota", std::move(shape), {}, ", iota_dimension=" + std::to_string(dimension));
}

Value HloEmitter::broadcast(const Value& x, std::vector<long> dims, std::vector<int> mapping) {
    require(mapping.size() == x.shape.dims.size(), "broadcast of %" + x.name + ": one mapped dimension per operand dimension");
    for (std::size_t i = 0; i < mapping.size(); ++i)
        require(mapping[i] >= 0 && mapping[i] < static_cast<int>(dims.size()) && dims[static_cast<std::size_t>(mapping[i])] == x.shape.dims[i] &&
                    (i == 0 || mapping[i] > mapping[i - 1]),
                "broadcast of %" + x.name + ": dimensions=" + braced(mapping) + " do not map onto [" + commaList(dims) + "]");
    return emit("broadcast", arrayShape(x.shape.type, std::move(dims)), {x}, ", dimensions=" + braced(mapping));
}

Value HloEmitter::splat(double value, const std::vector<long>& dims, const std::string& type) {
    return broadcast(constant(type, value), dims, {});
}

Value HloEmitter::reshape(const Value& x, std::vector<long> dims) {
    long from = 1, to = 1;
    for (long d : x.shape.dims) from *= d;
    for (long d : dims) to *= d;
    require(from == to, "reshape of %" + x.name + " changes the element count");
    // Only bitcast reshapes: a non-default layout would make the reader (and XLA) copy.
    require(x.shape.minorToMajor.empty(), "reshape of %" + x.name + ", which is not in the default layout");
    return emit("reshape", arrayShape(x.shape.type, std::move(dims)), {x}, "");
}

Value HloEmitter::transpose(const Value& x, const std::vector<int>& permutation) {
    const std::size_t rank = x.shape.dims.size();
    require(permutation.size() == rank && x.shape.minorToMajor.empty(), "transpose of %" + x.name);
    Shape out = arrayShape(x.shape.type, {});
    std::vector<int> inverse(rank, -1);
    for (std::size_t i = 0; i < rank; ++i) {
        const int from = permutation[i];
        require(from >= 0 && from < static_cast<int>(rank) && inverse[static_cast<std::size_t>(from)] < 0, "transpose permutation " + braced(permutation));
        out.dims.push_back(x.shape.dims[static_cast<std::size_t>(from)]);
        inverse[static_cast<std::size_t>(from)] = static_cast<int>(i);
    }
    // The operand's minor-most dimension stays minor-most: the output's layout lists, minor to
    // major, where each operand dimension went.
    for (std::size_t k = 0; k < rank; ++k) out.minorToMajor.push_back(inverse[rank - 1 - k]);
    bool identity = true;
    for (std::size_t k = 0; k < rank; ++k) identity = identity && out.minorToMajor[k] == static_cast<int>(rank - 1 - k);
    if (identity) out.minorToMajor.clear();
    return emit("transpose", std::move(out), {x}, ", dimensions=" + braced(permutation));
}

Value HloEmitter::convert(const Value& x, const std::string& type) {
    return emit("convert", arrayShape(type, x.shape.dims), {x}, "");
}

Value HloEmitter::gatherRows(const Value& table, const Value& ids) {
    require(table.shape.dims.size() == 2 && ids.shape.dims.size() == 1, "gather of %" + table.name);
    const long width = table.shape.dims[1];
    return emit("gather", arrayShape(table.shape.type, {ids.shape.dims[0], width}), {table, ids},
                ", offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1," +
                    std::to_string(width) + "}");
}

Value HloEmitter::scatterAddRows(const Value& base, const Value& ids, const Value& updates) {
    require(base.shape.dims.size() == 2 && ids.shape.dims.size() == 1 && updates.shape.dims.size() == 2 &&
                updates.shape.dims[0] == ids.shape.dims[0] && updates.shape.dims[1] == base.shape.dims[1],
            "scatter into %" + base.name);
    return emit("scatter", arrayShape(base.shape.type, base.shape.dims), {base, ids, updates},
                ", update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=%" +
                    m_addComputation);
}

Value HloEmitter::unary(const std::string& opcode, const Value& x) {
    return emit(opcode, arrayShape(x.shape.type, x.shape.dims), {x}, "");
}

Value HloEmitter::binary(const std::string& opcode, const Value& a, const Value& b) {
    requireSameDims(a, b, opcode);
    require(a.shape.type == b.shape.type, opcode + " of " + a.shape.type + " and " + b.shape.type);
    return emit(opcode, arrayShape(a.shape.type, a.shape.dims), {a, b}, "");
}

Value HloEmitter::scaled(const Value& x, double factor) {
    return binary("multiply", x, splat(factor, x.shape.dims, x.shape.type));
}

Value HloEmitter::compare(const Value& a, const Value& b, const std::string& direction) {
    requireSameDims(a, b, "compare");
    require(a.shape.type == b.shape.type, "compare of " + a.shape.type + " and " + b.shape.type);
    return emit("compare", arrayShape("pred", a.shape.dims), {a, b}, ", direction=" + direction);
}

Value HloEmitter::select(const Value& mask, const Value& onTrue, const Value& onFalse) {
    requireSameDims(mask, onTrue, "select");
    requireSameDims(onTrue, onFalse, "select");
    require(mask.shape.type == "pred" && onTrue.shape.type == onFalse.shape.type, "select of %" + onTrue.name);
    return emit("select", arrayShape(onTrue.shape.type, onTrue.shape.dims), {mask, onTrue, onFalse}, "");
}

Value HloEmitter::dot(const Value& lhs, const Value& rhs, const DotDims& d) {
    const auto& l = lhs.shape.dims;
    const auto& r = rhs.shape.dims;
    const std::string what = "dot of %" + lhs.name + " and %" + rhs.name;
    require(lhs.shape.type == rhs.shape.type, what + ": element types differ");
    require(d.lhsBatch.size() == d.rhsBatch.size() && d.lhsContracting.size() == d.rhsContracting.size(), what + ": dimension lists differ in length");
    const auto size = [&](const std::vector<long>& dims, int i) {
        require(i >= 0 && i < static_cast<int>(dims.size()), what + ": dimension " + std::to_string(i) + " out of range");
        return dims[static_cast<std::size_t>(i)];
    };
    for (std::size_t i = 0; i < d.lhsBatch.size(); ++i) require(size(l, d.lhsBatch[i]) == size(r, d.rhsBatch[i]), what + ": batch sizes differ");
    for (std::size_t i = 0; i < d.lhsContracting.size(); ++i)
        require(size(l, d.lhsContracting[i]) == size(r, d.rhsContracting[i]), what + ": contracting sizes differ");
    // HLO's result: batch dimensions, then lhs's free dimensions, then rhs's, each in order.
    Shape out = arrayShape(lhs.shape.type, {});
    for (int b : d.lhsBatch) out.dims.push_back(size(l, b));
    const auto appendFree = [&](const std::vector<long>& dims, const std::vector<int>& batch, const std::vector<int>& contracting) {
        for (int i = 0; i < static_cast<int>(dims.size()); ++i)
            if (std::find(batch.begin(), batch.end(), i) == batch.end() && std::find(contracting.begin(), contracting.end(), i) == contracting.end())
                out.dims.push_back(dims[static_cast<std::size_t>(i)]);
    };
    appendFree(l, d.lhsBatch, d.lhsContracting);
    appendFree(r, d.rhsBatch, d.rhsContracting);
    std::string attrs;
    if (!d.lhsBatch.empty()) attrs += ", lhs_batch_dims=" + braced(d.lhsBatch);
    attrs += ", lhs_contracting_dims=" + braced(d.lhsContracting);
    if (!d.rhsBatch.empty()) attrs += ", rhs_batch_dims=" + braced(d.rhsBatch);
    attrs += ", rhs_contracting_dims=" + braced(d.rhsContracting);
    return emit("dot", std::move(out), {lhs, rhs}, attrs);
}

Value HloEmitter::matmulOperand(const Value& x) {
    if (!m_bf16 || x.shape.type != "f32") return x;
    const auto it = m_matmulCopies.find(x.name);
    if (it != m_matmulCopies.end()) return it->second;
    return m_matmulCopies[x.name] = convert(x, "bf16");
}

Value HloEmitter::matmul(const Value& lhs, const Value& rhs, const DotDims& dims, bool f32Result) {
    const Value product = dot(matmulOperand(lhs), matmulOperand(rhs), dims);
    return f32Result && product.shape.type != "f32" ? convert(product, "f32") : product;
}

std::string HloEmitter::reducerName(Reducer r) const { return r == Reducer::Add ? m_addComputation : m_maxComputation; }

Value HloEmitter::reduce(const Value& x, const std::vector<int>& dimensions, Reducer reducer) {
    require(x.shape.type == "f32", "reduce of %" + x.name + ": the reducers are f32");
    Shape out = arrayShape("f32", {});
    for (int i = 0; i < static_cast<int>(x.shape.dims.size()); ++i)
        if (std::find(dimensions.begin(), dimensions.end(), i) == dimensions.end()) out.dims.push_back(x.shape.dims[static_cast<std::size_t>(i)]);
    require(out.dims.size() + dimensions.size() == x.shape.dims.size(), "reduce of %" + x.name + ": dimensions=" + braced(dimensions));
    const Value init = constant("f32", reducer == Reducer::Add ? 0.0 : -INFINITY);
    return emit("reduce", std::move(out), {x, init}, ", dimensions=" + braced(dimensions) + ", to_apply=%" + reducerName(reducer));
}

Value HloEmitter::collectiveToken() {
    const Shape scalar = arrayShape("f32", {});
    // The first collective reads a scalar parameter; each later one the token its predecessor returned.
    if (m_lastAllReduce) return emit("get-tuple-element", scalar, {*m_lastAllReduce}, ", index=1");
    return parameter(scalar);
}

Value HloEmitter::allReduce(const Value& x) {
    require(m_tensorParallel > 1, "all-reduce without tensor parallelism");
    const Value token = collectiveToken();
    std::vector<int> group;
    for (int r = 0; r < m_tensorParallel; ++r) group.push_back(r);
    const Shape pair{.type = "f32", .elements = {arrayShape(x.shape.type, x.shape.dims), token.shape}};
    m_lastAllReduce = emit("all-reduce", pair, {x, token}, ", replica_groups={" + braced(group) + "}, to_apply=%" + m_addComputation);
    return emit("get-tuple-element", arrayShape(x.shape.type, x.shape.dims), {*m_lastAllReduce}, ", index=0");
}

void HloEmitter::root(const std::vector<Value>& outputs, const std::vector<std::pair<int, int>>& aliases) {
    require(!m_rootShape, "a second ROOT");
    Shape shape{.type = "f32"};
    for (const Value& v : outputs) shape.elements.push_back(v.shape);
    emit("tuple", shape, outputs, "");
    m_lines.back().insert(2, "ROOT ");
    m_rootShape = shape;
    m_aliases = aliases;
}

std::string HloEmitter::moduleText() const {
    require(m_rootShape.has_value(), "no ROOT instruction");
    const std::string entry = "SyncTensorsGraph." + std::to_string(m_nextId);
    std::string text = "HloModule " + entry;
    if (!m_aliases.empty()) {
        text += ", input_output_alias={ ";
        for (std::size_t i = 0; i < m_aliases.size(); ++i)
            text += (i ? ", " : "") + std::string("{") + std::to_string(m_aliases[i].first) + "}: (" +
                    std::to_string(m_aliases[i].second) + ", {}, must-alias)";
        text += " }";
    }
    text += "\n\n" + m_computations + "\nENTRY %" + entry + " (";
    for (std::size_t i = 0; i < m_parameters.size(); ++i)
        text += (i ? ", " : "") + std::string(i && i % 5 == 0 ? "/*index=" + std::to_string(i) + "*/" : "") + m_parameters[i].name + ": " +
                printShapeAs(m_parameters[i].shape, false);
    text += ") -> " + printShapeAs(*m_rootShape, false) + " {\n";
    for (const std::string& line : m_lines) text += line + "\n";
    return text + "}\n";
}

} // namespace sl::hlostep

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// Writes the ENTRY computation of one HLO text module, instruction by instruction, for the
/// hlo-step generator (core/generators/hlotrainingstep.h; private to core/generators). Each method
/// appends one instruction in XLA's printed form, checks that the shapes agree (a generator bug
/// throws std::logic_error instead of writing a module XLA would reject) and records it as an op
/// of the graph the HLO reader makes: parameters and constants are weights, not ops.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sl::hlostep {

/// An HLO shape: an array (element type, dims, layout) or a tuple of arrays.
struct Shape {
    std::string type = "f32";          ///< f32, bf16, s32, s64, pred
    std::vector<long> dims;
    std::vector<int> minorToMajor;     ///< empty: the default layout {n-1,...,0}
    std::vector<Shape> elements;       ///< a tuple's; empty for an array
};

/// An instruction's result as its readers name it.
struct Value {
    std::string name;
    Shape shape;
    bool weight = false;   ///< a parameter or a constant: the reader makes it no op
};

struct DotDims {
    std::vector<int> lhsBatch, lhsContracting, rhsBatch, rhsContracting;
};

enum class Reducer { Add, Max };

/// The printed shape: `f32[16,120]{1,0}`, `f32[]`, `(f32[10]{0}, f32[])`.
std::string printShape(const Shape& s);

class HloEmitter {
public:
    HloEmitter(int tensorParallel, bool bf16);

    // ---- weights and sources ----
    Value parameter(Shape shape);
    int parameterNumber(const Value& parameter) const;
    Value constant(const std::string& type, double value);
    Value iota(Shape shape, int dimension);

    // ---- data movement ----
    Value broadcast(const Value& x, std::vector<long> dims, std::vector<int> mapping);
    /// A scalar constant broadcast to `dims` (a loop fusion's operand once XLA fuses it).
    Value splat(double value, const std::vector<long>& dims, const std::string& type = "f32");
    Value reshape(const Value& x, std::vector<long> dims);
    /// Prints the result in the layout that makes the transpose a bitcast, as XLA does.
    Value transpose(const Value& x, const std::vector<int>& permutation);
    Value convert(const Value& x, const std::string& type);
    /// Rows `ids` of `table` [rows, width]: [ids, width].
    Value gatherRows(const Value& table, const Value& ids);
    /// `base` [rows, width] with `updates` [ids, width] added at rows `ids`.
    Value scatterAddRows(const Value& base, const Value& ids, const Value& updates);

    // ---- compute ----
    Value unary(const std::string& opcode, const Value& x);
    Value binary(const std::string& opcode, const Value& a, const Value& b);
    /// x * factor, the factor a broadcast scalar constant.
    Value scaled(const Value& x, double factor);
    Value compare(const Value& a, const Value& b, const std::string& direction);
    Value select(const Value& mask, const Value& onTrue, const Value& onFalse);
    Value dot(const Value& lhs, const Value& rhs, const DotDims& dims);
    /// A dot in the matmul type (bf16 under mixed precision): operands converted once each;
    /// the result back in f32 when `f32Result`.
    Value matmul(const Value& lhs, const Value& rhs, const DotDims& dims, bool f32Result = true);
    /// `x` in the matmul type: itself, or its bf16 copy (converted once, then reused).
    Value matmulOperand(const Value& x);
    /// bf16 under mixed precision, else f32.
    std::string matmulType() const { return m_bf16 ? "bf16" : "f32"; }
    /// Reduces `dimensions` away (f32 only: the module's two reducer computations are f32).
    Value reduce(const Value& x, const std::vector<int>& dimensions, Reducer reducer);
    /// Sums `x` over the tensor-parallel group: PyTorch/XLA's tuple form, whose scalar second
    /// element orders the collectives (a token chained from one all-reduce to the next).
    Value allReduce(const Value& x);

    // ---- the module ----
    /// The ROOT tuple; `aliases` pairs an output index with the parameter it updates in place.
    void root(const std::vector<Value>& outputs, const std::vector<std::pair<int, int>>& aliases);
    std::string moduleText() const;
    const std::vector<std::pair<std::string, std::vector<std::string>>>& ops() const { return m_ops; }
    int tensorParallel() const { return m_tensorParallel; }

private:
    Value emit(const std::string& opcode, Shape shape, const std::vector<Value>& operands, const std::string& attrs);
    std::string nextName(const std::string& stem);
    Value collectiveToken();
    std::string reducerName(Reducer r) const;

    int m_tensorParallel;
    bool m_bf16;
    int m_nextId = 1;
    std::string m_addComputation, m_maxComputation, m_computations;
    std::vector<std::string> m_lines;
    std::vector<std::pair<std::string, std::vector<std::string>>> m_ops;
    std::vector<Value> m_parameters;                 ///< by parameter number
    std::map<std::string, int> m_parameterNumbers;
    std::map<std::string, Value> m_matmulCopies;     ///< f32 value -> its bf16 copy
    std::optional<Value> m_lastAllReduce;
    std::vector<std::pair<int, int>> m_aliases;
    std::optional<Shape> m_rootShape;
};

} // namespace sl::hlostep

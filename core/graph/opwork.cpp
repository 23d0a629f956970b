// SPDX-License-Identifier: MIT
#include "core/graph/opwork.h"

#include <array>
#include <utility>

namespace sl {
namespace {

template <typename E, std::size_t N>
std::string_view nameOf(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
    for (const auto& [e, name] : table)
        if (e == value) return name;
    return "unknown";
}

template <typename E, std::size_t N>
bool parseName(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view text, E& out) {
    for (const auto& [e, name] : table)
        if (name == text) {
            out = e;
            return true;
        }
    return false;
}

constexpr std::array<std::pair<DType, std::string_view>, 12> kDTypes{{
    {DType::Unknown, "unknown"}, {DType::F64, "fp64"}, {DType::F32, "fp32"}, {DType::TF32, "tf32"},
    {DType::F16, "fp16"}, {DType::BF16, "bf16"}, {DType::F8, "fp8"}, {DType::I64, "int64"},
    {DType::I32, "int32"}, {DType::I16, "int16"}, {DType::I8, "int8"}, {DType::Bool, "bool"}}};

constexpr std::array<std::pair<OpClass, std::string_view>, 10> kClasses{{
    {OpClass::Unknown, "unknown"}, {OpClass::Matmul, "matmul"}, {OpClass::Conv, "conv"},
    {OpClass::Elementwise, "elementwise"}, {OpClass::Reduction, "reduction"}, {OpClass::Normalization, "normalization"},
    {OpClass::Movement, "movement"}, {OpClass::Alias, "alias"}, {OpClass::Collective, "collective"},
    {OpClass::Other, "other"}}};

constexpr std::array<std::pair<Collective, std::string_view>, 7> kCollectives{{
    {Collective::None, "none"}, {Collective::AllReduce, "all-reduce"}, {Collective::AllGather, "all-gather"},
    {Collective::ReduceScatter, "reduce-scatter"}, {Collective::AllToAll, "all-to-all"},
    {Collective::Permute, "collective-permute"}, {Collective::Broadcast, "broadcast"}}};

constexpr std::array<std::pair<TimeSource, std::string_view>, 3> kSources{{
    {TimeSource::Given, "given"}, {TimeSource::Estimated, "estimated"}, {TimeSource::Measured, "measured"}}};

} // namespace

std::string_view toString(DType t) { return nameOf(kDTypes, t); }
std::string_view toString(OpClass c) { return nameOf(kClasses, c); }
std::string_view toString(Collective c) { return nameOf(kCollectives, c); }
std::string_view toString(TimeSource s) { return nameOf(kSources, s); }
bool parseDType(std::string_view text, DType& out) { return parseName(kDTypes, text, out); }
bool parseOpClass(std::string_view text, OpClass& out) { return parseName(kClasses, text, out); }
bool parseCollective(std::string_view text, Collective& out) { return parseName(kCollectives, text, out); }
bool parseTimeSource(std::string_view text, TimeSource& out) { return parseName(kSources, text, out); }

double elementBytes(DType t) {
    switch (t) {
    case DType::F64:
    case DType::I64: return 8;
    case DType::F32:
    case DType::TF32:
    case DType::I32: return 4;
    case DType::F16:
    case DType::BF16:
    case DType::I16: return 2;
    case DType::F8:
    case DType::I8:
    case DType::Bool: return 1;
    case DType::Unknown: return 0;
    }
    return 0;
}

} // namespace sl

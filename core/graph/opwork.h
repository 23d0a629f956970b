// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// What an op computes, as far as timing it on a device needs: its class, element type, FLOPs and
/// bytes moved. The ONNX, HLO and Chakra readers fill it from shapes and dtypes; a device model
/// (core/timing) turns it into a duration on each device. Graphs without shapes (STG, job-shop,
/// WfCommons, DOT) leave it unknown and keep the durations of their file.

#include <cstdint>
#include <string_view>

namespace sl {

/// Element type of the op's arithmetic. TF32 only when the source says so (ONNX and HLO fp32 ops
/// are F32: frameworks choose TF32 per run, docs/time.md).
enum class DType : std::uint8_t { Unknown, F64, F32, TF32, F16, BF16, F8, I64, I32, I16, I8, Bool };

/// Which unit of a device runs the op: Matmul and Conv run on the matrix (tensor-core) unit when the
/// device has one for the dtype; the others on the vector unit or the memory system.
enum class OpClass : std::uint8_t {
    Unknown,         ///< no work known: the op keeps its file's duration
    Matmul,          ///< dot, MatMul, Gemm, batched matmul
    Conv,            ///< convolutions (and their transposes)
    Elementwise,     ///< add, mul, relu, exp, ... one pass over the output
    Reduction,       ///< reductions, pooling, softmax
    Normalization,   ///< batch/layer/instance norm
    Movement,        ///< copies, transposes, gathers, concatenations: bytes only
    Alias,           ///< reshape, bitcast, get-tuple-element: no kernel, no bytes moved
    Collective,      ///< all-reduce, all-gather, ...: a network algorithm over the group's links
    Other,           ///< a kernel we cannot classify (custom calls): roofline on the vector unit
};

enum class Collective : std::uint8_t { None, AllReduce, AllGather, ReduceScatter, AllToAll, Permute, Broadcast };

struct OpWork {
    OpClass opClass = OpClass::Unknown;
    DType dtype = DType::Unknown;
    double flops = 0;          ///< floating-point (or integer) operations, multiply-add = 2
    double bytesRead = 0;      ///< input and weight bytes the kernel reads
    double bytesWritten = 0;   ///< output bytes it writes
    Collective collective = Collective::None;
    int groupSize = 0;         ///< collectives: ranks taking part (0: every device of the platform)
    double commBytes = 0;      ///< collectives: the buffer each rank contributes (see docs/time.md)

    bool known() const { return opClass != OpClass::Unknown; }
    bool operator==(const OpWork&) const = default;
};

/// Where an op's duration came from.
enum class TimeSource : std::uint8_t {
    Given,       ///< the file's own duration (STG, job-shop, native JSON, a Chakra trace's measurement)
    Estimated,   ///< a device model's roofline estimate from OpWork
    Measured,    ///< a profile applied to the graph (schedlab-cli profile, ONNX Runtime)
};

/// Lower-case names used in files and on screen: "fp32", "bf16", "matmul", "all-reduce", "measured", ...
std::string_view toString(DType t);
std::string_view toString(OpClass c);
std::string_view toString(Collective c);
std::string_view toString(TimeSource s);
/// Inverses; false for an unknown spelling (the caller names the file and field).
bool parseDType(std::string_view text, DType& out);
bool parseOpClass(std::string_view text, OpClass& out);
bool parseCollective(std::string_view text, Collective& out);
bool parseTimeSource(std::string_view text, TimeSource& out);
/// Bytes per element (TF32 is stored as 4); 0 for Unknown.
double elementBytes(DType t);

} // namespace sl

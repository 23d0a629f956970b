// SPDX-License-Identifier: MIT
// libFuzzer target: the ONNX reader (sl::parseGraph with GraphFormat::Onnx), structure-aware.
// Byte flips mostly make protobuf refuse the model, so the custom mutator below decodes the
// ModelProto, changes one field of the graph and re-encodes it (onnxmutator.h): the reader then
// sees models that parse but lie (cycles, dangling names, odd shapes and types, bad attributes).
// libprotobuf-mutator would do this generically but is not packaged in Debian 12.
#include "fuzzgraph.h"
#include "onnxmutator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return sl::fuzz::fuzzGraph(data, size, sl::GraphFormat::Onnx);
}

extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed) {
    // one mutation in eight stays byte-level, so the protobuf decoder itself is exercised too
    if (seed % 8 == 0) return LLVMFuzzerMutate(data, size, maxSize);
    const std::size_t out = sl::fuzz::mutateOnnxModel(data, size, maxSize, seed);
    return out ? out : LLVMFuzzerMutate(data, size, maxSize);
}

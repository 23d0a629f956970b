// SPDX-License-Identifier: MIT
#pragma once
// A structure-aware mutation for ONNX models: decode, change one thing, re-encode.

#include <cstddef>
#include <cstdint>

namespace sl::fuzz {

/// Decodes `data` as an onnx::ModelProto, applies one random field mutation chosen by `seed` and
/// writes the re-encoded model back into `data`. Returns its size, or 0 when `data` is not a model
/// or the result would exceed `maxSize` (the caller then falls back to byte mutation).
std::size_t mutateOnnxModel(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed);

} // namespace sl::fuzz

// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// The weight-file format, torch-free: parsing and checking every byte of a file before any model
/// is built from it, and encoding one. models/encoder/weights.cpp moves tensors in and out of
/// LibTorch modules on top of it; tests/fuzz/fuzz_weights.cpp fuzzes it without LibTorch.
///
/// Layout (little-endian, as written on x86-64): magic "SLWT", u32 format version, kind and config
/// JSON (u32 length + bytes each), u32 tensor count, then per tensor: name (u32 length + bytes),
/// u32 rank, i64 per dimension, float32 data; version 2 ends with an FNV-1a/64 checksum of
/// everything before it.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sl::models {

/// Current weight-file format version. Files carry it; loading a newer one fails with a message.
/// Version 2 appends a checksum of everything before it; version 1 files (no checksum) still load.
inline constexpr int kWeightFormatVersion = 2;

/// Bounds of any stored configuration: far above what we train, far below what would exhaust memory.
inline constexpr int kMaxLayers = 64;
inline constexpr int kMaxWidth = 8192;
inline constexpr int kMaxHeads = 64;
/// Throws std::invalid_argument("<what> N is above the bound M") when value > bound.
void requireAtMost(const char* what, long long value, long long bound);

/// Header of a weight file, without the tensors.
struct WeightFileInfo {
    int formatVersion = 0;
    std::string kind;
    std::string configJson;
    std::int64_t storedFloats = 0;   ///< all tensors' elements together
};

/// One tensor's name, shape and where its float32 data is in the file's bytes.
struct StoredTensor {
    std::vector<std::int64_t> shape;
    std::size_t offset = 0;
    std::int64_t numel = 0;
};

/// A whole file, checked: magic, version, checksum, sizes against the bytes present, no duplicate
/// names, no trailing bytes, every value finite.
struct WeightFile {
    WeightFileInfo info;
    std::map<std::string, StoredTensor> tensors;
    std::string bytes;   ///< the file without its checksum; StoredTensor::offset indexes it
    std::string path;    ///< names the file in messages
    const char* data(const StoredTensor& t) const { return bytes.data() + t.offset; }   ///< float32, maybe unaligned
};

/// Parses `bytes` (the content of `path`, which only names it in messages). Throws
/// std::runtime_error, one line: "weights '<path>': <fault>". Allocates nothing beyond `bytes`
/// and the tensor index before every size has been checked against the bytes present.
WeightFile parseWeightFile(std::string bytes, const std::string& path);
/// Reads (at most 1 GiB) and parses `path`.
WeightFile readWeightFile(const std::string& path);
/// The header of `path` after checking the whole file, so that a model is never built from the
/// config of a damaged file.
WeightFileInfo readWeightInfo(const std::string& path);

/// Refuses a config whose model has at least `minimumParameters` values when the file stores
/// fewer: a small crafted file must not make a loader allocate gigabytes for a model it cannot
/// fill. Throws std::runtime_error naming the file.
void requireFileHolds(const WeightFileInfo& info, std::int64_t minimumParameters, const std::string& path);

/// One tensor to write: row-major float32 values of `shape`.
struct TensorToWrite {
    std::string name;
    std::vector<std::int64_t> shape;
    const float* values = nullptr;
};
/// The bytes of a current-version file (checksum included).
std::string encodeWeightFile(const std::string& kind, const std::string& configJson,
                             const std::vector<TensorToWrite>& tensors);

/// FNV-1a/64 of `bytes`, the version-2 checksum.
std::uint64_t weightChecksum(const std::string& bytes);

} // namespace sl::models

// SPDX-License-Identifier: MIT
#include "models/weightformat.h"

#include "core/util/atomicfile.h"
#include "core/util/fnv.h"

#include <cmath>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace sl::models {

namespace {

constexpr char kMagic[4] = {'S', 'L', 'W', 'T'};
// Bounds checked before anything is allocated: a crafted header fails in microseconds.
constexpr std::uint32_t kMaxKindBytes = 256;
constexpr std::uint32_t kMaxConfigBytes = 1 << 20;
constexpr std::uint32_t kMaxTensorNameBytes = 1024;
constexpr std::uint32_t kMaxTensors = 100'000;
constexpr std::uint32_t kMaxRank = 8;
constexpr std::size_t kMaxFileBytes = std::size_t(1) << 30;

void putU32(std::string& out, std::uint32_t x) { out.append(reinterpret_cast<const char*>(&x), 4); }
void putI64(std::string& out, std::int64_t x) { out.append(reinterpret_cast<const char*>(&x), 8); }
void putU64(std::string& out, std::uint64_t x) { out.append(reinterpret_cast<const char*>(&x), 8); }
void putString(std::string& out, const std::string& s) {
    putU32(out, static_cast<std::uint32_t>(s.size()));
    out += s;
}

/// Reads the fields of a file in order; every read is checked against the bytes left.
class Reader {
public:
    Reader(std::string& data, const std::string& path) : m_data(data), m_path(path) {}
    void bytes(void* dst, std::size_t n) {
        if (n > remaining()) fail("truncated file");
        std::memcpy(dst, m_data.data() + m_pos, n);
        m_pos += n;
    }
    std::uint32_t u32() {
        std::uint32_t x;
        bytes(&x, 4);
        return x;
    }
    std::int64_t i64() {
        std::int64_t x;
        bytes(&x, 8);
        return x;
    }
    std::string string(std::uint32_t maxBytes, const char* what) {
        const std::uint32_t n = u32();
        if (n > maxBytes) fail(std::string(what) + " of " + std::to_string(n) + " bytes (at most " + std::to_string(maxBytes) + ")");
        if (n > remaining()) fail("truncated file");
        std::string s = m_data.substr(m_pos, n);
        m_pos += n;
        return s;
    }
    void skip(std::size_t n) {
        if (n > remaining()) fail("truncated file");
        m_pos += n;
    }
    std::size_t remaining() const { return m_data.size() - m_pos; }
    std::size_t position() const { return m_pos; }
    /// Drops the trailing checksum of a version-2 file after verifying it.
    void verifyAndDropChecksum() {
        if (m_data.size() < m_pos + 8) fail("truncated file");
        std::uint64_t stored;
        std::memcpy(&stored, m_data.data() + m_data.size() - 8, 8);
        m_data.resize(m_data.size() - 8);
        if (weightChecksum(m_data) != stored) fail("checksum mismatch (the file is damaged)");
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error("weights '" + m_path + "': " + what);
    }

private:
    std::string& m_data;
    const std::string& m_path;
    std::size_t m_pos = 0;
};

/// Reads the header; a version-2 file's checksum is verified (and removed) first.
WeightFileInfo readHeader(Reader& r) {
    char magic[4];
    r.bytes(magic, 4);
    if (std::memcmp(magic, kMagic, 4) != 0) r.fail("not a SchedLab weight file");
    WeightFileInfo info;
    const std::uint32_t version = r.u32();
    if (version > std::uint32_t(kWeightFormatVersion) || version < 1)
        r.fail("format version " + std::to_string(version) + " (this build reads 1 to " +
               std::to_string(kWeightFormatVersion) + ")");
    info.formatVersion = static_cast<int>(version);
    if (info.formatVersion >= 2) r.verifyAndDropChecksum();
    info.kind = r.string(kMaxKindBytes, "a model kind");
    info.configJson = r.string(kMaxConfigBytes, "a configuration");
    return info;
}

StoredTensor readTensorShape(Reader& r, const std::string& name) {
    const std::uint32_t dims = r.u32();
    if (dims > kMaxRank) r.fail("tensor '" + name + "' has rank " + std::to_string(dims) + " (at most " + std::to_string(kMaxRank) + ")");
    StoredTensor t;
    t.numel = 1;
    for (std::uint32_t d = 0; d < dims; ++d) {
        const std::int64_t s = r.i64();
        if (s < 0 || s > std::int64_t(r.remaining())) r.fail("tensor '" + name + "' has a bad shape");
        t.shape.push_back(s);
        if (s != 0 && t.numel > std::int64_t(kMaxFileBytes) / s) r.fail("tensor '" + name + "' is larger than the file");
        t.numel *= s;
    }
    return t;
}

/// Every tensor's name, shape and place, checked against the bytes that are really there; refuses
/// duplicate names and trailing bytes.
std::map<std::string, StoredTensor> readTensorIndex(Reader& r, std::int64_t& storedFloats) {
    std::map<std::string, StoredTensor> index;
    const std::uint32_t count = r.u32();
    if (count > kMaxTensors) r.fail(std::to_string(count) + " tensors (at most " + std::to_string(kMaxTensors) + ")");
    storedFloats = 0;
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name = r.string(kMaxTensorNameBytes, "a tensor name");
        StoredTensor t = readTensorShape(r, name);
        const auto bytes = static_cast<std::size_t>(t.numel) * sizeof(float);
        if (bytes > r.remaining()) r.fail("tensor '" + name + "' is larger than the rest of the file (truncated?)");
        t.offset = r.position();
        r.skip(bytes);
        storedFloats += t.numel;
        if (index.count(name)) r.fail("tensor '" + name + "' appears twice");
        index.emplace(std::move(name), std::move(t));
    }
    if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " unexpected bytes after the last tensor");
    return index;
}

} // namespace

void requireAtMost(const char* what, long long value, long long bound) {
    if (value > bound)
        throw std::invalid_argument(std::string(what) + " " + std::to_string(value) + " is above the bound " + std::to_string(bound));
}

std::uint64_t weightChecksum(const std::string& bytes) { return fnv1a64(bytes); }

WeightFile parseWeightFile(std::string bytes, const std::string& path) {
    WeightFile file;
    file.bytes = std::move(bytes);
    file.path = path;
    Reader r(file.bytes, path);
    file.info = readHeader(r);
    file.tensors = readTensorIndex(r, file.info.storedFloats);
    for (const auto& [name, t] : file.tensors) {
        float x;   // the data may be unaligned: copy each value out
        for (std::int64_t i = 0; i < t.numel; ++i) {
            std::memcpy(&x, file.bytes.data() + t.offset + static_cast<std::size_t>(i) * sizeof(float), sizeof(float));
            if (!std::isfinite(x)) r.fail("tensor '" + name + "' holds NaN or infinite values");
        }
    }
    return file;
}

WeightFile readWeightFile(const std::string& path) {
    if (!std::filesystem::exists(path)) throw std::runtime_error("weights '" + path + "': no such file");
    std::string bytes;
    try {
        bytes = readFile(path, kMaxFileBytes);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("weights ") + e.what());
    }
    return parseWeightFile(std::move(bytes), path);
}

WeightFileInfo readWeightInfo(const std::string& path) { return readWeightFile(path).info; }

void requireFileHolds(const WeightFileInfo& info, std::int64_t minimumParameters, const std::string& path) {
    if (minimumParameters > info.storedFloats)
        throw std::runtime_error("weights '" + path + "': its configuration describes a model of at least " +
                                 std::to_string(minimumParameters) + " values, but the file stores " +
                                 std::to_string(info.storedFloats));
}

std::string encodeWeightFile(const std::string& kind, const std::string& configJson,
                             const std::vector<TensorToWrite>& tensors) {
    std::string out(kMagic, 4);
    putU32(out, kWeightFormatVersion);
    putString(out, kind);
    putString(out, configJson);
    putU32(out, static_cast<std::uint32_t>(tensors.size()));
    for (const TensorToWrite& t : tensors) {
        putString(out, t.name);
        putU32(out, static_cast<std::uint32_t>(t.shape.size()));
        std::int64_t numel = 1;
        for (const std::int64_t s : t.shape) {
            putI64(out, s);
            numel *= s;
        }
        out.append(reinterpret_cast<const char*>(t.values), static_cast<std::size_t>(numel) * sizeof(float));
    }
    putU64(out, weightChecksum(out));
    return out;
}

} // namespace sl::models

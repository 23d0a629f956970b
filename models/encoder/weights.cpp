// SPDX-License-Identifier: MIT
// Weight files (a small versioned binary format of named float32 tensors) and model cards.
#include "models/encoder/encoder.h"

#include "core/util/atomicfile.h"
#include "core/util/fnv.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

namespace sl::models {

namespace {

constexpr char kMagic[4] = {'S', 'L', 'W', 'T'};
// Bounds checked before anything is allocated: a crafted header fails in microseconds.
constexpr std::uint32_t kMaxKindBytes = 256;
constexpr std::uint32_t kMaxConfigBytes = 1 << 20;
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

/// Catches flipped and truncated bytes.
std::uint64_t checksum(std::string_view bytes) {
    return fnv1a64(bytes);
}

class Reader {
public:
    Reader(std::string data, std::string path) : m_data(std::move(data)), m_path(std::move(path)) {}
    void bytes(void* dst, size_t n) {
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
    const std::string& data() const { return m_data; }
    /// Drops the trailing checksum of a version-2 file after verifying it.
    void verifyAndDropChecksum() {
        if (m_data.size() < m_pos + 8) fail("truncated file");
        std::uint64_t stored;
        std::memcpy(&stored, m_data.data() + m_data.size() - 8, 8);
        m_data.resize(m_data.size() - 8);
        if (checksum(m_data) != stored) fail("checksum mismatch (the file is damaged)");
    }
    [[noreturn]] void fail(const std::string& what) const {
        throw std::runtime_error("weights '" + m_path + "': " + what);
    }

private:
    std::string m_data;
    std::string m_path;
    size_t m_pos = 0;
};

std::string readWholeFile(const std::string& path) {
    if (!std::filesystem::exists(path))
        throw std::runtime_error("weights '" + path + "': no such file");
    try {
        return readFile(path, kMaxFileBytes);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("weights ") + e.what());
    }
}

/// Reads the header; a version-2 file's checksum is verified (and removed) first.
WeightFileInfo readHeader(Reader& r) {
    char magic[4];
    r.bytes(magic, 4);
    if (std::memcmp(magic, kMagic, 4) != 0) r.fail("not a SchedLab weight file");
    WeightFileInfo info;
    info.formatVersion = static_cast<int>(r.u32());
    if (info.formatVersion > kWeightFormatVersion || info.formatVersion < 1)
        r.fail("format version " + std::to_string(info.formatVersion) + " (this build reads up to " +
               std::to_string(kWeightFormatVersion) + ")");
    if (info.formatVersion >= 2) r.verifyAndDropChecksum();
    info.kind = r.string(kMaxKindBytes, "a model kind");
    info.configJson = r.string(kMaxConfigBytes, "a configuration");
    return info;
}

struct StoredTensor {
    std::vector<std::int64_t> shape;
    std::size_t offset = 0;   ///< of the float data in the file
    std::int64_t numel = 0;
};

/// Every tensor's name, shape and place, checked against the bytes that are really there before
/// anything is allocated; refuses trailing bytes.
std::map<std::string, StoredTensor> readTensorIndex(Reader& r) {
    std::map<std::string, StoredTensor> index;
    const std::uint32_t count = r.u32();
    if (count > kMaxTensors) r.fail(std::to_string(count) + " tensors (at most " + std::to_string(kMaxTensors) + ")");
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name = r.string(kMaxKindBytes * 4, "a tensor name");
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
        const auto bytes = static_cast<std::size_t>(t.numel) * sizeof(float);
        if (bytes > r.remaining()) r.fail("tensor '" + name + "' is larger than the rest of the file (truncated?)");
        t.offset = r.position();
        r.skip(bytes);
        if (!index.emplace(name, std::move(t)).second) r.fail("tensor '" + name + "' appears twice");
    }
    if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " unexpected bytes after the last tensor");
    return index;
}

} // namespace

void requireAtMost(const char* what, long long value, long long bound) {
    if (value > bound)
        throw std::invalid_argument(std::string(what) + " " + std::to_string(value) + " is above the bound " + std::to_string(bound));
}

void saveWeights(const torch::nn::Module& module, const std::string& path, const std::string& kind,
                 const std::string& configJson) {
    std::string out(kMagic, 4);
    putU32(out, kWeightFormatVersion);
    putString(out, kind);
    putString(out, configJson);
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    for (const auto& p : module.named_parameters(true)) tensors.emplace_back(p.key(), p.value());
    for (const auto& p : module.named_buffers(true)) tensors.emplace_back(p.key(), p.value());
    putU32(out, static_cast<std::uint32_t>(tensors.size()));
    for (const auto& [name, t] : tensors) {
        const at::Tensor c = t.detach().to(at::kFloat).contiguous();
        putString(out, name);
        putU32(out, static_cast<std::uint32_t>(c.dim()));
        for (std::int64_t s : c.sizes()) putI64(out, s);
        out.append(reinterpret_cast<const char*>(c.data_ptr<float>()), static_cast<size_t>(c.numel()) * sizeof(float));
    }
    putU64(out, checksum(out));
    try {
        writeFileAtomically(path, out);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("saving weights: ") + e.what());
    }
}

WeightFileInfo readWeightInfo(const std::string& path) {
    Reader r(readWholeFile(path), path);
    WeightFileInfo info = readHeader(r);
    readTensorIndex(r);   // the whole file is checked before a caller builds a model from its config
    return info;
}

void loadWeights(torch::nn::Module& module, const std::string& path, const std::string& expectedKind) {
    Reader r(readWholeFile(path), path);
    const WeightFileInfo info = readHeader(r);
    if (!expectedKind.empty() && info.kind != expectedKind)
        r.fail("holds a '" + info.kind + "' model, expected '" + expectedKind + "'");
    const std::map<std::string, StoredTensor> stored = readTensorIndex(r);
    at::NoGradGuard noGrad;
    auto assign = [&](const std::string& name, at::Tensor target) {
        auto it = stored.find(name);
        if (it == stored.end()) r.fail("no tensor '" + name + "' (model and file disagree)");
        if (at::IntArrayRef(it->second.shape) != target.sizes()) r.fail("tensor '" + name + "' has the wrong shape for this model");
        const at::Tensor data = at::empty(it->second.shape, at::kFloat);
        std::memcpy(data.data_ptr<float>(), r.data().data() + it->second.offset, static_cast<size_t>(it->second.numel) * sizeof(float));
        if (!at::isfinite(data).all().item<bool>()) r.fail("tensor '" + name + "' holds NaN or infinite values");
        target.copy_(data);
    };
    for (auto& p : module.named_parameters(true)) assign(p.key(), p.value());
    for (auto& p : module.named_buffers(true)) assign(p.key(), p.value());
}

void writeModelCard(const ModelCard& card, const std::string& path) {
    auto parsed = [](const std::string& text) {
        if (text.empty()) return nlohmann::ordered_json::object();
        try {
            return nlohmann::ordered_json::parse(text);
        } catch (const std::exception&) {
            return nlohmann::ordered_json(text);
        }
    };
    nlohmann::ordered_json j;
    j["model"] = card.model;
    j["weight_format_version"] = kWeightFormatVersion;
    j["architecture"] = parsed(card.architecture);
    j["features"] = card.features;
    j["training_command"] = card.command;
    j["training_data"] = card.data;
    j["steps"] = card.steps;
    j["seconds"] = card.seconds;
    j["results"] = parsed(card.results);
    if (!card.notes.empty()) j["notes"] = card.notes;
    try {
        writeFileAtomically(path, j.dump(2) + "\n");
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("writing the model card: ") + e.what());
    }
}

std::string modelsDir() {
    if (const char* env = std::getenv("SCHEDLAB_MODELS_DIR"); env && *env) return env;
    // Installed (packaging/CMakeLists.txt): <exe dir>/../share/schedlab/models. A build tree has no
    // such folder and falls through to the source tree's weights.
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path installed = exe.parent_path().parent_path() / "share" / "schedlab" / "models";
        if (std::filesystem::is_directory(installed, ec)) return installed.string();
    }
#ifdef SCHEDLAB_MODELS_DIR
    return SCHEDLAB_MODELS_DIR;
#else
    return "models/weights";
#endif
}

} // namespace sl::models

// SPDX-License-Identifier: MIT
// Weight files (a small versioned binary format of named float32 tensors) and model cards.
#include "models/encoder/encoder.h"

#include "core/util/atomicfile.h"

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

void putU32(std::string& out, std::uint32_t x) { out.append(reinterpret_cast<const char*>(&x), 4); }
void putI64(std::string& out, std::int64_t x) { out.append(reinterpret_cast<const char*>(&x), 8); }
void putString(std::string& out, const std::string& s) {
    putU32(out, static_cast<std::uint32_t>(s.size()));
    out += s;
}

class Reader {
public:
    Reader(std::string data, std::string path) : m_data(std::move(data)), m_path(std::move(path)) {}
    void bytes(void* dst, size_t n) {
        if (m_pos + n > m_data.size()) fail("truncated file");
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
    std::string string() {
        const std::uint32_t n = u32();
        if (m_pos + n > m_data.size()) fail("truncated file");
        std::string s = m_data.substr(m_pos, n);
        m_pos += n;
        return s;
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
    return readFile(path, std::size_t(1) << 30);
}

WeightFileInfo readHeader(Reader& r) {
    char magic[4];
    r.bytes(magic, 4);
    if (std::memcmp(magic, kMagic, 4) != 0) r.fail("not a SchedLab weight file");
    WeightFileInfo info;
    info.formatVersion = static_cast<int>(r.u32());
    if (info.formatVersion > kWeightFormatVersion || info.formatVersion < 1)
        r.fail("format version " + std::to_string(info.formatVersion) + " (this build reads up to " +
               std::to_string(kWeightFormatVersion) + ")");
    info.kind = r.string();
    info.configJson = r.string();
    return info;
}

} // namespace

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
    try {
        writeFileAtomically(path, out);
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("saving weights: ") + e.what());
    }
}

WeightFileInfo readWeightInfo(const std::string& path) {
    Reader r(readWholeFile(path), path);
    return readHeader(r);
}

void loadWeights(torch::nn::Module& module, const std::string& path, const std::string& expectedKind) {
    Reader r(readWholeFile(path), path);
    const WeightFileInfo info = readHeader(r);
    if (!expectedKind.empty() && info.kind != expectedKind)
        r.fail("holds a '" + info.kind + "' model, expected '" + expectedKind + "'");
    std::map<std::string, at::Tensor> stored;
    const std::uint32_t count = r.u32();
    for (std::uint32_t i = 0; i < count; ++i) {
        std::string name = r.string();
        const std::uint32_t dims = r.u32();
        if (dims > 8) r.fail("bad tensor rank for '" + name + "'");
        std::vector<std::int64_t> shape(dims);
        std::int64_t numel = 1;
        for (auto& s : shape) {
            s = r.i64();
            if (s < 0 || s > (std::int64_t(1) << 32)) r.fail("bad tensor shape for '" + name + "'");
            numel *= s;
        }
        at::Tensor t = at::empty(shape, at::kFloat);
        r.bytes(t.data_ptr<float>(), static_cast<size_t>(numel) * sizeof(float));
        stored.emplace(std::move(name), t);
    }
    at::NoGradGuard noGrad;
    auto assign = [&](const std::string& name, at::Tensor target) {
        auto it = stored.find(name);
        if (it == stored.end()) r.fail("no tensor '" + name + "' (model and file disagree)");
        if (it->second.sizes() != target.sizes()) r.fail("tensor '" + name + "' has the wrong shape");
        target.copy_(it->second);
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
#ifdef SCHEDLAB_MODELS_DIR
    return SCHEDLAB_MODELS_DIR;
#else
    return "models/weights";
#endif
}

} // namespace sl::models

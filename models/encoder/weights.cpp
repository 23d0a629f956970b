// SPDX-License-Identifier: MIT
// Weight files (a small versioned binary format of named float32 tensors) and model cards.
#include "models/encoder/encoder.h"

#include "core/util/atomicfile.h"

#include <nlohmann/json.hpp>

#include <ATen/ATen.h>

#include <cstring>
#include <stdexcept>

namespace sl::models {

void saveWeights(const torch::nn::Module& module, const std::string& path, const std::string& kind,
                 const std::string& configJson) {
    std::vector<at::Tensor> kept;   // contiguous float copies, alive until encoded
    std::vector<TensorToWrite> tensors;
    auto add = [&](const std::string& name, const at::Tensor& t) {
        kept.push_back(t.detach().to(at::kFloat).contiguous());
        tensors.push_back({name, kept.back().sizes().vec(), kept.back().data_ptr<float>()});
    };
    for (const auto& p : module.named_parameters(true)) add(p.key(), p.value());
    for (const auto& p : module.named_buffers(true)) add(p.key(), p.value());
    try {
        writeFileAtomically(path, encodeWeightFile(kind, configJson, tensors));
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("saving weights: ") + e.what());
    }
}

void loadWeights(torch::nn::Module& module, const std::string& path, const std::string& expectedKind) {
    loadWeights(module, readWeightFile(path), expectedKind);   // checked whole: sizes, checksum, finite values
}

void loadWeights(torch::nn::Module& module, const WeightFile& file, const std::string& expectedKind) {
    auto fail = [&](const std::string& what) { throw std::runtime_error("weights '" + file.path + "': " + what); };
    if (!expectedKind.empty() && file.info.kind != expectedKind)
        fail("holds a '" + file.info.kind + "' model, expected '" + expectedKind + "'");
    at::NoGradGuard noGrad;
    auto assign = [&](const std::string& name, at::Tensor target) {
        auto it = file.tensors.find(name);
        if (it == file.tensors.end()) fail("no tensor '" + name + "' (model and file disagree)");
        if (at::IntArrayRef(it->second.shape) != target.sizes()) fail("tensor '" + name + "' has the wrong shape for this model");
        const at::Tensor data = at::empty(it->second.shape, at::kFloat);
        std::memcpy(data.data_ptr<float>(), file.data(it->second), static_cast<size_t>(it->second.numel) * sizeof(float));
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
    j["world_size"] = card.worldSize;   // data-parallel ranks; the steps are the ranks' common steps
    j["results"] = parsed(card.results);
    if (!card.notes.empty()) j["notes"] = card.notes;
    try {
        writeFileAtomically(path, j.dump(2) + "\n");
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("writing the model card: ") + e.what());
    }
}

} // namespace sl::models

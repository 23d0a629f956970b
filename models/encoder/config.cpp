// SPDX-License-Identifier: MIT
#include "models/configjson.h"
#include "models/encoder/config.h"

#include "models/weightformat.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace sl::models {

int EncoderConfig::totalHeads() const {
    int h = 0;
    for (int x : headsPerMask) h += x;
    return h;
}

EncoderConfig EncoderConfig::cpuSmall(int inputWidth) {
    EncoderConfig c;
    c.inputWidth = inputWidth;
    return c;
}

std::string EncoderConfig::toJson() const {
    nlohmann::json j;
    j["input_width"] = inputWidth;
    j["width"] = width;
    j["layers"] = layers;
    j["heads_per_mask"] = std::vector<int>(headsPerMask.begin(), headsPerMask.end());
    j["head_dim"] = headDim;
    j["mlp_hidden"] = mlpHidden;
    j["final_norm"] = finalNorm;
    // Only when set, so the configs (and cards) of the models without them read as before.
    if (filmDim > 0) j["film_dim"] = filmDim;
    if (reluMlp) j["mlp_activation"] = "relu";
    return j.dump();
}

EncoderConfig EncoderConfig::fromJson(const std::string& text) {
    try {
        const nlohmann::json j = nlohmann::json::parse(text);
        EncoderConfig c;
        c.inputWidth = configInt(j, "input_width");
        c.width = configInt(j, "width");
        c.layers = configInt(j, "layers");
        const nlohmann::json& heads = j.at("heads_per_mask");
        if (!heads.is_array() || heads.size() != static_cast<size_t>(kMaskCount)) throw std::invalid_argument("heads_per_mask needs 7 entries");
        for (int k = 0; k < kMaskCount; ++k) c.headsPerMask[static_cast<size_t>(k)] = configIntValue(heads[static_cast<size_t>(k)], "heads_per_mask");
        c.headDim = configInt(j, "head_dim");
        c.mlpHidden = configInt(j, "mlp_hidden");
        c.finalNorm = j.value("final_norm", true);
        c.filmDim = configIntOr(j, "film_dim", 0);
        c.reluMlp = j.value("mlp_activation", std::string("gelu")) == "relu";
        if (c.filmDim < 0) throw std::invalid_argument("negative film_dim");
        if (c.inputWidth <= 0 || c.width <= 0 || c.layers < 0 || c.headDim <= 0 || c.mlpHidden <= 0 ||
            *std::min_element(c.headsPerMask.begin(), c.headsPerMask.end()) < 0)
            throw std::invalid_argument("non-positive size");
        // a crafted file must not make us allocate gigabytes before its tensors are checked
        requireAtMost("layers", c.layers, kMaxLayers);
        for (const int n : {c.inputWidth, c.width, c.headDim, c.mlpHidden, c.filmDim}) requireAtMost("a width", n, kMaxWidth);
        for (const int h : c.headsPerMask) requireAtMost("heads per mask", h, kMaxHeads);
        return c;
    } catch (const std::exception& e) {
        throw std::invalid_argument(std::string("encoder config: ") + e.what());
    }
}

std::int64_t EncoderConfig::parameterCount() const {
    auto linear = [](std::int64_t in, std::int64_t out) { return in * out + out; };
    const std::int64_t d = width, inner = std::int64_t(totalHeads()) * headDim;
    std::int64_t layer = 2 * (2 * d) + linear(d, mlpHidden) + linear(mlpHidden, d);   // two LayerNorms, the MLP
    if (inner > 0) layer += linear(d, 3 * inner) + linear(inner, d);
    if (filmDim > 0) layer += 2 * linear(filmDim, mlpHidden);
    std::int64_t n = linear(inputWidth, d) + layers * layer;
    if (filmDim > 0) n += linear(1, filmDim) + linear(filmDim, filmDim);
    if (finalNorm) n += 2 * d;
    return n;
}

} // namespace sl::models

// SPDX-License-Identifier: MIT
// libFuzzer target: the weight-file reader (sl::models::parseWeightFile) and the encoder config
// every neural model stores in it, as the loaders use them before building a model: parse, read
// the encoder config, check the file holds a model that size. LibTorch is not involved: moving the
// checked tensors into a module is a copy by name and shape (tests/models/tst_weightloaders.cpp).
//
// Each input runs twice: as it is, and with its checksum recomputed, since a mutation almost
// always breaks the checksum and would otherwise never reach the fields behind it.
#include "models/encoder/config.h"
#include "models/weightformat.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace {

void loadLikeAModel(const std::string& bytes) {
    using namespace sl::models;
    try {
        const WeightFile file = parseWeightFile(bytes, "fuzz");
        // a parsed file re-encodes to one that parses to the same tensors
        std::vector<TensorToWrite> tensors;
        for (const auto& [name, t] : file.tensors) tensors.push_back({name, t.shape, reinterpret_cast<const float*>(file.data(t))});
        const WeightFile again = parseWeightFile(encodeWeightFile(file.info.kind, file.info.configJson, tensors), "fuzz-again");
        if (again.tensors.size() != file.tensors.size() || again.info.storedFloats != file.info.storedFloats) __builtin_trap();
        for (const auto& [name, t] : file.tensors)
            if (std::memcmp(again.data(again.tensors.at(name)), file.data(t), static_cast<std::size_t>(t.numel) * 4) != 0) __builtin_trap();

        const nlohmann::json config = nlohmann::json::parse(file.info.configJson, nullptr, false);
        if (config.is_discarded() || !config.is_object()) return;
        const nlohmann::json& encoder = config.contains("encoder") ? config["encoder"] : config;
        const EncoderConfig c = EncoderConfig::fromJson(encoder.dump());
        requireFileHolds(file.info, c.parameterCount(), "fuzz");
        if (EncoderConfig::fromJson(c.toJson()).parameterCount() != c.parameterCount()) __builtin_trap();
    } catch (const std::runtime_error&) {      // the file's faults
    } catch (const std::invalid_argument&) {   // the config's faults
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string bytes(reinterpret_cast<const char*>(data), size);
    loadLikeAModel(bytes);
    std::uint32_t version = 0;
    if (size >= 16 && std::memcmp(bytes.data(), "SLWT", 4) == 0 && (std::memcpy(&version, bytes.data() + 4, 4), version == 2)) {
        const std::uint64_t sum = sl::models::weightChecksum(bytes.substr(0, size - 8));
        std::memcpy(bytes.data() + size - 8, &sum, 8);
        loadLikeAModel(bytes);
    }
    return 0;
}

// SPDX-License-Identifier: MIT
// Every model's loader checks a weight file's configuration against what the file stores before it
// builds the model: a small crafted file must not make it allocate gigabytes. Also the
// encoder's parameter count, which that check relies on, against the module it describes.
#include "common/testmain.h"
#include "models/encoder/encoder.h"
#include "models/gflownet/policy.h"
#include "models/gflownet/readypolicy.h"
#include "models/prioritysampler/network.h"
#include "models/regal/network.h"
#include "models/topoformer/model.h"
#include "models/weightformat.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QTest>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>

using namespace sl;
using namespace sl::models;

namespace {

std::int64_t valuesIn(const torch::nn::Module& m) {
    std::int64_t n = 0;
    for (const auto& p : m.parameters()) n += p.numel();
    for (const auto& b : m.buffers()) n += b.numel();
    return n;
}

/// `path` re-encoded with its configuration changed by `edit` (tensors unchanged, valid checksum).
void rewriteConfig(const std::string& path, const std::function<void(nlohmann::json&)>& edit) {
    const WeightFile file = readWeightFile(path);
    nlohmann::json config = nlohmann::json::parse(file.info.configJson);
    edit(config);
    std::vector<TensorToWrite> tensors;
    for (const auto& [name, t] : file.tensors)
        tensors.push_back({name, t.shape, reinterpret_cast<const float*>(file.data(t))});
    const std::string bytes = encodeWeightFile(file.info.kind, config.dump(), tensors);
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// An encoder of 64 layers of width 8,192: about 2 GB of parameters, inside every per-field bound.
void inflateEncoder(nlohmann::json& encoder) {
    encoder["width"] = kMaxWidth;
    encoder["layers"] = kMaxLayers;
}

} // namespace

class TestWeightLoaders : public QObject {
    Q_OBJECT

private:
    std::string m_dir;

    std::string pathFor(const char* name) const { return m_dir + "/" + name; }

    /// `load(path)` must refuse at once, naming the file and the size the config claims.
    void expectRefusedBeforeBuilding(const std::string& path, const std::function<void()>& load) {
        const auto t0 = std::chrono::steady_clock::now();
        try {
            load();
            QFAIL("an inflated configuration was loaded");
        } catch (const std::exception& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(path) != std::string::npos && what.find("describes a model of at least") != std::string::npos,
                     what.c_str());
        }
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
    }

private Q_SLOTS:
    void initTestCase() {
        m_dir = (QDir::tempPath() + "/tst_weightloaders").toStdString();
        std::filesystem::create_directories(m_dir);
    }

    /// parameterCount() against the module for every option that changes the architecture.
    void encoderParameterCount() {
        EncoderConfig film = EncoderConfig::cpuSmall(12);
        film.filmDim = 8;
        film.reluMlp = true;
        EncoderConfig noHeads = EncoderConfig::cpuSmall(12);
        noHeads.headsPerMask.fill(0);
        EncoderConfig bare = EncoderConfig::cpuSmall(5);
        bare.finalNorm = false;
        bare.layers = 0;
        EncoderConfig uneven = EncoderConfig::cpuSmall(9);
        uneven.headsPerMask = {1, 0, 3, 0, 2, 0, 1};
        uneven.headDim = 7;
        uneven.mlpHidden = 33;
        for (const EncoderConfig& c : {EncoderConfig::cpuSmall(28), film, noHeads, bare, uneven}) {
            const TopoformerEncoder module(c);
            QCOMPARE(c.parameterCount(), valuesIn(*module));
        }
    }

    /// A size beyond int (1e300 would be undefined behaviour through get<int>) is refused.
    void configSizesAreWholeNumbers() {
        nlohmann::json j = nlohmann::json::parse(EncoderConfig::cpuSmall(28).toJson());
        for (const nlohmann::json& bad : {nlohmann::json(1e300), nlohmann::json(2.5), nlohmann::json("64"),
                                         nlohmann::json(std::int64_t(1) << 40)}) {
            j["layers"] = bad;
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, EncoderConfig::fromJson(j.dump()));
        }
        j["layers"] = 3;
        j["heads_per_mask"][2] = -1;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, EncoderConfig::fromJson(j.dump()));
    }

    void gflownetLoader() {
        const std::string path = pathFor("gflownet.slw");
        gfn::savePolicy(gfn::GflowNetPolicy(gfn::PolicyConfig::cpu()), path);
        QVERIFY(gfn::loadPolicy(path));   // the untouched file loads
        rewriteConfig(path, [](nlohmann::json& j) { inflateEncoder(j["encoder"]); });
        expectRefusedBeforeBuilding(path, [&] { gfn::loadPolicy(path); });
    }

    void gflownetReadyLoader() {
        const std::string path = pathFor("gflownet-ready.slw");
        gfn::saveReadyPolicy(gfn::ReadyPolicy(gfn::ReadyPolicyConfig::cpu()), path);
        QVERIFY(gfn::loadReadyPolicy(path));   // the untouched file loads
        rewriteConfig(path, [](nlohmann::json& j) { inflateEncoder(j["encoder"]); });
        expectRefusedBeforeBuilding(path, [&] { gfn::loadReadyPolicy(path); });
    }

    void prioritySamplerLoader() {
        const std::string path = pathFor("sampler.slw");
        ps::SamplerConfig config;
        config.encoder = EncoderConfig::cpuSmall(ps::featureSpec(config.typeSlots).width());
        ps::saveSampler(ps::PrioritySamplerNet(config), path);
        QVERIFY(ps::loadSampler(path));
        rewriteConfig(path, [](nlohmann::json& j) { inflateEncoder(j["encoder"]); });
        expectRefusedBeforeBuilding(path, [&] { ps::loadSampler(path); });
    }

    void topoformerLoader() {
        const std::string path = pathFor("topoformer.slw");
        saveTopoformer(TopoformerModel(TopoformerConfig{}), path);
        QVERIFY(loadTopoformer(path));
        rewriteConfig(path, [](nlohmann::json& j) { inflateEncoder(j["encoder"]); });
        expectRefusedBeforeBuilding(path, [&] { loadTopoformer(path); });
    }

    void regalLoader() {
        const std::string path = pathFor("regal.slw");
        regal::savePolicy(regal::RegalPolicy(regal::NetworkConfig{}), path);
        QVERIFY(regal::loadPolicy(path));
        rewriteConfig(path, [](nlohmann::json& j) { j["state"] = kMaxWidth; });   // 13 x 8192^2 values
        expectRefusedBeforeBuilding(path, [&] { regal::loadPolicy(path); });
    }
};

SCHEDLAB_TEST_MAIN(weightloaders, TestWeightLoaders)
#include "tst_weightloaders.moc"

// SPDX-License-Identifier: MIT
// The shared Topoformer encoder: features, the seven masks, NaN-free gradients, batching, weights.
#include "common/testmain.h"
#include "models/encoder/encoder.h"
#include "models/encoder/maththreads.h"

#include "core/generators/generators.h"

#include <ATen/ATen.h>

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <filesystem>
#include <fstream>

using namespace sl;
using namespace sl::models;

namespace {

/// a -> b -> c, a -> c (redundant), d isolated, e -> f.
std::shared_ptr<Graph> smallGraph() {
    auto g = std::make_shared<Graph>();
    OpId a = g->addOp({.name = "a"}), b = g->addOp({.name = "b"}), c = g->addOp({.name = "c"});
    g->addOp({.name = "d"});
    OpId e = g->addOp({.name = "e"}), f = g->addOp({.name = "f"});
    g->addEdge(a, b, 1);
    g->addEdge(b, c, 2);
    g->addEdge(a, c, 3);
    g->addEdge(e, f, 4);
    g->finalize();
    return g;
}

void checkPartition(const Graph& g) {
    const GraphMasks m = buildMasks(g);
    const int n = g.opCount();
    std::int64_t total = 0;
    for (int k = 0; k < kMaskCount; ++k) total += m.count(static_cast<MaskKind>(k));
    QCOMPARE(total, static_cast<std::int64_t>(n) * (n - 1));
    for (OpId u = 0; u < n; ++u)
        for (OpId v = 0; v < n; ++v) {
            int in = 0;
            for (int k = 0; k < kMaskCount; ++k) in += m.has(static_cast<MaskKind>(k), u, v);
            if (u == v) QCOMPARE(in, 0);
            else if (in != 1) QFAIL(qPrintable(QString("pair (%1,%2) is in %3 sets").arg(u).arg(v).arg(in)));
        }
}

bool finite(const at::Tensor& t) { return at::isfinite(t).all().item<bool>(); }

} // namespace

class TestEncoder : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void masksOfSmallGraph() {
        const auto g = smallGraph();
        const GraphMasks m = buildMasks(*g);
        QVERIFY(m.has(MaskKind::Reduction, 0, 1));
        QVERIFY(m.has(MaskKind::Reduction, 1, 2));
        QVERIFY(m.has(MaskKind::Redundant, 0, 2));
        QVERIFY(m.has(MaskKind::RedundantBack, 2, 0));
        QVERIFY(m.has(MaskKind::ReductionBack, 1, 0));
        QVERIFY(m.has(MaskKind::Incomparable, 3, 0));
        QVERIFY(m.has(MaskKind::Incomparable, 0, 3));
        QVERIFY(m.has(MaskKind::Incomparable, 4, 2));
        QCOMPARE(m.count(MaskKind::ClosureRest), std::int64_t{0});
        QCOMPARE(m.count(MaskKind::Reduction), std::int64_t{3});
        QCOMPARE(m.count(MaskKind::Redundant), std::int64_t{1});

        Graph chain;   // a -> b -> c: (a, c) is in the closure but not an edge
        OpId a = chain.addOp({.name = "a"}), b = chain.addOp({.name = "b"}), c = chain.addOp({.name = "c"});
        chain.addEdge(a, b);
        chain.addEdge(b, c);
        chain.finalize();
        const GraphMasks mc = buildMasks(chain);
        QVERIFY(mc.has(MaskKind::ClosureRest, a, c));
        QVERIFY(mc.has(MaskKind::ClosureRestBack, c, a));
        QCOMPARE(mc.count(MaskKind::Incomparable), std::int64_t{0});
    }

    void masksPartitionOrderedPairs() {
        checkPartition(*smallGraph());
        for (std::uint64_t seed : {1, 2, 3}) {
            checkPartition(*generateLayered(60, seed).graph);
            checkPartition(*generateErdosRenyi(40, seed).graph);
        }
        checkPartition(*generateLayered(130, 9).graph);   // more than two 64-bit words per row
    }

    void featuresAreTheDocumentedColumns() {
        const auto g = smallGraph();
        FeatureSpec spec;
        QCOMPARE(spec.width(), 28);
        const NodeFeatures f = buildFeatures(*g, spec);
        QCOMPARE(f.ops, 6);
        QCOMPARE(f.width, 28);
        for (int v = 0; v < f.ops; ++v)
            for (int c = 0; c < 8; ++c) QVERIFY(f.at(v, c) >= 0 && f.at(v, c) <= 1);
        // m: output bytes a = 1 + 3, b = 2, e = 4 (max) -> 1.0, 0.5.
        QCOMPARE(f.at(4, 0), 1.0f);
        QCOMPARE(f.at(1, 0), 0.5f);
        QCOMPARE(f.at(0, 1), 0.0f);   // no parameters: the column stays 0
        // hops: max from a source, c = 2 (max) -> 1; min from a source, c = 1 (via a -> c)
        QCOMPARE(f.at(2, 5), 1.0f);
        QCOMPARE(f.at(2, 4), 1.0f);
        QCOMPARE(f.at(1, 4), 1.0f);
        // PE: 5 non-trivial eigenvectors for 6 ops, the remaining 15 columns zero
        for (int v = 0; v < f.ops; ++v)
            for (int c = 8 + 5; c < 28; ++c) QCOMPARE(f.at(v, c), 0.0f);
        // deterministic without a sign seed, sign flips with one
        const NodeFeatures f2 = buildFeatures(*g, spec);
        QVERIFY(f.values == f2.values);
    }

    void featuresDoNotDependOnMathThreads() {
        // 40-op layered graph 40004: eigenvalue 1 has multiplicity 6 among the 21 smallest, so the
        // PE takes vectors from a degenerate eigenspace. Unpinned, OpenBLAS with 2 threads gave
        // another basis of it than with 1 (PE entries up to 1.1 apart) and other schedules.
        const GeneratedInstance inst = generateLayered(40, 40004);
        const FeatureSpec spec;
        NodeFeatures one, two;
        {
            const MathThreads pin(1);
            one = buildFeatures(*inst.graph, spec);
        }
        {
            const MathThreads pin(2);
            two = buildFeatures(*inst.graph, spec);
        }
        QVERIFY(one.values == two.values);
    }

    void mathThreadsRestoresTheSettings() {
        const int torchBefore = at::get_num_threads(), blasBefore = openBlasThreads();
        {
            const MathThreads outer(1);
            QCOMPARE(at::get_num_threads(), 1);
            if (blasBefore > 0) QCOMPARE(openBlasThreads(), 1);
            {
                const MathThreads inner(2);   // the smallest live count holds for OpenBLAS
                QCOMPARE(at::get_num_threads(), 2);
                if (blasBefore > 0) QCOMPARE(openBlasThreads(), 1);
            }
            QCOMPARE(at::get_num_threads(), 1);
        }
        QCOMPARE(at::get_num_threads(), torchBefore);
        QCOMPARE(openBlasThreads(), blasBefore);
    }

    void extraColumnsForMakespanModels() {
        const GeneratedInstance inst = generateLayeredTyped(30, 4);
        FeatureSpec spec;
        spec.durations = true;
        spec.machineTypes = 3;
        spec.extraColumns = 2;
        spec.laplacianDims = 8;
        QCOMPARE(spec.rawWidth(), 8 + 2 + 3 + 2);
        std::vector<float> extra(static_cast<size_t>(inst.graph->opCount()) * 2, 0.0f);
        for (size_t i = 0; i < extra.size(); ++i) extra[i] = static_cast<float>(i % 7);
        const NodeFeatures f = buildFeatures(*inst.graph, spec, &extra);
        QCOMPARE(f.width, spec.width());
        for (int v = 0; v < f.ops; ++v) {
            float oneHot = 0;
            for (int c = 10; c < 13; ++c) oneHot += f.at(v, c);
            QCOMPARE(oneHot, 1.0f);
            QCOMPARE(f.at(v, 10 + inst.graph->op(v).machineType), 1.0f);
        }
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, buildFeatures(*inst.graph, spec, nullptr));
        QCOMPARE(QString::fromStdString(spec.describe()), QString("memory,degrees,hops,durations,machine3,extra2,pe8"));
    }

    void noNanWithIsolatedOps() {
        // Isolated ops and sources/sinks have empty rows in most masks.
        auto g = std::make_shared<Graph>();
        for (int i = 0; i < 5; ++i) g->addOp({.name = "iso" + std::to_string(i)});
        OpId a = g->addOp({.name = "a"}), b = g->addOp({.name = "b"});
        g->addEdge(a, b, 2);
        g->finalize();
        at::manual_seed(3);
        const FeatureSpec spec;
        TopoformerEncoder enc(EncoderConfig::cpuSmall(spec.width()));
        const EncoderInput in = makeEncoderInput(buildFeatures(*g, spec), buildMasks(*g));
        const at::Tensor h = enc->forward(in);
        QCOMPARE(h.size(0), std::int64_t{7});
        QVERIFY(finite(h));
        (h * h).sum().backward();
        for (const auto& p : enc->parameters()) {
            QVERIFY(p.grad().defined());
            QVERIFY(finite(p.grad()));
        }
        // A single op: every mask row is empty.
        Graph one;
        one.addOp({.name = "x"});
        one.finalize();
        const at::Tensor h1 = enc->forward(makeEncoderInput(buildFeatures(one, spec), buildMasks(one)));
        QVERIFY(finite(h1));
    }

    void graphsAboveTheSizeCapsAreRefusedClearly() {
        // one op past each cap: refused before any O(N^2) allocation, with both counts named (the
        // dense masks at kMaxEncoderOps, the features and relations at kMaxRelationEncoderOps)
        const auto chain = [](int ops) {
            Graph g;
            OpId previous = kNoOp;
            for (int i = 0; i < ops; ++i) {
                const OpId v = g.addOp({.name = "op" + std::to_string(i), .duration = 1});
                if (previous != kNoOp) g.addEdge(previous, v, 4);
                previous = v;
            }
            g.finalize();
            return g;
        };
        for (int which = 0; which < 2; ++which) {
            const int cap = which == 0 ? models::kMaxEncoderOps : models::kMaxRelationEncoderOps;
            const Graph g = chain(cap + 1);
            try {
                if (which == 0) models::buildMasks(g);
                else models::buildFeatures(g, models::FeatureSpec{});
                QFAIL("a graph above the cap was accepted");
            } catch (const std::invalid_argument& e) {
                const std::string m = e.what();
                QVERIFY2(m.find(std::to_string(cap)) != std::string::npos && m.find(std::to_string(cap + 1)) != std::string::npos,
                         e.what());
            }
        }
    }

    void batchEqualsSingle() {
        at::manual_seed(5);
        const FeatureSpec spec;
        TopoformerEncoder enc(EncoderConfig::cpuSmall(spec.width()));
        std::vector<EncoderInput> inputs;
        for (int n : {12, 20, 7}) {
            const auto inst = generateLayered(n, static_cast<std::uint64_t>(n));
            inputs.push_back(makeEncoderInput(buildFeatures(*inst.graph, spec), buildMasks(*inst.graph)));
        }
        at::NoGradGuard noGrad;
        const EncoderInput batch = batchInputs(inputs);
        QCOMPARE(batch.x.size(1), std::int64_t{20});
        const at::Tensor hb = enc->forward(batch);
        for (size_t i = 0; i < inputs.size(); ++i) {
            const at::Tensor hs = enc->forward(inputs[i]);
            const at::Tensor part = hb[static_cast<std::int64_t>(i)].narrow(0, 0, hs.size(0));
            QVERIFY(at::allclose(hs, part, 1e-4, 1e-5));
        }
    }

    // The sampler's attention (EncoderContext::directAttention: sgemm_ per matrix, in place) gives
    // the numbers of the LibTorch path bit for bit, with and without FiLM and with several heads
    // per mask; below LibTorch's BLAS threshold (4 ops) it falls back to that path.
    void directAttentionIsBitForBit() {
        at::manual_seed(11);
        const FeatureSpec spec;
        for (const bool film : {false, true}) {
            EncoderConfig cfg = EncoderConfig::cpuSmall(spec.width());
            if (film) cfg.filmDim = 8, cfg.reluMlp = true, cfg.headsPerMask.fill(1);
            TopoformerEncoder enc(cfg);
            for (int n : {4, 24, 57}) {
                const auto inst = generateLayered(n, static_cast<std::uint64_t>(n));
                const EncoderInput in = makeEncoderInput(buildFeatures(*inst.graph, spec), buildMasks(*inst.graph));
                const std::int64_t ops = in.x.size(0);
                const at::Tensor x = at::randn({5, ops, spec.width()});
                const at::NoGradGuard noGrad;
                const MathThreads pin(1);
                EncoderContext c = enc->prepare(in, 5, film ? at::full({1}, -2.5) : at::Tensor());
                const at::Tensor plain = enc->forward(x, c);
                c.directAttention = true;
                const at::Tensor direct = enc->forward(x, c);
                QVERIFY2(at::equal(plain, direct), qPrintable(QString("film %1, %2 ops").arg(film).arg(ops)));
                QVERIFY(at::equal(plain, enc->forward(EncoderInput{x, in.maskBias, in.rowHasKey, in.nodeMask, in.sizes},
                                                      film ? at::full({1}, -2.5) : at::Tensor())));
            }
        }
    }

    void weightsRoundTrip() {
        const QString dir = QDir::tempPath() + "/tst_encoder_weights";
        std::filesystem::create_directories(dir.toStdString());
        const std::string path = (dir + "/enc.slw").toStdString();
        const FeatureSpec spec;
        EncoderConfig cfg = EncoderConfig::cpuSmall(spec.width());
        cfg.layers = 2;
        at::manual_seed(1);
        TopoformerEncoder a(cfg);
        saveWeights(*a, path, "test-encoder", cfg.toJson());
        const WeightFileInfo info = readWeightInfo(path);
        QCOMPARE(info.formatVersion, kWeightFormatVersion);
        QCOMPARE(QString::fromStdString(info.kind), QString("test-encoder"));
        const EncoderConfig back = EncoderConfig::fromJson(info.configJson);
        QCOMPARE(back.layers, 2);
        at::manual_seed(2);
        TopoformerEncoder b(back);
        loadWeights(*b, path, "test-encoder");
        const auto inst = generateLayered(15, 2);
        const EncoderInput in = makeEncoderInput(buildFeatures(*inst.graph, spec), buildMasks(*inst.graph));
        at::NoGradGuard noGrad;
        QVERIFY(at::equal(a->forward(in), b->forward(in)));
        // clear errors: wrong kind, wrong shape, missing file, newer format
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadWeights(*b, path, "other-kind"));
        TopoformerEncoder wide(EncoderConfig::cpuSmall(spec.width()));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, loadWeights(*wide, path, "test-encoder"));
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readWeightInfo(path + ".missing"));
        {
            std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(4);
            const std::uint32_t future = kWeightFormatVersion + 1;
            f.write(reinterpret_cast<const char*>(&future), 4);
        }
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, readWeightInfo(path));
        ModelCard card;
        card.model = "test-encoder";
        card.architecture = cfg.toJson();
        card.results = R"({"gap": 1.5})";
        writeModelCard(card, path + ".card.json");
        QVERIFY(std::filesystem::file_size(path + ".card.json") > 50);
    }

    /// Damaged and crafted weight files: each fails with one line naming the file and the fault,
    /// before anything big is allocated.
    void hostileWeightFiles() {
        const std::string dir = (QDir::tempPath() + "/tst_encoder_hostile").toStdString();
        std::filesystem::create_directories(dir);
        const std::string good = dir + "/good.slw";
        const FeatureSpec spec;
        const EncoderConfig cfg = EncoderConfig::cpuSmall(spec.width());
        TopoformerEncoder model(cfg);
        saveWeights(*model, good, "test-encoder", cfg.toJson());
        const std::string bytes = slurp(good);
        auto variant = [&](const std::string& name, const std::string& content) {
            const std::string path = dir + "/" + name;
            std::ofstream(path, std::ios::binary) << content;
            return path;
        };
        auto failure = [&](const std::string& path) -> std::string {
            try {
                TopoformerEncoder m(cfg);
                readWeightInfo(path);
                loadWeights(*m, path, "test-encoder");
            } catch (const std::exception& e) {
                const std::string what = e.what();
                if (what.find('\n') != std::string::npos) return "several lines: " + what;
                return what;
            }
            return "loaded";
        };
        auto expect = [&](const std::string& path, const char* needle) {
            const std::string what = failure(path);
            QVERIFY2(what.find(path) != std::string::npos && what.find(needle) != std::string::npos, what.c_str());
        };
        // one flipped byte in the middle of the tensors: the checksum
        std::string flipped = bytes;
        flipped[flipped.size() / 2] = static_cast<char>(flipped[flipped.size() / 2] ^ 0x10);
        expect(variant("flipped.slw", flipped), "checksum");
        expect(variant("trailing.slw", bytes + "xyz"), "checksum");
        expect(variant("truncated.slw", bytes.substr(0, bytes.size() - 100)), "checksum");
        // version-1 files (no checksum) still load, and their own faults are named
        const std::string v1 = asVersion1(bytes);
        QCOMPARE(failure(variant("v1.slw", v1)), std::string("loaded"));
        expect(variant("v1-trailing.slw", v1 + "xyz"), "unexpected bytes");
        expect(variant("v1-nan.slw", withNaN(v1)), "NaN");
        // a crafted header: 2e9 layers, width 200,000 must not reach the allocator
        const std::string crafted = withConfig(v1, R"({"input_width": 200000, "width": 200000, "layers": 2000000000,
            "heads_per_mask": [1,1,1,1,1,1,1], "head_dim": 8, "mlp_hidden": 16})");
        const WeightFileInfo info = readWeightInfo(variant("crafted.slw", crafted));
        try {
            EncoderConfig::fromJson(info.configJson);
            QFAIL("a config of 2e9 layers was accepted");
        } catch (const std::invalid_argument& e) {
            QVERIFY2(std::string(e.what()).find("above the bound") != std::string::npos, e.what());
        }
        // a tensor header claiming more data than the file holds
        expect(variant("v1-shape.slw", withFirstShape(v1, std::int64_t(1) << 40)), "tensor '");
    }

private:
    static std::string slurp(const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    static std::uint32_t u32At(const std::string& b, std::size_t at) {
        std::uint32_t x;
        std::memcpy(&x, b.data() + at, 4);
        return x;
    }
    /// The same file in format 1: version field 1, no trailing checksum.
    static std::string asVersion1(std::string b) {
        const std::uint32_t one = 1;
        std::memcpy(b.data() + 4, &one, 4);
        return b.substr(0, b.size() - 8);
    }
    /// Offset of the tensor count (after magic, version, kind, config).
    static std::size_t tensorsAt(const std::string& b) {
        std::size_t at = 8;
        at += 4 + u32At(b, at);   // kind
        at += 4 + u32At(b, at);   // config
        return at;
    }
    static std::string withConfig(const std::string& b, const std::string& config) {
        std::size_t at = 8;
        at += 4 + u32At(b, at);
        const std::uint32_t old = u32At(b, at);
        std::string out = b.substr(0, at);
        const auto n = static_cast<std::uint32_t>(config.size());
        out.append(reinterpret_cast<const char*>(&n), 4);
        out += config;
        out += b.substr(at + 4 + old);
        return out;
    }
    /// The first tensor's first dimension set to `dim`.
    static std::string withFirstShape(std::string b, std::int64_t dim) {
        std::size_t at = tensorsAt(b) + 4;   // first tensor: name
        at += 4 + u32At(b, at);
        at += 4;                              // rank
        std::memcpy(b.data() + at, &dim, 8);
        return b;
    }
    /// Every float of the first tensor set to NaN.
    static std::string withNaN(std::string b) {
        std::size_t at = tensorsAt(b) + 4;
        at += 4 + u32At(b, at);
        const std::uint32_t rank = u32At(b, at);
        at += 4;
        std::int64_t numel = 1;
        for (std::uint32_t d = 0; d < rank; ++d, at += 8) {
            std::int64_t s;
            std::memcpy(&s, b.data() + at, 8);
            numel *= s;
        }
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (std::int64_t i = 0; i < numel; ++i) std::memcpy(b.data() + at + 4 * static_cast<std::size_t>(i), &nan, 4);
        return b;
    }
};

SCHEDLAB_TEST_MAIN(encoder, TestEncoder)
#include "tst_encoder.moc"

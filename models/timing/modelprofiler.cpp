// SPDX-License-Identifier: MIT
// `schedlab-cli profile`'s measurement (modelprofiler.h). The model is read the way
// core/io/onnxformat.cpp reads it (ModelProto, then libonnx's shape inference with data
// propagation, node-level failures leaving shapes unknown) but on its own: the reader's shapes live
// in core's private code, and the ops here need dtypes and the constants' data besides.
#include "models/timing/modelprofiler.h"

#include "models/encoder/maththreads.h"
#include "models/timing/measure.h"
#include "models/timing/onnxops.h"

#include "core/profile/repetitions.h"

#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <chrono>
#include <climits>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

namespace sl::models::timing {

namespace {

using ProfileClock = std::chrono::steady_clock;

[[noreturn]] void profileFail(const std::string& path, const std::string& what) { throw std::runtime_error(path + ": " + what); }

std::string readModelBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) profileFail(path, "cannot open the file");
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in.good() && !in.eof()) profileFail(path, "cannot read the file");
    return std::move(bytes).str();
}

onnx::ModelProto parseOnnxModel(const std::string& bytes, const std::string& path) {
    if (bytes.size() > static_cast<std::size_t>(INT_MAX)) profileFail(path, "larger than protobuf's 2 GiB limit");
    onnx::ModelProto model;
    if (!model.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
        profileFail(path, "not a valid ONNX model: the protobuf data does not parse (truncated or not an .onnx file?)");
    if (!model.has_graph() || model.graph().node_size() == 0) profileFail(path, "the ONNX model has no graph nodes");
    return model;
}

/// As the reader does: node-level failures leave those shapes unknown (the op is then listed as
/// unmeasured), anything else is an error.
void inferOnnxShapes(onnx::ModelProto& model, const std::string& path) {
    try {
        const onnx::ShapeInferenceOptions options(/*check_type=*/false, /*error_mode=*/0, /*data_propagation=*/true);
        onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        profileFail(path, std::string("ONNX shape inference failed: ") + e.what());
    }
}

/// The ai.onnx opset the model imports; ops whose semantics changed (Softmax, Clip, Pad, Slice)
/// read it.
int modelOpset(const onnx::ModelProto& model) {
    for (const auto& o : model.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") return static_cast<int>(o.version());
    return 1;
}

ValueSig sigOfType(const onnx::TypeProto& type) {
    ValueSig v;
    if (!type.has_tensor_type()) return v;
    v.elemType = type.tensor_type().elem_type();
    if (!type.tensor_type().has_shape()) return v;
    v.known = true;
    for (const auto& d : type.tensor_type().shape().dim()) v.dims.push_back(d.has_dim_value() ? d.dim_value() : 1);   // symbolic: 1, as the reader
    return v;
}

ValueSig sigOfTensor(const onnx::TensorProto& t) {
    ValueSig v;
    v.known = true;
    v.dims.assign(t.dims().begin(), t.dims().end());
    v.elemType = t.data_type();
    v.constant = &t;
    return v;
}

using ValueTable = std::unordered_map<std::string, ValueSig>;

/// Every value by name: inferred types first, then the model's data (initializers, Constant nodes),
/// which wins.
ValueTable valueTable(const onnx::GraphProto& g) {
    ValueTable table;
    for (const auto* list : {&g.input(), &g.value_info(), &g.output()})
        for (const auto& v : *list) table[v.name()] = sigOfType(v.type());
    for (const auto& t : g.initializer()) table[t.name()] = sigOfTensor(t);
    for (const auto& n : g.node()) {
        if (n.op_type() != "Constant" || n.output_size() == 0) continue;
        for (const auto& a : n.attribute())
            if (a.name() == "value" && a.has_t()) table[n.output(0)] = sigOfTensor(a.t());
    }
    return table;
}

NodeIo nodeIo(const onnx::NodeProto& node, const ValueTable& table, int opset) {
    NodeIo io;
    io.opset = opset;
    auto sig = [&](const std::string& name) {
        const auto it = name.empty() ? table.end() : table.find(name);
        return it == table.end() ? ValueSig{} : it->second;
    };
    for (const auto& in : node.input()) {
        io.inputNames.push_back(in);
        io.inputs.push_back(sig(in));
    }
    for (const auto& out : node.output()) {
        io.outputNames.push_back(out);
        io.outputs.push_back(sig(out));
    }
    return io;
}

/// A progress line every two seconds at most: ResNet-50 takes several, a small model none.
class ProgressPacer {
public:
    explicit ProgressPacer(const TextProgressFn& fn) : m_fn(fn) {}
    void tick(std::size_t done, std::size_t total) {
        const auto now = ProfileClock::now();
        if (!m_fn || now - m_last < std::chrono::seconds(2)) return;
        m_last = now;
        const double seconds = std::chrono::duration<double>(now - m_start).count();
        m_fn("profile: " + std::to_string(done) + " of " + std::to_string(total) + " ops (" + std::to_string(static_cast<int>(seconds)) + " s)");
    }

private:
    const TextProgressFn& m_fn;
    ProfileClock::time_point m_start = ProfileClock::now(), m_last = m_start;
};

/// One op: prepared (or refused), warmed up, timed. False when the stop came.
bool measureOp(const onnx::NodeProto& node, const std::string& name, const NodeIo& io, const ProfileRequest& r, ProfileRun& run) {
    AtenCall call;
    try {
        call = prepareAtenCall(node, io);
    } catch (const NotMeasurable& e) {
        run.unmeasured.push_back({.name = name, .type = node.op_type(), .reason = e.what()});
        return true;
    }
    std::optional<std::vector<double>> us;
    try {
        us = timeRepeated(call, r.warmup, r.repeats, r.stop);
    } catch (const std::exception& e) {   // ATen refused a later call: unusual, but not fatal
        run.unmeasured.push_back({.name = name, .type = node.op_type(), .reason = std::string("ATen failed while timing: ") + e.what()});
        return true;
    }
    if (!us) return false;
    run.ops.push_back(summarizeRepetitions(name, node.op_type(), std::move(*us)));
    return true;
}

} // namespace

std::vector<std::optional<std::string>> onnxOpNames(const onnx::GraphProto& graph) {
    std::unordered_set<std::string> initializers;
    for (const auto& t : graph.initializer()) initializers.insert(t.name());
    std::vector<std::optional<std::string>> names;
    std::unordered_set<std::string> used;
    for (int i = 0; i < graph.node_size(); ++i) {
        const auto& n = graph.node(i);
        const bool weightMaker = n.op_type() == "Constant" ||
                                 (n.op_type() == "ConstantOfShape" &&
                                  std::all_of(n.input().begin(), n.input().end(), [&](const std::string& s) { return s.empty() || initializers.count(s); }));
        if (weightMaker) {
            names.emplace_back();
            continue;
        }
        std::string name = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
        while (used.count(name)) name += "_" + std::to_string(i);
        used.insert(name);
        names.emplace_back(std::move(name));
    }
    return names;
}

ProfileRun profileOnnxModel(const ProfileRequest& r) {
    const auto start = ProfileClock::now();
    onnx::ModelProto model = parseOnnxModel(readModelBytes(r.modelPath), r.modelPath);
    inferOnnxShapes(model, r.modelPath);
    const onnx::GraphProto& graph = model.graph();
    const int opset = modelOpset(model);
    const ValueTable table = valueTable(graph);
    const std::vector<std::optional<std::string>> names = onnxOpNames(graph);

    ProfileRun run;
    run.device = "this CPU (" + cpuModel() + ", LibTorch " + libTorchVersion() + ", " + threadsText(r.threads) + ")";
    const MathThreads pin(r.threads);   // ATen's pool and OpenBLAS, restored on return
    const c10::InferenceMode inference;   // no autograd bookkeeping: the dispatch ORT would not pay
    at::manual_seed(0);                   // the same inputs on every run
    const std::size_t total = static_cast<std::size_t>(std::count_if(names.begin(), names.end(), [](const auto& n) { return n.has_value(); }));
    ProgressPacer pacer(r.progress);
    std::size_t done = 0;
    for (int i = 0; i < graph.node_size(); ++i) {
        if (!names[static_cast<std::size_t>(i)]) continue;
        if (r.stop.stop_requested() ||
            !measureOp(graph.node(i), *names[static_cast<std::size_t>(i)], nodeIo(graph.node(i), table, opset), r, run)) {
            run.stopped = true;
            break;
        }
        pacer.tick(++done, total);
    }
    run.measuredSeconds = std::chrono::duration<double>(ProfileClock::now() - start).count();
    return run;
}

} // namespace sl::models::timing

// SPDX-License-Identifier: MIT
// `schedlab-cli profile`'s measurement (modelprofiler.h). The model is read once, by core's reader
// (core/io/onnxmodel.h: the ModelProto with libonnx's inferred shapes and every node's op name);
// the ops here take their dtypes and the constants' data from that ModelProto.
#include "models/timing/modelprofiler.h"

#include "models/encoder/maththreads.h"
#include "models/timing/measure.h"
#include "models/timing/onnxops.h"

#include "core/io/onnxmodel.h"
#include "core/profile/repetitions.h"
#include "core/util/atomicfile.h"

#include <ATen/ATen.h>
#include <c10/core/InferenceMode.h>

#include <onnx/onnx_pb.h>

#include <chrono>
#include <unordered_map>

namespace sl::models::timing {

namespace {

using ProfileClock = std::chrono::steady_clock;

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

ProfileRun profileOnnxModel(const ProfileRequest& r) {
    const auto start = ProfileClock::now();
    const OnnxModel model = readOnnxModel(readFile(r.modelPath), r.modelPath);   // the reader's parse, shapes and names
    const onnx::GraphProto& graph = model.proto.graph();
    const int opset = modelOpset(model.proto);
    const ValueTable table = valueTable(graph);
    const std::vector<std::optional<std::string>>& names = model.opNames;

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

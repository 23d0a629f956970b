// SPDX-License-Identifier: MIT
#include "core/graph/traininggraph.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace sl {
namespace {

/// Builds the training graph in the order the header documents: forward copy, loss, gradient ops,
/// updates, then the tensors between them.
class TrainingBuilder {
public:
    TrainingBuilder(const Graph& forward, const TrainingGraphOptions& options)
        : m_f(forward), m_options(options) {}

    Graph build() {
        copyForward();
        addLossOp();
        addGradientOps();
        addUpdateOps();
        connectLoss();
        addGradientTensors();
        addSavedTensors();
        addParameterGradients();
        checkTotal();
        try {
            m_g.finalize();
        } catch (const GraphError& e) {
            throw GraphError(std::string("training step: ") + e.what());
        }
        return std::move(m_g);
    }

private:
    /// `base`, or base~1, base~2, ... when a forward op (or an earlier new op) has it.
    std::string uniqueName(const std::string& base) {
        std::string name = base;
        for (int k = 1; m_names.count(name); ++k) name = base + "~" + std::to_string(k);
        m_names.insert(name);
        return name;
    }

    void copyForward() {
        m_g.setTimeUnit(m_f.timeUnit());
        for (const Op& o : m_f.ops()) {
            m_g.addOp(o);
            m_names.insert(o.name);
        }
        for (const Tensor& t : m_f.tensors()) {
            const TensorId id = m_g.addTensor(t.name, t.producer, t.bytes);
            for (OpId c : t.consumers) m_g.addConsumer(id, c);
        }
    }

    /// The tensors the loss reads: every forward tensor nobody consumes, in id order.
    std::vector<TensorId> graphOutputs() const {
        std::vector<TensorId> out;
        for (TensorId t = 0; t < m_f.tensorCount(); ++t)
            if (m_f.tensor(t).consumers.empty()) out.push_back(t);
        return out;
    }

    void addLossOp() {
        const std::vector<TensorId> outputs = graphOutputs();
        // Runs where the first graph output is made (its machine type exists on any platform
        // that runs the forward graph).
        const OpId anchor = outputs.empty() ? sinkOps().front() : m_f.tensor(outputs.front()).producer;
        double readBytes = 0;
        for (TensorId t : outputs) readBytes += m_f.tensor(t).bytes;
        m_loss = m_g.addOp({.name = uniqueName("loss"), .type = "Loss", .duration = rate() * 2 * readBytes,
                            .resourceDemand = m_f.op(anchor).resourceDemand, .machineType = m_f.op(anchor).machineType,
                            .work = derivedWork(m_f.op(anchor), OpClass::Reduction, readBytes / elementSize(m_f.op(anchor)), readBytes, readBytes)});
    }

    std::vector<OpId> sinkOps() const {
        std::vector<OpId> sinks;
        for (OpId v = 0; v < m_f.opCount(); ++v)
            if (m_f.successors(v).empty()) sinks.push_back(v);
        return sinks;
    }

    /// Reverse topological order, so gradient op ids run from the loss backwards.
    void addGradientOps() {
        m_grad.assign(static_cast<size_t>(m_f.opCount()), kNoOp);
        const auto& topo = m_f.topologicalOrder();
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            const Op& o = m_f.op(*it);
            Op g{.name = uniqueName("grad/" + o.name), .type = o.type + "Grad",
                 .duration = o.duration * m_options.backwardFactor, .paramBytes = o.paramBytes,
                 .resourceDemand = o.resourceDemand, .machineType = o.machineType};
            for (double d : o.deviceDurations) g.deviceDurations.push_back(d * m_options.backwardFactor);
            if (o.work.known()) {   // the device models time it as the forward op's work, scaled
                g.work = o.work;
                g.work.flops *= m_options.backwardFactor;
                g.work.bytesRead *= m_options.backwardFactor;
                g.work.bytesWritten *= m_options.backwardFactor;
                g.work.commBytes *= m_options.backwardFactor;
                g.timeSource = TimeSource::Estimated;
            }
            m_grad[static_cast<size_t>(*it)] = m_g.addOp(std::move(g));
        }
    }

    void addUpdateOps() {
        const bool adam = m_options.rule == UpdateRule::Adam;
        const double traffic = adam ? kAdamTraffic : kSgdTraffic;
        m_update.assign(static_cast<size_t>(m_f.opCount()), kNoOp);
        const auto& topo = m_f.topologicalOrder();
        for (auto it = topo.rbegin(); it != topo.rend(); ++it) {
            const Op& o = m_f.op(*it);
            if (o.paramBytes <= 0) continue;
            m_update[static_cast<size_t>(*it)] = m_g.addOp(
                {.name = uniqueName("update/" + o.name), .type = adam ? "AdamUpdate" : "SgdUpdate",
                 .duration = rate() * traffic * o.paramBytes,
                 .paramBytes = adam ? kAdamParamFactor * o.paramBytes : o.paramBytes,
                 .resourceDemand = o.resourceDemand, .machineType = o.machineType,
                 // a few FLOPs per weight, `traffic` passes over the weights' bytes
                 .work = derivedWork(o, OpClass::Elementwise, traffic * o.paramBytes / elementSize(o), traffic * o.paramBytes * 2 / 3,
                                     traffic * o.paramBytes / 3)});
        }
    }

    /// The loss reads the graph outputs; a sink op without outputs gets a control tensor to it.
    void connectLoss() {
        for (TensorId t : graphOutputs()) m_g.addConsumer(t, m_loss);
        for (OpId v : sinkOps())
            if (m_f.outputs(v).empty()) m_g.addEdge(v, m_loss, 0);
    }

    /// One gradient tensor per (tensor, distinct consumer) pair, written by the consumer's
    /// gradient op (or the loss) and summed by the producer's gradient op.
    void addGradientTensors() {
        const int forwardTensors = m_f.tensorCount();
        const int controls = m_g.tensorCount() - forwardTensors;   // "<op>->loss", made by connectLoss
        for (TensorId t = 0; t < forwardTensors + controls; ++t) {
            const Tensor x = m_g.tensor(t);   // a copy: addTensor below may reallocate
            std::vector<OpId> readers;
            for (OpId c : x.consumers)
                if (std::find(readers.begin(), readers.end(), c) == readers.end()) readers.push_back(c);
            const OpId sum = m_grad[static_cast<size_t>(x.producer)];
            for (OpId c : readers) {
                const OpId writer = c == m_loss ? m_loss : m_grad[static_cast<size_t>(c)];
                const std::string name = readers.size() == 1 ? "grad/" + x.name : "grad/" + x.name + "/" + m_g.op(c).name;
                const TensorId d = m_g.addTensor(name, writer, x.bytes);
                m_g.addConsumer(d, sum);
            }
        }
    }

    /// The forward tensors each gradient op reads (control tensors carry nothing to save).
    void addSavedTensors() {
        for (OpId v = 0; v < m_f.opCount(); ++v) {
            const SavedTensors rule = savedTensorsOf(m_f.op(v).type);
            const OpId grad = m_grad[static_cast<size_t>(v)];
            if (savesInputs(rule))
                for (TensorId t : m_f.inputs(v))
                    if (m_f.tensor(t).bytes > 0) m_g.addConsumer(t, grad);
            if (savesOutputs(rule))
                for (TensorId t : m_f.outputs(v))
                    if (m_f.tensor(t).bytes > 0) m_g.addConsumer(t, grad);
        }
    }

    void addParameterGradients() {
        for (OpId v = 0; v < m_f.opCount(); ++v) {
            const OpId update = m_update[static_cast<size_t>(v)];
            if (update == kNoOp) continue;
            const TensorId t = m_g.addTensor("grad/" + m_f.op(v).name + ":params", m_grad[static_cast<size_t>(v)],
                                             m_f.op(v).paramBytes);
            m_g.addConsumer(t, update);
        }
    }

    /// Graph::finalize refuses more than 2^53 bytes in all; say which op's weights weigh most.
    void checkTotal() const {
        double total = 0;
        for (const Tensor& t : m_g.tensors()) total += t.bytes;
        for (const Op& o : m_g.ops()) total += o.paramBytes;
        if (total <= 9007199254740992.0) return;
        OpId heaviest = 0;
        for (OpId v = 1; v < m_f.opCount(); ++v)
            if (m_f.op(v).paramBytes + m_f.outputBytes(v) > m_f.op(heaviest).paramBytes + m_f.outputBytes(heaviest)) heaviest = v;
        std::ostringstream msg;
        msg << "training step: its tensors, weights and optimizer state total " << total
            << " bytes, more than 2^53 (the largest share is op '" << m_f.op(heaviest).name << "', "
            << m_f.op(heaviest).paramBytes << " parameter bytes)";
        throw GraphError(msg.str());
    }

    /// Bytes per element of an op's arithmetic (fp32 when unknown).
    static double elementSize(const Op& o) { return o.work.dtype == DType::Unknown ? 4.0 : std::max(elementBytes(o.work.dtype), 1.0); }

    /// Work of a loss or an update beside forward op `o`: none when `o` has none (the graph keeps
    /// its own durations), else estimated on the device models like the forward ops.
    static OpWork derivedWork(const Op& o, OpClass c, double flops, double read, double written) {
        if (!o.work.known()) return {};
        return {.opClass = c, .dtype = o.work.dtype, .flops = flops, .bytesRead = read, .bytesWritten = written};
    }

    /// The median forward op's time per byte it touches (inputs, outputs, weights), over the ops
    /// that touch any; memoised. The median is a memory-bound op in real networks (ReLU, BN, Add:
    /// the ONNX importer's 100 GB/s roofline), which is how an update runs; a mean would charge
    /// the compute time of convolutions, and a minimum trusts the one op with no duration.
    double rate() {
        if (m_rate >= 0) return m_rate;
        std::vector<double> perByte;
        for (OpId v = 0; v < m_f.opCount(); ++v) {
            double bytes = m_f.outputBytes(v) + m_f.op(v).paramBytes;
            for (TensorId t : m_f.inputs(v)) bytes += m_f.tensor(t).bytes;
            if (bytes > 0) perByte.push_back(m_f.op(v).duration / bytes);
        }
        const auto middle = perByte.begin() + static_cast<std::ptrdiff_t>(perByte.size() / 2);
        if (!perByte.empty()) std::nth_element(perByte.begin(), middle, perByte.end());
        m_rate = perByte.empty() ? 0.0 : *middle;
        return m_rate;
    }

    const Graph& m_f;
    TrainingGraphOptions m_options;
    Graph m_g;
    std::unordered_set<std::string> m_names;
    OpId m_loss = kNoOp;
    std::vector<OpId> m_grad, m_update;   ///< per forward op
    double m_rate = -1;
};

} // namespace

Graph makeTrainingGraph(const Graph& forward, const TrainingGraphOptions& options) {
    if (!std::isfinite(options.backwardFactor) || options.backwardFactor < 0)
        throw std::invalid_argument("the backward duration factor must be a finite number >= 0");
    if (forward.opCount() == 0) throw GraphError("cannot derive a training step from a graph without ops");
    if (!forward.finalized()) {
        Graph copy = forward;   // finalize() names the op at fault
        copy.finalize();
        return TrainingBuilder(copy, options).build();
    }
    return TrainingBuilder(forward, options).build();
}

std::optional<UpdateRule> parseUpdateRule(std::string_view text) {
    std::string s(text);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (s == "sgd") return UpdateRule::Sgd;
    if (s == "adam") return UpdateRule::Adam;
    return std::nullopt;
}

std::string_view updateRuleName(UpdateRule rule) { return rule == UpdateRule::Adam ? "adam" : "sgd"; }

double residentParameterBytes(const Graph& forward, UpdateRule rule) {
    double weights = 0;
    for (const Op& o : forward.ops()) weights += o.paramBytes;
    return rule == UpdateRule::Adam ? kAdamParamFactor * weights : weights;
}

} // namespace sl

// SPDX-License-Identifier: MIT
#include "onnxmutator.h"

#include <onnx/onnx_pb.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace sl::fuzz {
namespace {

using Rng = std::minstd_rand;

int pick(Rng& rng, int n) { return n <= 0 ? 0 : std::uniform_int_distribution<int>(0, n - 1)(rng); }

// values that break arithmetic: zero, negatives, the edges of int32/int64, plausible sizes
std::int64_t oddInt(Rng& rng) {
    static const std::int64_t values[] = {0, 1, -1, 2, 3, 7, 64, 1000, -2, 1 << 20, INT32_MAX, INT32_MIN,
                                          INT64_MAX, INT64_MIN, std::int64_t(1) << 40, std::int64_t(1) << 62};
    return values[pick(rng, int(std::size(values)))];
}

// every value name the graph mentions, so that rewiring creates cycles and self-loops, not only misses
std::vector<std::string> valueNames(const onnx::GraphProto& g) {
    std::vector<std::string> names;
    for (const auto& n : g.node()) {
        for (const auto& s : n.input()) names.push_back(s);
        for (const auto& s : n.output()) names.push_back(s);
    }
    for (const auto& v : g.input()) names.push_back(v.name());
    for (const auto& v : g.output()) names.push_back(v.name());
    for (const auto& t : g.initializer()) names.push_back(t.name());
    names.push_back("");
    names.push_back("missing");
    return names;
}

void mutateShape(onnx::TypeProto& type, Rng& rng) {
    auto* shape = type.mutable_tensor_type()->mutable_shape();
    if (shape->dim_size() == 0 || pick(rng, 4) == 0) {
        shape->add_dim()->set_dim_value(oddInt(rng));
        return;
    }
    auto* d = shape->mutable_dim(pick(rng, shape->dim_size()));
    if (pick(rng, 3) == 0) d->set_dim_param("N");
    else d->set_dim_value(oddInt(rng));
}

void mutateAttribute(onnx::NodeProto& n, Rng& rng) {
    if (n.attribute_size() == 0 || pick(rng, 4) == 0) {
        static const char* names[] = {"kernel_shape", "strides", "pads", "dilations", "group", "axis", "perm", "to"};
        auto* a = n.add_attribute();
        a->set_name(names[pick(rng, int(std::size(names)))]);
        a->set_type(onnx::AttributeProto::INTS);
        for (int i = pick(rng, 5); i > 0; --i) a->add_ints(oddInt(rng));
        return;
    }
    auto* a = n.mutable_attribute(pick(rng, n.attribute_size()));
    switch (pick(rng, 4)) {
    case 0: a->set_i(oddInt(rng)); break;
    case 1: if (a->ints_size()) a->set_ints(pick(rng, a->ints_size()), oddInt(rng)); else a->add_ints(oddInt(rng)); break;
    case 2: a->clear_ints(); break;
    default: a->set_type(onnx::AttributeProto::AttributeType(pick(rng, 14))); break;
    }
}

void mutateGraph(onnx::GraphProto& g, Rng& rng) {
    static const char* ops[] = {"Conv", "Relu", "MatMul", "Gemm", "Add", "Concat", "Reshape", "MaxPool",
                                "Flatten", "Softmax", "If", "Loop", "Unknown", ""};
    const int nodes = g.node_size();
    switch (pick(rng, 12)) {
    case 0: if (nodes) g.mutable_node(pick(rng, nodes))->set_op_type(ops[pick(rng, int(std::size(ops)))]); break;
    case 1: if (nodes) g.mutable_node()->DeleteSubrange(pick(rng, nodes), 1); break;
    case 2: if (nodes) *g.add_node() = g.node(pick(rng, nodes)); break;   // duplicate outputs
    case 3: {   // rewire one input or output to another name
        if (!nodes) break;
        const auto names = valueNames(g);
        auto* n = g.mutable_node(pick(rng, nodes));
        const std::string& to = names[pick(rng, int(names.size()))];
        if (pick(rng, 2) && n->input_size()) n->set_input(pick(rng, n->input_size()), to);
        else if (n->output_size()) n->set_output(pick(rng, n->output_size()), to);
        else n->add_output(to);
        break;
    }
    case 4: if (nodes) mutateAttribute(*g.mutable_node(pick(rng, nodes)), rng); break;
    case 5: if (g.input_size()) mutateShape(*g.mutable_input(pick(rng, g.input_size()))->mutable_type(), rng); break;
    case 6: if (g.value_info_size()) mutateShape(*g.mutable_value_info(pick(rng, g.value_info_size()))->mutable_type(), rng);
            else if (g.output_size()) mutateShape(*g.mutable_output(pick(rng, g.output_size()))->mutable_type(), rng);
            break;
    case 7:
        if (g.input_size())
            g.mutable_input(pick(rng, g.input_size()))->mutable_type()->mutable_tensor_type()->set_elem_type(pick(rng, 20));
        break;
    case 8: {   // initializer dims and type: what the parameter bytes are computed from
        if (!g.initializer_size()) break;
        auto* t = g.mutable_initializer(pick(rng, g.initializer_size()));
        if (pick(rng, 2) && t->dims_size()) t->set_dims(pick(rng, t->dims_size()), oddInt(rng));
        else if (pick(rng, 2)) t->set_data_type(pick(rng, 20));
        else t->add_dims(oddInt(rng));
        break;
    }
    case 9: if (g.initializer_size()) g.mutable_initializer()->DeleteSubrange(pick(rng, g.initializer_size()), 1); break;
    case 10: if (nodes > 1) g.mutable_node()->SwapElements(pick(rng, nodes), pick(rng, nodes)); break;
    default: if (g.output_size()) g.mutable_output()->DeleteSubrange(pick(rng, g.output_size()), 1); break;
    }
}

} // namespace

std::size_t mutateOnnxModel(std::uint8_t* data, std::size_t size, std::size_t maxSize, unsigned seed) {
    onnx::ModelProto model;
    if (!model.ParseFromArray(data, int(size))) return 0;
    Rng rng(seed);
    if (pick(rng, 16) == 0) {   // the opset decides which schemas shape inference uses
        if (model.opset_import_size()) model.mutable_opset_import(0)->set_version(oddInt(rng));
        else model.set_ir_version(oddInt(rng));
    } else {
        mutateGraph(*model.mutable_graph(), rng);
    }
    std::string out;
    if (!model.SerializeToString(&out) || out.size() > maxSize) return 0;
    std::memcpy(data, out.data(), out.size());
    return out.size();
}

} // namespace sl::fuzz

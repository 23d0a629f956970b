// SPDX-License-Identifier: MIT
#include "models/distributed/dataparallel.h"

#include "models/distributed/gloogroup.h"

#include <torch/torch.h>

namespace sl::models {

namespace {

/// The tensors, detached, as one flat buffer (tensors of many shapes go through one collective).
torch::Tensor flattened(const std::vector<torch::Tensor>& tensors) {
    std::vector<torch::Tensor> flat;
    for (const auto& t : tensors) flat.push_back(t.detach().reshape({-1}));
    return flat.empty() ? torch::zeros({0}) : torch::cat(flat).contiguous();
}

/// Calls put(i, slice) with tensor i's part of `buffer`, shaped and typed as tensors[i].
template <typename Put>
void forEachSlice(const torch::Tensor& buffer, const std::vector<torch::Tensor>& tensors, Put&& put) {
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        const std::int64_t n = tensors[i].numel();
        put(i, buffer.narrow(0, offset, n).view(tensors[i].sizes()).to(tensors[i].dtype()));
        offset += n;
    }
}

} // namespace

DataParallel::DataParallel(const dist::DistOptions& options) : m_options(options) {
    if (m_options.distributed()) m_group = std::make_unique<GlooGroup>(m_options);
}

DataParallel::~DataParallel() = default;

std::uint64_t DataParallel::seed(std::uint64_t seed) const { return dist::rankSeed(seed, m_options.rank); }

void DataParallel::requireSameStep(std::int64_t step) {
    if (!m_group) return;
    torch::Tensor range = torch::tensor({step, -step}, torch::kInt64);   // max and -min in one all-reduce
    m_group->allReduceMax(range);
    const std::int64_t highest = range[0].item<std::int64_t>(), lowest = -range[1].item<std::int64_t>();
    if (highest != step || lowest != step)
        throw dist::DistError("distributed: " + m_options.describe() + ": this rank starts at step " + std::to_string(step) +
                              ", but another starts at step " + std::to_string(highest != step ? highest : lowest) +
                              "; every rank must resume from the same checkpoint (a shared folder, or copy rank 0's)");
}

void DataParallel::broadcastParameters(const std::vector<torch::Tensor>& params) {
    if (!m_group) return;
    torch::NoGradGuard noGrad;
    torch::Tensor buffer = flattened(params);
    m_group->broadcastFromRoot(buffer);
    forEachSlice(buffer, params, [&](std::size_t i, const torch::Tensor& root) { params[i].detach().copy_(root); });
}

void DataParallel::averageGradients(const std::vector<torch::Tensor>& params) {
    if (!m_group) return;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    for (const auto& p : params) grads.push_back(p.grad().defined() ? p.grad() : torch::zeros_like(p));
    // float32 gradients summed in float32, as DDP does; one buffer, one collective
    torch::Tensor buffer = flattened(grads);
    m_group->allReduceSum(buffer);
    buffer.div_(static_cast<double>(m_options.worldSize));
    forEachSlice(buffer, params, [&](std::size_t i, const torch::Tensor& averaged) {
        const torch::Tensor& p = params[i];
        if (p.grad().defined()) p.mutable_grad().copy_(averaged);
        else p.mutable_grad() = averaged.clone();
    });
}

bool DataParallel::anyStops(bool localStop) { return m_group ? m_group->anyTrue(localStop) : localStop; }

std::vector<double> DataParallel::mean(std::vector<double> values) {
    if (!m_group || values.empty()) return values;
    torch::Tensor t = torch::tensor(values, torch::kFloat64);
    m_group->allReduceSum(t);
    t.div_(static_cast<double>(m_options.worldSize));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = t[static_cast<std::int64_t>(i)].item<double>();
    return values;
}

void DataParallel::requireIdenticalParameters(const std::vector<torch::Tensor>& params) {
    if (!m_group) return;
    const torch::Tensor mine = flattened(params);
    torch::Tensor root = mine.clone();
    m_group->broadcastFromRoot(root);
    const bool differs = !torch::equal(mine, root);
    if (m_group->anyTrue(differs))
        throw dist::DistError("distributed: " + m_options.describe() + ": the ranks' weights differ from rank 0's" +
                              (differs ? " (this rank's do)" : "") + "; the ranks did not take the same steps");
}

} // namespace sl::models

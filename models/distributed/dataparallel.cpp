// SPDX-License-Identifier: MIT
#include "models/distributed/dataparallel.h"

#include "models/distributed/gloogroup.h"

#include <torch/torch.h>

namespace sl::models {

namespace {

/// The tensors as one flat float64 vector (gradients of mixed shapes reduce in one collective).
torch::Tensor flatten(const std::vector<torch::Tensor>& tensors) {
    std::vector<torch::Tensor> flat;
    for (const auto& t : tensors) flat.push_back(t.detach().reshape({-1}).to(torch::kFloat64));
    return flat.empty() ? torch::zeros({0}, torch::kFloat64) : torch::cat(flat).contiguous();
}

} // namespace

DataParallel::DataParallel(const dist::DistOptions& options) : m_options(options) {
    if (m_options.distributed()) m_group = std::make_unique<GlooGroup>(m_options);
}

DataParallel::~DataParallel() = default;

std::uint64_t DataParallel::seed(std::uint64_t seed) const { return dist::rankSeed(seed, m_options.rank); }

void DataParallel::requireSameStep(std::int64_t step) {
    if (!m_group) return;
    torch::Tensor hi = torch::tensor({step}, torch::kInt64), lo = torch::tensor({-step}, torch::kInt64);
    m_group->allReduceMax(hi);
    m_group->allReduceMax(lo);
    if (hi.item<std::int64_t>() != step || -lo.item<std::int64_t>() != step)
        throw dist::DistError("distributed: " + m_options.describe() + ": this rank starts at step " + std::to_string(step) +
                              ", but another starts at step " +
                              std::to_string(hi.item<std::int64_t>() != step ? hi.item<std::int64_t>() : -lo.item<std::int64_t>()) +
                              "; every rank must resume from the same checkpoint (a shared folder, or copy rank 0's)");
}

void DataParallel::broadcastParameters(const std::vector<torch::Tensor>& params) {
    if (!m_group) return;
    torch::NoGradGuard noGrad;
    for (const auto& p : params) {
        torch::Tensor t = p.detach().contiguous().clone();
        m_group->broadcastFromRoot(t);
        p.detach().copy_(t);
    }
}

void DataParallel::averageGradients(const std::vector<torch::Tensor>& params) {
    if (!m_group) return;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> grads;
    for (const auto& p : params) grads.push_back(p.grad().defined() ? p.grad() : torch::zeros_like(p));
    // float32 gradients summed in float32, as DDP does; one buffer, one collective
    std::vector<torch::Tensor> flat;
    for (const auto& g : grads) flat.push_back(g.reshape({-1}));
    torch::Tensor buffer = torch::cat(flat).contiguous();
    m_group->allReduceSum(buffer);
    buffer.div_(static_cast<double>(m_options.worldSize));
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const torch::Tensor& p = params[i];
        const std::int64_t n = p.numel();
        torch::Tensor averaged = buffer.narrow(0, offset, n).view(p.sizes()).to(p.dtype());
        if (p.grad().defined()) p.mutable_grad().copy_(averaged);
        else p.mutable_grad() = averaged.clone();
        offset += n;
    }
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
    const torch::Tensor mine = flatten(params);
    torch::Tensor root = mine.clone();
    m_group->broadcastFromRoot(root);
    const bool differs = !torch::equal(mine, root);
    if (m_group->anyTrue(differs))
        throw dist::DistError("distributed: " + m_options.describe() + ": the ranks' weights differ from rank 0's" +
                              (differs ? " (this rank's do)" : "") + "; the ranks did not take the same steps");
}

} // namespace sl::models

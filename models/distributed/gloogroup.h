// SPDX-License-Identifier: MIT
#pragma once
/// \file
/// A process group over LibTorch's c10d: a TCPStore rendezvous hosted by rank 0 and a
/// ProcessGroupGloo for the collectives, the engine PyTorch's DistributedDataParallel runs on.
/// Every failure (a peer that never joins, dies, or stops answering within the timeout) becomes a
/// dist::DistError naming this rank, the master and what to check; nothing here waits forever.
///
/// \code
///   sl::models::GlooGroup group(options);     // the rendezvous: all ranks, or DistError
///   torch::Tensor t = torch::ones({3});
///   group.allReduceSum(t);                     // every rank now holds the sum
/// \endcode

#include "core/dist/communicator.h"

#include <torch/types.h>

#include <memory>
#include <string>

namespace sl::models {

class GlooGroup final : public dist::Communicator {
public:
    explicit GlooGroup(const dist::DistOptions& options);
    ~GlooGroup() override;
    GlooGroup(const GlooGroup&) = delete;
    GlooGroup& operator=(const GlooGroup&) = delete;

    const dist::DistOptions& options() const override { return m_options; }
    std::vector<std::string> allGather(const std::string& bytes) override;
    bool anyTrue(bool flag) override;
    void barrier() override;

    /// Sums a contiguous CPU tensor in place over the ranks; every rank ends with the same bits.
    void allReduceSum(torch::Tensor& t);
    void allReduceMax(torch::Tensor& t);
    /// Overwrites `t` with rank 0's.
    void broadcastFromRoot(torch::Tensor& t);

private:
    /// Runs a collective inside a dist::BlockingWait; a failure names the ranks that left.
    template <typename F>
    void collective(const char* what, F&& run);
    /// "rank 1 left (interrupted (SIGINT))", "rank 1 is gone (its process ended)", or "".
    std::string whoLeft() const;

    struct Impl;
    dist::DistOptions m_options;
    std::unique_ptr<Impl> m_impl;
};

/// Registers GlooGroup as core's communicator factory (called when the neural module registers).
void registerGlooCommunicator();

} // namespace sl::models

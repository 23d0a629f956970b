// SPDX-License-Identifier: MIT
#include "models/distributed/gloogroup.h"

#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/torch.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace sl::models {

using dist::DistError;

namespace {

std::string shortMessage(const std::exception& e) {
    if (const auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
    return e.what();
}

std::chrono::milliseconds toMillis(double seconds) {
    return std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
}

bool isLoopback(const std::string& host) {
    return host == "localhost" || host.rfind("127.", 0) == 0 || host == "::1";
}

/// Gloo's transport device: $GLOO_SOCKET_IFNAME if set (as PyTorch does), loopback for a loopback
/// master, else the interface this host's name resolves to.
std::shared_ptr<::gloo::transport::Device> transportDevice(const std::string& masterHost) {
    if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface)
        return c10d::ProcessGroupGloo::createDeviceForInterface(iface);
    if (isLoopback(masterHost)) return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    return c10d::ProcessGroupGloo::createDefaultDevice();
}

} // namespace

struct GlooGroup::Impl {
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

GlooGroup::GlooGroup(const dist::DistOptions& o) : m_options(o), m_impl(std::make_unique<Impl>()) {
    const std::string who = "distributed: " + o.describe();
    const std::string within = " within " + std::to_string(static_cast<int>(o.timeoutSeconds)) + " s";
    c10d::TCPStoreOptions so;
    so.port = static_cast<std::uint16_t>(o.port);
    so.isServer = o.isRoot();
    so.numWorkers = static_cast<std::size_t>(o.worldSize);
    so.waitWorkers = false;   // the join count below waits, and can say who is missing
    so.timeout = toMillis(o.timeoutSeconds);
    try {
        m_impl->store = c10::make_intrusive<c10d::TCPStore>(o.host, so);
    } catch (const std::exception& e) {
        if (o.isRoot())
            throw DistError(who + ": could not host the rendezvous at " + o.master() + " (" + shortMessage(e) +
                            "); is another run using the port? Pick another with --master HOST:PORT");
        throw DistError(who + ": could not reach the master at " + o.master() + within + " (" + shortMessage(e) +
                        "); is rank 0 running, and is the address right?");
    }
    try {
        // The join count: each rank marks itself, then waits until all have.
        auto& store = *m_impl->store;
        store.set("schedlab/joined/" + std::to_string(o.rank), std::vector<std::uint8_t>{1});
        store.add("schedlab/joined", 1);
        const auto deadline = std::chrono::steady_clock::now() + toMillis(o.timeoutSeconds);
        while (store.add("schedlab/joined", 0) < o.worldSize) {
            if (std::chrono::steady_clock::now() >= deadline) {
                std::string missing;
                for (int r = 0; r < o.worldSize; ++r)
                    if (!store.check({"schedlab/joined/" + std::to_string(r)})) missing += (missing.empty() ? "" : ", ") + std::to_string(r);
                throw DistError(who + ": not every rank joined" + within + "; missing rank(s) " + missing +
                                ". Start all " + std::to_string(o.worldSize) + " ranks with the same --master " + o.master() +
                                " and --world-size (scripts/launch-local.sh does it on one machine)");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        auto options = c10d::ProcessGroupGloo::Options::create(toMillis(o.timeoutSeconds));
        options->devices.push_back(transportDevice(o.host));
        options->threads = 1;
        m_impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(m_impl->store, o.rank, o.worldSize, options);
    } catch (const DistError&) {
        throw;
    } catch (const std::exception& e) {
        throw DistError(who + ": the rendezvous at " + o.master() + " failed (" + shortMessage(e) +
                        "); a peer left or did not answer" + within);
    }
}

GlooGroup::~GlooGroup() = default;

namespace {

template <typename F>
void collective(const dist::DistOptions& o, const char* what, F&& run) {
    try {
        run()->wait();
    } catch (const std::exception& e) {
        throw DistError("distributed: " + o.describe() + ": " + what + " failed: a peer rank stopped or did not answer within " +
                        std::to_string(static_cast<int>(o.timeoutSeconds)) + " s (" + shortMessage(e) + ")");
    }
}

} // namespace

void GlooGroup::allReduceSum(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    collective(m_options, "an all-reduce", [&] { return m_impl->group->allreduce(v); });
}

void GlooGroup::allReduceMax(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::MAX;
    collective(m_options, "an all-reduce", [&] { return m_impl->group->allreduce(v, opts); });
}

void GlooGroup::broadcastFromRoot(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    c10d::BroadcastOptions opts;
    opts.rootRank = 0;
    collective(m_options, "a broadcast", [&] { return m_impl->group->broadcast(v, opts); });
}

std::vector<std::string> GlooGroup::allGather(const std::string& bytes) {
    const auto world = static_cast<std::size_t>(m_options.worldSize);
    // Sizes first, then every payload padded to the longest.
    std::vector<at::Tensor> size{torch::tensor({static_cast<std::int64_t>(bytes.size())}, torch::kInt64)};
    std::vector<std::vector<at::Tensor>> sizes(1);
    for (std::size_t r = 0; r < world; ++r) sizes[0].push_back(torch::zeros({1}, torch::kInt64));
    collective(m_options, "a gather of sizes", [&] { return m_impl->group->allgather(sizes, size); });
    std::int64_t longest = 1;
    for (const auto& s : sizes[0]) longest = std::max(longest, s.item<std::int64_t>());
    std::vector<at::Tensor> mine{torch::zeros({longest}, torch::kUInt8)};
    std::memcpy(mine[0].data_ptr(), bytes.data(), bytes.size());
    std::vector<std::vector<at::Tensor>> all(1);
    for (std::size_t r = 0; r < world; ++r) all[0].push_back(torch::zeros({longest}, torch::kUInt8));
    collective(m_options, "a gather", [&] { return m_impl->group->allgather(all, mine); });
    std::vector<std::string> out;
    for (std::size_t r = 0; r < world; ++r)
        out.emplace_back(static_cast<const char*>(all[0][r].data_ptr()), static_cast<std::size_t>(sizes[0][r].item<std::int64_t>()));
    return out;
}

bool GlooGroup::anyTrue(bool flag) {
    torch::Tensor t = torch::tensor({flag ? 1 : 0}, torch::kInt32);
    allReduceMax(t);
    return t.item<int>() != 0;
}

void GlooGroup::barrier() {
    collective(m_options, "a barrier", [&] { return m_impl->group->barrier(); });
}

void registerGlooCommunicator() {
    dist::setCommunicatorFactory([](const dist::DistOptions& o) -> std::unique_ptr<dist::Communicator> {
        return std::make_unique<GlooGroup>(o);
    });
}

} // namespace sl::models

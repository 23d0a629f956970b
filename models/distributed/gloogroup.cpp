// SPDX-License-Identifier: MIT
#include "models/distributed/gloogroup.h"

#include "models/distributed/localrendezvous.h"

#include "core/dist/blockingwait.h"

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

/// Gloo's transport device: 127.0.0.1 for a loopback master (every rank is here, and a local run
/// listens on nothing else), else $GLOO_SOCKET_IFNAME if set (as PyTorch does), else the interface
/// this host's name resolves to.
std::shared_ptr<::gloo::transport::Device> transportDevice(const std::string& masterHost) {
    if (isLoopback(masterHost)) return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    if (const char* iface = std::getenv("GLOO_SOCKET_IFNAME"); iface && *iface)
        return c10d::ProcessGroupGloo::createDeviceForInterface(iface);
    return c10d::ProcessGroupGloo::createDefaultDevice();
}

} // namespace

struct GlooGroup::Impl {
    std::unique_ptr<LocalRendezvous> local;   ///< a loopback master: no TCPStore, no listener
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
};

namespace {

std::string leftKey(int rank) { return "schedlab/left/" + std::to_string(rank); }

std::string leftNote(c10d::Store& store, int rank) {
    const std::vector<std::uint8_t> bytes = store.get(leftKey(rank));
    return {bytes.begin(), bytes.end()};
}

std::string join(const std::vector<int>& ranks) {
    std::string out;
    for (int r : ranks) out += (out.empty() ? "" : ", ") + std::to_string(r);
    return out;
}

/// A TCPStore: hosted here (rank 0) or reached at the master; the rendezvous of runs across hosts.
c10::intrusive_ptr<c10d::Store> tcpStore(const dist::DistOptions& o, const std::string& who, const std::string& within) {
    c10d::TCPStoreOptions so;
    so.port = static_cast<std::uint16_t>(o.port);
    so.isServer = o.isRoot();
    so.numWorkers = static_cast<std::size_t>(o.worldSize);
    so.waitWorkers = false;   // the join count waits, and can say who is missing
    so.timeout = toMillis(o.timeoutSeconds);
    try {
        return c10::make_intrusive<c10d::TCPStore>(o.host, so);
    } catch (const std::exception& e) {
        if (o.isRoot())
            throw DistError(who + ": could not host the rendezvous at " + o.master() + " (" + shortMessage(e) +
                            "); is another run using the port? Pick another with --master HOST:PORT");
        throw DistError(who + ": could not reach the master at " + o.master() + within + " (" + shortMessage(e) +
                        "); is rank 0 running, and is the address right?");
    }
}

/// Tells the peers this rank leaves, from the signal watcher's thread (core/dist/blockingwait.h).
void setLeaveNoticeFor(const dist::DistOptions& o, const LocalRendezvous* local) {
    dist::setLeaveNotice([o, local](const std::string& reason) {
        if (local) return local->setFromAnotherThread(leftKey(o.rank), reason);
        if (o.isRoot()) return;   // the store leaves with rank 0: its peers see it gone
        c10d::TCPStoreOptions so;   // a connection of its own: the rank's own one is busy
        so.port = static_cast<std::uint16_t>(o.port);
        so.timeout = std::chrono::milliseconds(1000);
        auto* store = new c10d::TCPStore(o.host, so);   // never freed: the process ends right after
        store->set(leftKey(o.rank), std::vector<std::uint8_t>(reason.begin(), reason.end()));
    });
}

/// The join count: each rank marks itself, then waits until all have. Twice a second it says who
/// is missing (for an interrupt's message) and stops early if a rank left a note.
void awaitEveryRank(c10d::Store& store, const dist::DistOptions& o, dist::BlockingWait& wait,
                    std::chrono::steady_clock::time_point deadline) {
    const std::string who = "distributed: " + o.describe();
    store.set("schedlab/joined/" + std::to_string(o.rank), std::vector<std::uint8_t>{1});
    store.add("schedlab/joined", 1);
    auto missingRanks = [&] {
        std::vector<int> missing;
        for (int r = 0; r < o.worldSize; ++r)
            if (!store.check({"schedlab/joined/" + std::to_string(r)})) missing.push_back(r);
        return missing;
    };
    for (int polls = 0; store.add("schedlab/joined", 0) < o.worldSize; ++polls) {
        if (polls % 25 == 0) {
            wait.describe("missing rank(s) " + join(missingRanks()) + " to join the rendezvous at " + o.master());
            for (int r = 0; r < o.worldSize; ++r)
                if (store.check({leftKey(r)}))
                    throw DistError(who + ": rank " + std::to_string(r) + " left the rendezvous (" + leftNote(store, r) + ")");
        }
        if (std::chrono::steady_clock::now() >= deadline)
            throw DistError(who + ": not every rank joined within " + std::to_string(static_cast<int>(o.timeoutSeconds)) +
                            " s; missing rank(s) " + join(missingRanks()) + ". Start all " + std::to_string(o.worldSize) +
                            " ranks with the same --master " + o.master() +
                            " and --world-size (scripts/launch-local.sh does it on one machine)");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

} // namespace

GlooGroup::GlooGroup(const dist::DistOptions& o) : m_options(o), m_impl(std::make_unique<Impl>()) {
    const std::string who = "distributed: " + o.describe();
    const std::string within = " within " + std::to_string(static_cast<int>(o.timeoutSeconds)) + " s";
    const auto deadline = std::chrono::steady_clock::now() + toMillis(o.timeoutSeconds);
    dist::BlockingWait wait(o, o.isRoot() ? "the other ranks to join the rendezvous at " + o.master()
                                          : "rank 0 to open the rendezvous at " + o.master());
    if (isLoopback(o.host)) {
        m_impl->local = std::make_unique<LocalRendezvous>(o, deadline);
        m_impl->store = m_impl->local->store();
    } else {
        m_impl->store = tcpStore(o, who, within);
    }
    setLeaveNoticeFor(o, m_impl->local.get());
    try {
        awaitEveryRank(*m_impl->store, o, wait, deadline);
        wait.describe("the other ranks to connect (Gloo)");
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

GlooGroup::~GlooGroup() { dist::setLeaveNotice({}); }

std::string GlooGroup::whoLeft() const {
    std::vector<std::string> notes;
    try {
        for (int r = 0; r < m_options.worldSize; ++r)
            if (r != m_options.rank && m_impl->store->check({leftKey(r)}))
                notes.push_back("rank " + std::to_string(r) + " left (" + leftNote(*m_impl->store, r) + ")");
    } catch (const std::exception&) {
        return "rank 0 is gone (the rendezvous it hosted no longer answers)";
    }
    if (notes.empty() && m_impl->local) {
        // A dying process's sockets can close a moment before the kernel frees its locks: a
        // connection that just broke gives the peer's exit up to a second to show.
        std::vector<int> gone = m_impl->local->departedRanks();
        for (int i = 0; i < 50 && gone.empty(); ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            gone = m_impl->local->departedRanks();
        }
        for (int r : gone) notes.push_back("rank " + std::to_string(r) + " is gone (it left the run, or its process ended)");
    }
    std::string out;
    for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
    return out;
}

template <typename F>
void GlooGroup::collective(const char* what, F&& run) {
    try {
        const dist::BlockingWait wait(m_options, std::string(what) + " with all " + std::to_string(m_options.worldSize) + " ranks");
        run()->wait();
    } catch (const std::exception& e) {
        const std::string left = whoLeft();
        throw DistError("distributed: " + m_options.describe() + ": " + what + " failed: " +
                        (left.empty() ? "a peer rank stopped or did not answer within " +
                                            std::to_string(static_cast<int>(m_options.timeoutSeconds)) + " s"
                                      : left) +
                        " (" + shortMessage(e) + ")");
    }
}

void GlooGroup::allReduceSum(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    collective("an all-reduce", [&] { return m_impl->group->allreduce(v); });
}

void GlooGroup::allReduceMax(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    c10d::AllreduceOptions opts;
    opts.reduceOp = c10d::ReduceOp::MAX;
    collective("an all-reduce", [&] { return m_impl->group->allreduce(v, opts); });
}

void GlooGroup::broadcastFromRoot(torch::Tensor& t) {
    std::vector<at::Tensor> v{t};
    c10d::BroadcastOptions opts;
    opts.rootRank = 0;
    collective("a broadcast", [&] { return m_impl->group->broadcast(v, opts); });
}

std::vector<std::string> GlooGroup::allGather(const std::string& bytes) {
    const auto world = static_cast<std::size_t>(m_options.worldSize);
    // Sizes first, then every payload padded to the longest.
    std::vector<at::Tensor> size{torch::tensor({static_cast<std::int64_t>(bytes.size())}, torch::kInt64)};
    std::vector<std::vector<at::Tensor>> sizes(1);
    for (std::size_t r = 0; r < world; ++r) sizes[0].push_back(torch::zeros({1}, torch::kInt64));
    collective("a gather of sizes", [&] { return m_impl->group->allgather(sizes, size); });
    std::int64_t longest = 1;
    for (const auto& s : sizes[0]) longest = std::max(longest, s.item<std::int64_t>());
    std::vector<at::Tensor> mine{torch::zeros({longest}, torch::kUInt8)};
    std::memcpy(mine[0].data_ptr(), bytes.data(), bytes.size());
    std::vector<std::vector<at::Tensor>> all(1);
    for (std::size_t r = 0; r < world; ++r) all[0].push_back(torch::zeros({longest}, torch::kUInt8));
    collective("a gather", [&] { return m_impl->group->allgather(all, mine); });
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
    collective("a barrier", [&] { return m_impl->group->barrier(); });
}

void registerGlooCommunicator() {
    dist::setCommunicatorFactory([](const dist::DistOptions& o) -> std::unique_ptr<dist::Communicator> {
        return std::make_unique<GlooGroup>(o);
    });
}

} // namespace sl::models

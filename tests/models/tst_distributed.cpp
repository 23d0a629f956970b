// SPDX-License-Identifier: MIT
// models/distributed: data-parallel training over LibTorch's c10d (Gloo) with two ranks on
// loopback, as two threads of this process (each with its own handle on the local rendezvous's
// FileStore, models/distributed/localrendezvous.h, and its own Gloo group).
#include "common/testmain.h"
#include "models/distributed/dataparallel.h"
#include "models/distributed/gloogroup.h"

#include "core/dist/communicator.h"

#include <QTest>

#include <torch/torch.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

using namespace sl;
using Clock = std::chrono::steady_clock;

namespace {

/// A loopback port nobody listens on (the kernel's pick for port 0).
int freePort() {
    const int s = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    socklen_t n = sizeof a;
    ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &n);
    ::close(s);
    return ntohs(a.sin_port);
}

dist::DistOptions rankOptions(int world, int rank, int port, double timeout) {
    dist::DistOptions o;
    o.worldSize = world;
    o.rank = rank;
    o.port = port;
    o.timeoutSeconds = timeout;
    return o;
}

/// Runs body(rank) on `world` threads; rethrows the first exception after all have ended.
void runRanks(int world, const std::function<void(int)>& body) {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(world));
    std::vector<std::thread> threads;
    for (int r = 0; r < world; ++r)
        threads.emplace_back([&, r] {
            try {
                body(r);
            } catch (...) {
                errors[static_cast<std::size_t>(r)] = std::current_exception();
            }
        });
    for (auto& t : threads) t.join();
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
}

torch::nn::Sequential smallNet() {
    torch::manual_seed(7);
    return torch::nn::Sequential(torch::nn::Linear(4, 8), torch::nn::Tanh(), torch::nn::Linear(8, 1));
}

/// Rank r's batch: 5 rows of its own.
std::pair<torch::Tensor, torch::Tensor> batchOf(int r) {
    torch::manual_seed(100 + r);
    return {torch::randn({5, 4}), torch::randn({5, 1})};
}

torch::Tensor lossOn(torch::nn::Sequential& net, const torch::Tensor& x, const torch::Tensor& y) {
    return torch::mse_loss(net->forward(x), y);
}

std::vector<torch::Tensor> gradsOf(torch::nn::Sequential& net) {
    std::vector<torch::Tensor> out;
    for (const auto& p : net->parameters()) out.push_back(p.grad().clone());
    return out;
}

torch::Tensor flat(const std::vector<torch::Tensor>& ts) {
    std::vector<torch::Tensor> f;
    for (const auto& t : ts) f.push_back(t.reshape({-1}));
    return torch::cat(f);
}

/// What one rank trains on: its net and three batches, made on the main thread (torch's global
/// generator is not for two threads at once).
struct RankData {
    torch::nn::Sequential net;
    std::vector<std::pair<torch::Tensor, torch::Tensor>> batches;
};

RankData rankData(int rank) {
    RankData d{smallNet(), {}};
    if (rank == 1) {   // rank 1 starts elsewhere: the broadcast must give it rank 0's weights
        torch::NoGradGuard noGrad;
        for (auto& p : d.net->parameters()) p.add_(1.0);
    }
    for (int step = 0; step < 3; ++step) {
        torch::manual_seed(1000 * (rank + 1) + step);   // different data on each rank and step
        d.batches.emplace_back(torch::randn({6, 4}), torch::randn({6, 1}));
    }
    return d;
}

/// Three Adam steps on each rank's own batches; `average` = false skips the all-reduce.
std::vector<torch::Tensor> train3(int rank, RankData& d, int port, bool average, bool checkIdentical) {
    models::DataParallel dp(rankOptions(2, rank, port, 20));
    torch::nn::Sequential& net = d.net;
    const std::vector<torch::Tensor> params = net->parameters();
    dp.broadcastParameters(params);
    torch::optim::Adam adam(params, torch::optim::AdamOptions(0.05));
    for (const auto& [x, y] : d.batches) {
        adam.zero_grad();
        lossOn(net, x, y).backward();
        if (average) dp.averageGradients(params);
        adam.step();
    }
    if (checkIdentical) dp.requireIdenticalParameters(params);
    std::vector<torch::Tensor> out;
    for (const auto& p : params) out.push_back(p.detach().clone());
    return out;
}

} // namespace

class TestDistributed : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// Catches a sum where a mean belongs (2x), a missing all-reduce (each rank keeps its own
    /// gradient), or gradients copied back to the wrong parameters.
    void averagedGradientEqualsTheUnionBatchsGradient() {
        torch::nn::Sequential whole = smallNet();
        const auto [x0, y0] = batchOf(0);
        const auto [x1, y1] = batchOf(1);
        lossOn(whole, torch::cat({x0, x1}), torch::cat({y0, y1})).backward();
        const torch::Tensor expected = flat(gradsOf(whole));

        const int port = freePort();
        std::vector<torch::Tensor> got(2);
        torch::nn::Sequential nets[2] = {smallNet(), smallNet()};
        runRanks(2, [&](int r) {
            models::DataParallel dp(rankOptions(2, r, port, 20));
            torch::nn::Sequential& net = nets[r];
            const auto& [x, y] = r == 0 ? std::tie(x0, y0) : std::tie(x1, y1);
            lossOn(net, x, y).backward();
            dp.averageGradients(net->parameters());
            got[static_cast<std::size_t>(r)] = flat(gradsOf(net));
        });
        QVERIFY(torch::equal(got[0], got[1]));   // every rank steps with the same bits
        QVERIFY(torch::allclose(got[0], expected, 1e-5, 1e-7));
        // the halves differ, so this is not a gradient that ignores one rank's batch
        torch::nn::Sequential alone = smallNet();
        lossOn(alone, x0, y0).backward();
        QVERIFY(!torch::allclose(flat(gradsOf(alone)), expected, 1e-3, 1e-5));
    }

    /// Catches ranks drifting apart: after three steps on different batches both hold the same
    /// weights, bit for bit, which moved; without the all-reduce they differ and the check says so.
    void stepsKeepTheRanksWeightsIdentical() {
        const std::vector<torch::Tensor> start = smallNet()->parameters();
        int port = freePort();
        std::vector<torch::Tensor> w[2];
        RankData data[2] = {rankData(0), rankData(1)};
        runRanks(2, [&](int r) { w[r] = train3(r, data[r], port, true, true); });
        QVERIFY(torch::equal(flat(w[0]), flat(w[1])));
        QVERIFY(!torch::allclose(flat(w[0]), flat(start)));

        port = freePort();
        RankData fresh[2] = {rankData(0), rankData(1)};
        QVERIFY_THROWS_EXCEPTION(dist::DistError, runRanks(2, [&](int r) { train3(r, fresh[r], port, false, true); }));
    }

    /// Catches a rendezvous that waits forever, or an error that does not say who is missing.
    void aMissingPeerFailsWithinTheTimeout() {
        const auto t0 = Clock::now();
        try {
            models::DataParallel dp(rankOptions(2, 0, freePort(), 1.5));
            QFAIL("a rendezvous with a missing peer succeeded");
        } catch (const dist::DistError& e) {
            QVERIFY2(std::string(e.what()).find("missing rank(s) 1") != std::string::npos, e.what());
        }
        QVERIFY(Clock::now() - t0 < std::chrono::seconds(8));
    }

    /// A rank that leaves mid-run: the survivor's next collective fails with a DistError within
    /// the timeout instead of hanging, and names the rank (its alive lock is free).
    void aPeerThatLeavesStopsTheOthers() {
        const int port = freePort();
        const auto t0 = Clock::now();
        bool survivorFailed = false;
        std::string survivorMessage;
        runRanks(2, [&](int r) {
            models::DataParallel dp(rankOptions(2, r, port, 3));
            dp.anyStops(false);   // both joined and talked once
            if (r == 1) return;   // rank 1 leaves: its group closes
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            try {
                torch::Tensor p = torch::ones({3}, torch::requires_grad());
                (p * 2).sum().backward();
                dp.averageGradients({p});
            } catch (const dist::DistError& e) {
                survivorFailed = true;
                survivorMessage = e.what();
            }
        });
        QVERIFY(survivorFailed);
        QVERIFY2(survivorMessage.find("rank 1 is gone") != std::string::npos, survivorMessage.c_str());
        QVERIFY(Clock::now() - t0 < std::chrono::seconds(15));
    }

    /// Catches payloads not trimmed to their own length, or gathered out of rank order.
    void allGatherKeepsEachRanksBytes() {
        const int port = freePort();
        std::vector<std::string> seen[2];
        runRanks(2, [&](int r) {
            models::GlooGroup g(rankOptions(2, r, port, 20));
            seen[r] = g.allGather(r == 0 ? std::string("a\0b", 3) : std::string());
        });
        for (const auto& s : seen) QCOMPARE(s, (std::vector<std::string>{std::string("a\0b", 3), std::string()}));
    }

    /// Catches a resume where ranks start from different checkpoints going unnoticed.
    void ranksAtDifferentStepsAreRefused() {
        const int port = freePort();
        int refusals = 0;
        std::mutex m;
        runRanks(2, [&](int r) {
            models::DataParallel dp(rankOptions(2, r, port, 20));
            try {
                dp.requireSameStep(r == 0 ? 400 : 0);
            } catch (const dist::DistError& e) {
                const std::lock_guard lock(m);
                refusals += std::string(e.what()).find("same checkpoint") != std::string::npos;
            }
        });
        QCOMPARE(refusals, 2);
    }

    /// One rank is a single process: nothing is reduced, gradients keep their bits.
    void aWorldOfOneChangesNothing() {
        models::DataParallel dp(dist::DistOptions{});
        torch::nn::Sequential net = smallNet();
        const auto [x, y] = batchOf(0);
        lossOn(net, x, y).backward();
        const torch::Tensor before = flat(gradsOf(net));
        dp.averageGradients(net->parameters());
        QVERIFY(torch::equal(before, flat(gradsOf(net))));
        QCOMPARE(dp.seed(42), std::uint64_t(42));
    }
};

SCHEDLAB_TEST_MAIN(distributed, TestDistributed)
#include "tst_distributed.moc"

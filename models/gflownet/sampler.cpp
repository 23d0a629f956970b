// SPDX-License-Identifier: MIT
#include "models/gflownet/sampler.h"

#include "models/gflownet/policy.h"
#include "models/gflownet/readyrollout.h"
#include "models/gflownet/rollout.h"

#include "models/encoder/maththreads.h"

#include "core/util/random.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

namespace sl::gfn {

namespace {
/// Samples per batched rollout: 64, fewer when the attention scores (7 heads x N^2 per sample)
/// would pass 32M floats. A function of the graph only (never of threads or count), so a sample's
/// numbers do not depend on how many are drawn.
int chunkSize(int ops) {
    const double perSample = 7.0 * static_cast<double>(ops) * static_cast<double>(ops);
    return static_cast<int>(std::clamp(32e6 / std::max(perSample, 1.0), 1.0, 64.0));
}

/// One sample() call cut into chunks that workers draw in any order. Read-only once built.
class ChunkJob {
public:
    virtual ~ChunkJob() = default;
    virtual int chunks() const = 0;
    /// Chunk c's samples; empty when `stop` cut it short.
    virtual std::vector<Candidate> draw(int c, std::stop_token stop) const = 0;
};

std::vector<Candidate> candidatesOf(const ScheduleEnv& env, const std::vector<PartialSchedule>& finals) {
    std::vector<Candidate> out;
    for (const PartialSchedule& s : finals) {
        const double t = s.makespan();
        out.push_back({s.toSchedule(), t, env.speedup(t)});
    }
    return out;
}

/// The per-state policy (the paper's): one encoder pass per step of every trajectory.
class PerStateJob : public ChunkJob {
public:
    PerStateJob(GflowNetPolicy& n, const ScheduleEnv& e, double s, std::uint64_t sd, int c)
        : net(n), env(e), sigma(s), seed(sd), count(c), chunk(chunkSize(e.ops())) {
        const models::EncoderInput masks = graphMasks(env.graph());
        const int full = std::min(count, chunk), last = count % chunk;
        contexts.emplace(full, net->prepareSampling(masks, full, sigma));
        if (last > 0 && last != full) {
            models::EncoderContext& c = contexts.emplace(last, net->prepareSampling(masks, last, sigma)).first->second;
            // Every graph's bias is the same: the last chunk's is a view of the full one's (memory on big graphs).
            c.bias = contexts.at(full).bias.narrow(0, 0, c.bias.size(0));
        }
    }
    int chunks() const override { return (count + chunk - 1) / chunk; }
    std::vector<Candidate> draw(int c, std::stop_token stop) const override {
        const int first = c * chunk, size = std::min(count - first, chunk);
        std::vector<std::uint64_t> seeds;
        for (int i = first; i < first + size; ++i) seeds.push_back(deriveSeed(seed, static_cast<std::uint64_t>(i)));
        return candidatesOf(env, sampleTrajectories(net, env, contexts.at(size), seeds, stop));
    }

private:
    GflowNetPolicy& net;
    const ScheduleEnv& env;
    double sigma;
    std::uint64_t seed;
    int count, chunk;
    std::map<std::int64_t, models::EncoderContext> contexts;   ///< per batch size: the full chunk and the last
};

/// Samples per chunk of the encode-once policy: about 8,000 op placements, so that the first
/// chunk of a 1,000-op graph arrives within a fraction of a second. A function of the graph only.
int readyChunkSize(int ops) { return std::clamp(8000 / std::max(ops, 1), 4, 64); }

/// The encode-once policy: one encoder pass for the whole call, then plain C++ per sample.
class ReadyJob : public ChunkJob {
public:
    ReadyJob(ReadyPolicy& net, const ScheduleEnv& e, double sigma, std::uint64_t sd, int c)
        : env(e), times(e), seed(sd), count(c), chunk(readyChunkSize(e.ops())),
          scorer(plainScorer(net->plainHead(net->encode(readyPolicyInput(e), sigma)))) {}
    int chunks() const override { return (count + chunk - 1) / chunk; }
    std::vector<Candidate> draw(int c, std::stop_token stop) const override {
        std::vector<PartialSchedule> finals;
        for (int i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i) {
            finals.push_back(drawReadySchedule(env, times, scorer, deriveSeed(seed, static_cast<std::uint64_t>(i)), stop));
            if (!finals.back().complete()) return {};
        }
        return candidatesOf(env, finals);
    }

private:
    const ScheduleEnv& env;
    const GraphTimes times;
    std::uint64_t seed;
    int count, chunk;
    const ActionScorer scorer;
};

/// Hands a chunk's samples on; false ends the run.
using Deliver = std::function<bool(std::vector<Candidate>&&)>;

/// Chunks one after another on the calling thread. The first is always drawn.
void drawInOrder(const ChunkJob& job, std::stop_token stop, const Deliver& deliver) {
    for (int c = 0; c < job.chunks(); ++c) {
        if (c > 0 && stop.stop_requested()) return;
        std::vector<Candidate> part = job.draw(c, c > 0 ? stop : std::stop_token{});
        if (part.empty() || !deliver(std::move(part))) return;
    }
}

/// The chunks of a parallel run: workers fill them in any order, the caller takes them in order.
class ChunkBoard {
public:
    struct Slot {
        bool ready = false;
        std::vector<Candidate> part;   ///< empty when stopped
        std::exception_ptr error;
    };
    explicit ChunkBoard(int chunks) : m_slots(static_cast<size_t>(chunks)) {}
    int claim() { return m_next++; }   ///< the next chunk to draw (>= chunks: none left)
    void put(int c, Slot s) {
        s.ready = true;
        const std::lock_guard lock(m_mutex);
        m_slots[static_cast<size_t>(c)] = std::move(s);
        m_filled.notify_all();
    }
    Slot take(int c) {   ///< waits for chunk c
        std::unique_lock lock(m_mutex);
        m_filled.wait(lock, [&] { return m_slots[static_cast<size_t>(c)].ready; });
        return std::move(m_slots[static_cast<size_t>(c)]);
    }

private:
    std::vector<Slot> m_slots;
    std::atomic<int> m_next{0};
    std::mutex m_mutex;
    std::condition_variable m_filled;
};

/// One worker: chunks until none is left; after `halt`, the claimed ones come back empty at once
/// (the first chunk is always drawn). Pinned to one math thread, like the caller.
void drawChunks(const ChunkJob& job, ChunkBoard& board, std::stop_token halt) {
    const torch::NoGradGuard noGrad;   // per thread, like the pin
    const models::MathThreads pin(1);
    for (int c; (c = board.claim()) < job.chunks();) {
        ChunkBoard::Slot s;
        try {
            if (c == 0 || !halt.stop_requested()) s.part = job.draw(c, c > 0 ? halt : std::stop_token{});
        } catch (...) {
            s.error = std::current_exception();
        }
        board.put(c, std::move(s));
    }
}

/// Chunks on `threads` workers; the calling thread delivers them in chunk order, so callbacks run
/// there and the result is drawInOrder's.
void drawInParallel(const ChunkJob& job, int threads, std::stop_token stop, const Deliver& deliver) {
    ChunkBoard board(job.chunks());
    std::stop_source halt;   // the caller's stop, or the caller done taking chunks
    const std::stop_callback relay(stop, [&] { halt.request_stop(); });
    std::vector<std::jthread> workers;
    for (int i = 0; i < std::min(threads, job.chunks()); ++i) workers.emplace_back(drawChunks, std::cref(job), std::ref(board), halt.get_token());
    // Destroyed before `workers` (which then join), also when `deliver` throws.
    const struct Halt {
        std::stop_source& s;
        ~Halt() { s.request_stop(); }
    } haltOnExit{halt};
    for (int c = 0; c < job.chunks(); ++c) {
        ChunkBoard::Slot slot = board.take(c);
        if (slot.error) std::rethrow_exception(slot.error);   // haltOnExit, then the joins
        if (slot.part.empty() || !deliver(std::move(slot.part))) return;
    }
}

} // namespace

struct GflowNetSampler::Impl {
    GflowNetPolicy perState{nullptr};   ///< one of the two
    ReadyPolicy ready{nullptr};
};

GflowNetSampler::GflowNetSampler(const std::string& weightsPath) : m_impl(std::make_unique<Impl>()) {
    if (models::readWeightInfo(weightsPath).kind == kReadyWeightKind) m_impl->ready = loadReadyPolicy(weightsPath);
    else m_impl->perState = loadPolicy(weightsPath);
}

GflowNetSampler::~GflowNetSampler() = default;

std::string GflowNetSampler::trainedOn() const {
    return m_impl->ready ? m_impl->ready->config().trainedOn : m_impl->perState->config().trainedOn;
}

std::int64_t GflowNetSampler::encoderPasses() const { return m_impl->ready ? m_impl->ready->encoderPasses() : -1; }

std::vector<Candidate> GflowNetSampler::sample(const Problem& problem, double temperature, int count, std::uint64_t seed,
                                               std::stop_token stop, const ChunkFn& onChunk, int threads) {
    if (!(temperature > 0)) throw std::invalid_argument("gflownet: the temperature must be positive");
    models::checkEncoderSize(problem.g());
    std::vector<Candidate> out;
    if (count <= 0) return out;
    out.reserve(static_cast<size_t>(count));
    const torch::NoGradGuard noGrad;
    const models::MathThreads pin(1);   // the same samples whatever the thread settings
    const ScheduleEnv env(problem);
    std::unique_ptr<ChunkJob> job;
    if (m_impl->ready) job = std::make_unique<ReadyJob>(m_impl->ready, env, temperature, seed, count);
    else job = std::make_unique<PerStateJob>(m_impl->perState, env, temperature, seed, count);
    const Deliver deliver = [&](std::vector<Candidate>&& part) {
        std::move(part.begin(), part.end(), std::back_inserter(out));
        return !onChunk || onChunk(out);
    };
    if (threads > 1 && job->chunks() > 1) drawInParallel(*job, threads, stop, deliver);
    else drawInOrder(*job, stop, deliver);
    return out;
}

} // namespace sl::gfn

// SPDX-License-Identifier: MIT
#include "models/gflownet/sampler.h"

#include "models/gflownet/policy.h"
#include "models/gflownet/rollout.h"

#include "models/encoder/maththreads.h"

#include "core/util/random.h"

#include <torch/torch.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <filesystem>
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

/// What every chunk of one sample() call shares, read-only once built (workers read it at once).
struct Job {
    GflowNetPolicy& net;
    const ScheduleEnv& env;
    double sigma;
    std::uint64_t seed;
    int count, chunk;
    std::map<std::int64_t, models::EncoderContext> contexts;   ///< per batch size: the full chunk and the last

    Job(GflowNetPolicy& n, const ScheduleEnv& e, double s, std::uint64_t sd, int c)
        : net(n), env(e), sigma(s), seed(sd), count(c), chunk(chunkSize(e.ops())) {
        const models::EncoderInput masks = graphMasks(env.graph());
        for (int first = 0; first < count; first += chunk) {
            const std::int64_t b = std::min(count - first, chunk);
            if (!contexts.count(b)) contexts.emplace(b, net->prepareSampling(masks, b, sigma));
        }
    }
    int chunks() const { return (count + chunk - 1) / chunk; }

    /// Chunk c's samples; empty when `stop` cut it short.
    std::vector<Candidate> draw(int c, std::stop_token stop) const {
        const int first = c * chunk, size = std::min(count - first, chunk);
        std::vector<std::uint64_t> seeds;
        for (int i = first; i < first + size; ++i) seeds.push_back(deriveSeed(seed, static_cast<std::uint64_t>(i)));
        const std::vector<PartialSchedule> finals = sampleTrajectories(net, env, contexts.at(size), seeds, stop);
        std::vector<Candidate> out;
        for (const PartialSchedule& s : finals) {
            const double t = s.makespan();
            out.push_back({s.toSchedule(), t, env.speedup(t)});
        }
        return out;
    }
};

/// Hands a chunk's samples on; false ends the run.
using Deliver = std::function<bool(std::vector<Candidate>&&)>;

/// Chunks one after another on the calling thread. The first is always drawn.
void drawInOrder(const Job& job, std::stop_token stop, const Deliver& deliver) {
    for (int c = 0; c < job.chunks(); ++c) {
        if (c > 0 && stop.stop_requested()) return;
        std::vector<Candidate> part = job.draw(c, c > 0 ? stop : std::stop_token{});
        if (part.empty() || !deliver(std::move(part))) return;
    }
}

/// Chunks on `threads` workers, each pinned to one math thread; the calling thread delivers the
/// finished ones in chunk order, so callbacks run there and the result is drawInOrder's.
void drawInParallel(const Job& job, int threads, std::stop_token stop, const Deliver& deliver) {
    struct Slot {
        bool ready = false;
        std::vector<Candidate> part;
        std::exception_ptr error;
    };
    std::vector<Slot> slots(static_cast<size_t>(job.chunks()));
    std::mutex mutex;
    std::condition_variable filled;
    std::atomic<int> next{0};
    std::stop_source halt;   // the caller's stop, or the caller done taking chunks
    const std::stop_callback relay(stop, [&] { halt.request_stop(); });
    auto work = [&] {
        const torch::NoGradGuard noGrad;   // per thread, like the pin
        const models::MathThreads pin(1);
        for (int c; (c = next++) < job.chunks();) {
            Slot s;
            try {
                if (c == 0 || !halt.stop_requested()) s.part = job.draw(c, c > 0 ? halt.get_token() : std::stop_token{});
            } catch (...) {
                s.error = std::current_exception();
            }
            s.ready = true;
            const std::lock_guard lock(mutex);
            slots[static_cast<size_t>(c)] = std::move(s);
            filled.notify_all();
        }
    };
    std::vector<std::jthread> workers;
    for (int i = 0; i < std::min(threads, job.chunks()); ++i) workers.emplace_back(work);
    // Destroyed before `workers` (which then join), also when `deliver` throws.
    const struct Halt {
        std::stop_source& s;
        ~Halt() { s.request_stop(); }
    } haltOnExit{halt};
    std::exception_ptr error;
    for (Slot& slot : slots) {
        std::unique_lock lock(mutex);
        filled.wait(lock, [&] { return slot.ready; });
        std::vector<Candidate> part = std::move(slot.part);
        error = slot.error;
        lock.unlock();
        if (error || part.empty() || !deliver(std::move(part))) break;
    }
    if (error) std::rethrow_exception(error);   // haltOnExit, then the joins: running chunks stop at their next step
}

} // namespace

struct GflowNetSampler::Impl {
    GflowNetPolicy net{nullptr};
};

GflowNetSampler::GflowNetSampler(const std::string& weightsPath) : m_impl(std::make_unique<Impl>()) {
    m_impl->net = loadPolicy(weightsPath);
}

GflowNetSampler::~GflowNetSampler() = default;

std::string GflowNetSampler::trainedOn() const { return m_impl->net->config().trainedOn; }

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
    const Job job(m_impl->net, env, temperature, seed, count);
    const Deliver deliver = [&](std::vector<Candidate>&& part) {
        std::move(part.begin(), part.end(), std::back_inserter(out));
        return !onChunk || onChunk(out);
    };
    if (threads > 1 && job.chunks() > 1) drawInParallel(job, threads, stop, deliver);
    else drawInOrder(job, stop, deliver);
    return out;
}

std::string defaultWeightsFor(const Problem&) {
    const std::string path = (std::filesystem::path(models::modelsDir()) / "gflownet.slw").string();
    return std::filesystem::exists(path) ? path : std::string();
}

} // namespace sl::gfn

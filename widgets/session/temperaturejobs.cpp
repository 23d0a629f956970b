// SPDX-License-Identifier: MIT
#include "widgets/session/temperaturejobs.h"

#include "widgets/session/schedulerecord.h"
#include "widgets/session/stoppable.h"
#include "widgets/session/units.h"

#include <chrono>

namespace sl::gui {

namespace {

/// Shares the speedups drawn so far with the GUI: the first batch at once, then at most every
/// 100 ms (the histogram refines while the rest are drawn; copies stay rare on big runs).
SampleProgressFn sharingProgress(const StoppableProgress& progress) {
    return [&progress, last = std::optional<std::chrono::steady_clock::time_point>()](const SampleProgress& p) mutable {
        progress(p.fraction);
        const auto now = std::chrono::steady_clock::now();
        if (p.speedups.empty() || (last && now - *last < std::chrono::milliseconds(100)) || p.fraction >= 1) return;
        last = now;
        progress.share(std::vector<double>(p.speedups.begin(), p.speedups.end()));
    };
}

/// Samples one temperature and summarises it; runs on a worker.
TemperatureSample sampleOnce(const SamplingJob& job, std::stop_token stop, const StoppableProgress& progress) {
    const auto begin = std::chrono::steady_clock::now();
    auto sampler = SamplerRegistry::instance().create(job.sampler);
    const SampleSet set = sampler->sample(*job.problem, job.request, stop, sharingProgress(progress));
    if (set.cancelled || set.schedules.empty()) throw std::runtime_error("stopped");
    TemperatureSample out;
    out.temperature = job.request.temperature;
    out.speedups = set.proxySpeedups;
    out.summary = summarizeSamples(*job.problem, job.request.temperature, set, job.summary);
    auto proxy = std::make_shared<const Problem>(proxyProblem(*job.problem));
    const QString name = QStringLiteral("%1 σ=%2 best of %3")
                             .arg(QString::fromStdString(job.sampler), sigmaText(job.request.temperature))
                             .arg(set.schedules.size());
    out.best = recordOfSchedule(job.id, name, QString::fromStdString(job.sampler), proxy,
                                bestSchedule(*job.problem, out.summary), job.target);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    return out;
}

/// The sweep on a worker: its rows so far shared as each temperature finishes.
std::shared_ptr<const Sweep> sweepOnce(const Problem& problem, const std::string& name, const SweepOptions& o,
                                       std::stop_token stop, const StoppableProgress& progress) {
    auto sampler = SamplerRegistry::instance().create(name);
    Sweep sofar = emptySweep(problem, name, o);
    sofar.cancelled = true;
    auto sweep =
        std::make_shared<Sweep>(runSweep(problem, name, *sampler, o, stop, [&](double f, const SweepPoint* done) {
            progress(f);
            if (!done) return;
            sofar.points.push_back(*done);
            progress.share(std::make_shared<const Sweep>(sofar));
        }));
    return sweep;
}

}   // namespace

TemperatureJobs::TemperatureJobs(QObject* parent) : QObject(parent) {}

void TemperatureJobs::sample(SamplingJob job) {
    if (m_sampling) m_sampling->stop.request_stop();   // the stale request winds down, its result is dropped
    const LatestRequest::Ticket ticket = m_samplings.next();
    m_sampling = runStoppable(
        this,
        [job = std::move(job)](std::stop_token stop, const StoppableProgress& progress) {
            return sampleOnce(job, stop, progress);
        },
        [this, ticket](Outcome<TemperatureSample> out) {
            if (!m_samplings.isLatest(ticket)) return;   // a newer request owns the panel
            m_sampling.reset();
            if (!out.value) return Q_EMIT samplingEnded(out.error == QLatin1String("stopped"), out.error);
            m_current = std::move(*out.value);
            Q_EMIT sampled(*m_current);
        });
}

bool TemperatureJobs::sweep(std::shared_ptr<const Problem> problem, const std::string& sampler, SweepOptions options) {
    if (m_sweeping) return false;
    m_sweeping = runStoppable(
        this,
        [problem = std::move(problem), sampler, options](std::stop_token stop, const StoppableProgress& progress) {
            return sweepOnce(*problem, sampler, options, stop, progress);
        },
        [this](Outcome<std::shared_ptr<const Sweep>> out) {
            m_sweeping.reset();
            Q_EMIT swept(out.value ? *out.value : nullptr, out.error);
        });
    return true;
}

void TemperatureJobs::cancel() {
    if (m_sampling) m_sampling->stop.request_stop();
    if (m_sweeping) m_sweeping->stop.request_stop();
}

std::optional<std::vector<double>> TemperatureJobs::takeDrawn() {
    if (!m_sampling) return std::nullopt;
    auto drawn = m_sampling->takePartial();
    if (!drawn) return std::nullopt;
    return std::any_cast<const std::vector<double>&>(*drawn);
}

std::shared_ptr<const Sweep> TemperatureJobs::takeSweptSoFar() {
    if (!m_sweeping) return nullptr;
    auto rows = m_sweeping->takePartial();
    return rows ? std::any_cast<std::shared_ptr<const Sweep>>(*rows) : nullptr;
}

double TemperatureJobs::fraction() const {
    const auto& control = m_sweeping ? m_sweeping : m_sampling;
    return control ? control->fraction.load(std::memory_order_relaxed) : 0.0;
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// The Temperature panel's work without its widgets: sampling one temperature (the latest request
// wins: an older sampling is stopped and its outcome dropped) and sweeping many, each on a worker
// of the stoppable pool (widgets/session/stoppable.h), with what is drawn so far shared for the
// panel to poll; the last sample kept for "Add best to results".
#include "widgets/session/latestrequest.h"
#include "widgets/session/types.h"

#include "core/optimizer/sampler.h"
#include "core/sweep/sweep.h"

#include <QObject>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sl::gui {

struct StoppableControl;

/// One temperature's samples, summarised on a worker.
struct TemperatureSample {
    double temperature = 0;
    std::vector<double> speedups;   ///< proxy speedup of every sample
    SweepPoint summary;
    RunRecord best;   ///< the proxy top-1, ready for the views
    double seconds = 0;
};

/// What to sample: `request` with the registered sampler `sampler` on `problem`, summarised as
/// `summary` says and scored on `target`; the best schedule becomes result `id`.
struct SamplingJob {
    std::shared_ptr<const Problem> problem;
    std::string sampler;
    SampleRequest request;
    SweepOptions summary;
    ScoringTarget target;
    int id = 0;
};

class TemperatureJobs : public QObject {
    Q_OBJECT
public:
    explicit TemperatureJobs(QObject* parent = nullptr);

    /// Starts sampling; a sampling still in flight is stopped and its outcome never lands.
    void sample(SamplingJob job);
    /// Starts a sweep of `sampler` over `options`' temperatures; false when one already runs.
    bool sweep(std::shared_ptr<const Problem> problem, const std::string& sampler, SweepOptions options);
    /// Stops the sampling and the sweep: each lands with what it has (stopped).
    void cancel();
    bool isSampling() const { return static_cast<bool>(m_sampling); }
    bool isSweeping() const { return static_cast<bool>(m_sweeping); }
    /// The speedups drawn so far by the sampling, when new ones were shared since the last call.
    std::optional<std::vector<double>> takeDrawn();
    /// The sweep's finished temperatures so far, when new ones were shared since the last call.
    std::shared_ptr<const Sweep> takeSweptSoFar();
    /// The progress of the sweep while one runs, else of the sampling; 0 when neither does.
    double fraction() const;

    /// The last sample that landed; reset by forget() (another graph).
    const std::optional<TemperatureSample>& current() const { return m_current; }
    void forget() { m_current.reset(); }

Q_SIGNALS:
    void sampled(const sl::gui::TemperatureSample& sample);
    /// The sampling ended without a sample: `stopped` by cancel(), else failed with `error`.
    void samplingEnded(bool stopped, const QString& error);
    /// The sweep ended: its rows (cancelled when stopped), or null with `error`.
    void swept(std::shared_ptr<const sl::Sweep> sweep, const QString& error);

private:
    std::shared_ptr<StoppableControl> m_sampling;   // the latest sampling in flight
    std::shared_ptr<StoppableControl> m_sweeping;
    LatestRequest m_samplings;
    std::optional<TemperatureSample> m_current;
};

}   // namespace sl::gui

Q_DECLARE_METATYPE(sl::gui::TemperatureSample)

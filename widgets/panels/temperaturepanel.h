// SPDX-License-Identifier: MIT
#pragma once
// The Temperature dock (docs/gflownet.md, docs/explorer-tour.md): a sampler, a log-scale σ slider
// (training range shaded), and for the current graph the histogram of N sampled proxy speedups,
// top-1, mean, distinct schedules and the top-k diversity. Moving the slider re-samples in the
// background after a short pause; a newer request stops the stale one. The best sample goes to
// the usual views through sampled(). The panel also runs the temperature sweep (progress, cancel).
#include "core/sweep/sweep.h"
#include "widgets/session/temperaturejobs.h"

#include "widgets/session/types.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QGridLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace sl::gui {

class Document;

class HistogramView;
class TemperatureSlider;

class TemperaturePanel : public QWidget {
    Q_OBJECT
public:
    explicit TemperaturePanel(QWidget* parent = nullptr);
    ~TemperaturePanel() override;

    /// Where the panel gets the current problem (throws when there is none to sample).
    void setProblemSource(std::function<std::shared_ptr<const Problem>()> source);
    /// Samples `doc`'s open graph on its machine: re-samples when a graph opens, reports on the
    /// machine's target model.
    void observe(const Document* doc);
    /// The target the single-temperature summary reports best-of-k on (Proxy: none; the measured
    /// target without its graph: none). The sweep reports it beside the paper's three.
    void setTarget(const ScoringTarget& target);
    void reloadSamplers();   ///< re-reads the sampler registry
    QString sampler() const;
    bool setSampler(const QString& name);
    double temperature() const;
    void setTemperature(double t);   ///< moves the slider (and so re-samples)
    void setSampleCount(int n);
    void setSweepSettings(int temperatures, int samples, int topK);
    /// Re-samples after the debounce pause (a hidden panel waits until it is shown) / at once.
    void resample();
    void resampleNow();
    /// A graph opened: the last graph's sample goes, and the panel samples the new one by itself
    /// when that is cheap (ops x samples <= kAutoSampleWork), else waits for the user to ask.
    void sampleOnOpen(int ops);
    /// Op-samples drawn unasked: a few seconds on two cores; the sampler keeps every schedule, so
    /// this bounds the memory too (1,000 samples of a 100,000-op graph would hold 100 M ops).
    static constexpr double kAutoSampleWork = 5e6;
    bool isSampling() const { return m_jobs->isSampling(); }
    bool isSweeping() const { return m_jobs->isSweeping(); }
    /// Starts a sweep with the panel's settings; false (and failed()) without a problem.
    bool startSweep();
    void cancel();   ///< stops sampling and the sweep
    const std::optional<TemperatureSample>& current() const { return m_jobs->current(); }
    HistogramView* histogram() const { return m_histogram; }
    TemperatureSlider* slider() const { return m_slider; }
    void saveSettings() const;
    void restoreSettings();

Q_SIGNALS:
    void sampled(const sl::gui::RunRecord& best);
    /// The user picked another temperature, sampler or sample count: their samples are wanted in view.
    void settingsChosen();
    void keepRequested(const sl::gui::RunRecord& best);
    void sweepRequested();
    void sweepFinished(std::shared_ptr<const sl::Sweep> sweep);
    /// The rows of a running sweep so far (each finished temperature adds one).
    void sweepUpdated(std::shared_ptr<const sl::Sweep> sofar);
    void failed(const QString& title, const QString& message);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QWidget* buildSamplingBox();
    QGridLayout* buildStatusRow(QWidget* box);   ///< what the panel is doing, its progress and ✕
    void connectSamplingControls();
    QWidget* buildSweepBox();
    void onSamplerChanged();
    void updateTemperatureLabel();
    void showSample(const TemperatureSample& s);
    void onSamplingEnded(bool stopped, const QString& error);
    void onSwept(std::shared_ptr<const Sweep> sweep, const QString& error);
    /// The progress bar and the stop button go when neither a sampling nor a sweep runs.
    void idleUnlessBusy();
    /// A running sample's histogram and speedup numbers from the speedups drawn so far; the numbers
    /// that need every schedule (distinct, GED, d_inv, best of k) say "pending" until it ends.
    void showDrawn(const std::vector<double>& speedups);
    void showStopped();   ///< the user stopped the run: what it drew stays, the rest says "stopped"
    void pollProgress();
    void setBusy(const QString& text);

    std::function<std::shared_ptr<const Problem>()> m_problemSource;
    ScoringTarget m_target;
    /// The target the summary reports: m_target's model, or Proxy for a measured one without its graph.
    TargetModel reportedTarget() const;
    QComboBox* m_sampler;
    QString m_pendingSampler;           // remembered, not registered yet (gflownet): chosen once it is
    bool m_samplerChosenHere = false;   // the user picked a sampler in the combo this session
    QLabel* m_sigma;
    QLabel* m_extrapolation;
    TemperatureSlider* m_slider;
    QSpinBox* m_samples;
    QSpinBox* m_seed;
    HistogramView* m_histogram;
    QLabel* m_stats;
    QLabel* m_status;
    QProgressBar* m_progress;
    QToolButton* m_stop;
    QPushButton* m_keep;
    QSpinBox* m_sweepTemperatures;
    QDoubleSpinBox* m_sweepLo;
    QDoubleSpinBox* m_sweepHi;
    QSpinBox* m_sweepSamples;
    QSpinBox* m_sweepTopK;
    QPushButton* m_sweepButton;
    QTimer m_debounce;
    bool m_resampleWhenShown = false;   ///< a resample was asked for while the panel was hidden
    QTimer m_poll;
    QElapsedTimer m_clock;
    TemperatureJobs* m_jobs;   // the sampling and the sweep, on workers
    int m_nextId = 1;
    double m_drawingTemperature = 0;     ///< σ of the sampling in flight
    std::optional<SweepPoint> m_drawn;   ///< its samples drawn so far, summarised (until it ends)
};

}   // namespace sl::gui

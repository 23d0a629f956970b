// SPDX-License-Identifier: MIT
#pragma once
// `schedlab FILE [--format F] [--training sgd|adam] [--method M[,M2] --run] [--screenshot OUT.png [--size WxH]]`
#include "widgets/session/graphorigin.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

class QCommandLineParser;
class QCoreApplication;

namespace sl::gui {

class MainWindow;
struct CommandLineFlags;

struct CommandLine {
    std::optional<GraphOrigin> graph;   // FILE, read here into typed fields; none: no FILE given
    QString format;
    QStringList methods;
    bool run = false;
    QStringList options;   // key=value, passed to the run panel
    QString devices;
    QString platform;
    QString preset;    // a preset's machine (--preset ID)
    bool freeLinks = false;   // --free-links: a topology's links contention-free
    QString device;    // N of a catalogue device (--device ID)
    QString profile;   // a measured profile applied to the graph
    QString objective;
    QString screenshot;
    QSize size{1600, 1000};
    QString view;
    int screenshotDelay = -1;   // ms; >= 0: shoot then, even while runs go
    bool benchStartup = false;
    bool quitAfterPaint = false;  // exit after the first painted layout (startup timing)
    QString sampler;              // the Temperature panel's sampler by name
    double temperature = 0;       // > 0: set the Temperature panel's σ and sample
    QString sweep;                // "T,N,K": run a sweep (temperatures, samples, top k)
    QString sweepFile;            // open a saved sweep
    QString studyFile;            // open a study database
    int sweepPoint = -1;          // select this row of the shown sweep
    QString select;               // select this op (by name) in the DAG before the screenshot
    int colourBy = -1;            // DagColourBy for this launch; -1: the remembered one
    QStringList moves;            // hand edits "OP,DEVICE,POSITION" made before the screenshot
    QString drag;                 // a drag "OP,DEVICE,POSITION" under way in the screenshot

    /// Parses argv; prints usage / errors and returns false on bad input. --help and --version
    /// print and exit.
    bool parse(QCoreApplication& app);
    /// Opens the file, sets the platform and options, starts the runs; with --screenshot, renders
    /// the window once everything has finished and quits. False on a fatal error. The settings
    /// the flags change hold for this launch only (MainWindow::applyForThisLaunch).
    bool apply(MainWindow& w);

private:
    bool readGraph(const QCommandLineParser& p, const CommandLineFlags& f);     ///< FILE, --format, --training
    bool readSettings(const QCommandLineParser& p, const CommandLineFlags& f);  ///< every other flag
    bool checkMethods() const;   ///< --method names registered methods (loading the neural module if needed)
    bool applySettings(MainWindow& w);    ///< platform, objective, options, runs, panels, view
    bool applyMachine(MainWindow& w);     ///< --preset, --device, --devices, --profile
    bool startScreenshot(MainWindow& w);  ///< --screenshot: shoot once everything settled, then quit
    void quitOnFirstLayoutPaint(MainWindow& w);
};

} // namespace sl::gui

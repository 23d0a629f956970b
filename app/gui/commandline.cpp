// SPDX-License-Identifier: MIT
#include "app/gui/commandline.h"
#include "app/gui/scriptededits.h"

#include "app/gui/afterpaint.h"

#include "core/optimizer/optimizer.h"
#include "core/optimizer/sampler.h"
#include "core/plugin/neuralmodule.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/platformpanel.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/sweepview.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/views/dagview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>

namespace sl::gui {
namespace {
const QStringList tabs = {QStringLiteral("dag"), QStringLiteral("gantt"), QStringLiteral("memory"), QStringLiteral("convergence"),
                          QStringLiteral("compare"), QStringLiteral("sweep"), QStringLiteral("study")};

/// FILE as typed fields: "generated:FAMILY:N:SEED" is a generator's instance, anything else a file.
/// The one place a graph's name is read from a string; none (and `error` set) on a malformed one.
std::optional<GraphOrigin> graphArgument(const QString& text, QString* error) {
    if (!text.startsWith(QLatin1String("generated:"))) return GraphOrigin::file(text);
    const QStringList parts = text.split(QLatin1Char(':'));
    bool opsOk = false, seedOk = false;
    const int ops = parts.value(2).toInt(&opsOk);
    const std::uint64_t seed = parts.value(3).toULongLong(&seedOk);
    if (parts.size() != 4 || parts[1].isEmpty() || !opsOk || ops <= 0 || !seedOk) {
        *error = text + QStringLiteral(": expected generated:FAMILY:N:SEED (N > 0 ops, SEED a whole number)");
        return std::nullopt;
    }
    return GraphOrigin::generated(parts[1], ops, seed);
}
} // namespace

/// The explorer's options, declared once (--help lists them in this order).
struct CommandLineFlags {
    const QCommandLineOption format{QStringLiteral("format"), QStringLiteral("Force the file format: json, dot, stg, jobshop, wfcommons, onnx, hlo."), QStringLiteral("F")};
    const QCommandLineOption training{QStringLiteral("training"), QStringLiteral("Open FILE as its training step (forward, loss, backward, updates): sgd or adam."), QStringLiteral("RULE")};
    const QCommandLineOption method{QStringLiteral("method"), QStringLiteral("Method(s) for the run panel; comma-separated to start several runs."), QStringLiteral("M")};
    const QCommandLineOption run{QStringLiteral("run"), QStringLiteral("Start the run(s) right away.")};
    const QCommandLineOption option{{QStringLiteral("o"), QStringLiteral("option")}, QStringLiteral("A method option as KEY=VALUE (seed, budget, time-limit, threads, population, ...); repeatable."), QStringLiteral("KEY=VALUE")};
    const QCommandLineOption devices{QStringLiteral("devices"), QStringLiteral("Identical devices (overrides the file's machine); with --preset its first N, with --device N of it."), QStringLiteral("N")};
    const QCommandLineOption preset{QStringLiteral("preset"), QStringLiteral("A real machine for this launch: a preset's devices and links, every op timed on them (dgx-a100, 2x-dgx-h100, 4x-l4-pcie4, cpu-host; schedlab-cli devices lists them)."), QStringLiteral("ID")};
    const QCommandLineOption freeLinks{
        QStringLiteral("free-links"),
        QStringLiteral(
            "Contention-free transfers on a machine with routes (a preset's links are shared by default: one transfer at a time per link).")};
    const QCommandLineOption device{QStringLiteral("device"), QStringLiteral("--devices N (default 1) of one catalogue device for this launch, e.g. h100-sxm5-80gb."), QStringLiteral("ID")};
    const QCommandLineOption profile{QStringLiteral("profile"), QStringLiteral("Apply a measured profile to FILE: schedlab-cli profile's JSON or ONNX Runtime's profiling JSON."), QStringLiteral("FILE")};
    const QCommandLineOption platformFile{QStringLiteral("machine"), QStringLiteral("Platform JSON file (devices, memory, interconnect)."), QStringLiteral("FILE")};
    const QCommandLineOption objective{QStringLiteral("objective"), QStringLiteral("makespan, memory or both."), QStringLiteral("OBJ")};
    const QCommandLineOption screenshot{QStringLiteral("screenshot"), QStringLiteral("Render the whole window to OUT.png after the runs finish, then exit."), QStringLiteral("OUT.png")};
    const QCommandLineOption size{QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1600x1000)."), QStringLiteral("WxH")};
    const QCommandLineOption delay{QStringLiteral("screenshot-after"), QStringLiteral("Take the screenshot after MS milliseconds, even while runs go (shows live progress)."), QStringLiteral("MS")};
    const QCommandLineOption view{QStringLiteral("view"), QStringLiteral("Tab to show: dag, gantt, memory, convergence, compare, sweep, study."), QStringLiteral("NAME")};
    const QCommandLineOption temperature{QStringLiteral("temperature"), QStringLiteral("Set the Temperature panel's sigma and sample the graph at it."), QStringLiteral("SIGMA")};
    const QCommandLineOption sampler{QStringLiteral("sampler"), QStringLiteral("The Temperature panel's sampler (e.g. gflownet, list-gumbel)."), QStringLiteral("NAME")};
    const QCommandLineOption sweep{QStringLiteral("sweep"), QStringLiteral("Run a temperature sweep: T temperatures, N samples each, top K (default 20,1000,100)."), QStringLiteral("T,N,K")};
    const QCommandLineOption studyFile{QStringLiteral("open-study"), QStringLiteral("Open a study database (made by schedlab-cli study run) in the Study tab."), QStringLiteral("FILE")};
    const QCommandLineOption sweepFile{QStringLiteral("open-sweep"), QStringLiteral("Open a saved sweep (.sweep.json) in the Sweep tab."), QStringLiteral("FILE")};
    const QCommandLineOption sweepPoint{QStringLiteral("sweep-point"), QStringLiteral("Select row I of the sweep (its best schedule goes to the views)."), QStringLiteral("I")};
    const QCommandLineOption quitAfterPaint{QStringLiteral("quit-after-paint"), QStringLiteral("Exit once the graph's layout has been painted (startup timing: 'schedlab-cli bench startup').")};
    const QCommandLineOption bench{QStringLiteral("bench-startup"), QStringLiteral("Print a table: open to first painted layout, event-loop stalls, DAG and Gantt zoom/pan steps, peak memory (docs/gui.md, Scale).")};
    const QCommandLineOption select{QStringLiteral("select"), QStringLiteral("Select the op named NAME in the DAG (zoomed in to it)."), QStringLiteral("NAME")};
    const QCommandLineOption move{QStringLiteral("move"), QStringLiteral("Before the screenshot, move op OP of the schedule on show to device DEVICE, at POSITION in its sequence (an edit, as a drop in the Gantt chart makes); repeatable."), QStringLiteral("OP,DEVICE,POSITION")};
    const QCommandLineOption drag{QStringLiteral("drag"), QStringLiteral("Before the screenshot, start dragging op OP's bar in the Gantt chart to DEVICE, POSITION (its preview is painted)."), QStringLiteral("OP,DEVICE,POSITION")};
    const QCommandLineOption colour{QStringLiteral("colour-by"), QStringLiteral("DAG node colours for this launch: auto, category, device, order, start, memory, time-source, op-time."), QStringLiteral("MODE")};
    QList<QCommandLineOption> all() const {
        return {format,    training, method,         run,         option,    devices,    preset,
                freeLinks, device,   platformFile,   profile,     objective, screenshot, delay,
                size,      view,     sampler,        temperature, sweep,     sweepFile,  sweepPoint,
                studyFile, bench,    quitAfterPaint, select,      move,      drag,       colour};
    }
};

static void describe(QCommandLineParser& p) {
    QString methods;
    for (const auto& info : OptimizerRegistry::instance().list()) methods += QString::fromStdString(info.name) + QLatin1Char(' ');
    p.setApplicationDescription(QStringLiteral(
        "SchedLab explorer: open a computation graph, run optimizers, compare schedules.\n\n"
        "Examples:\n"
        "  schedlab resources/examples/ft06.txt --method brkga --run\n"
        "  schedlab model.onnx --devices 4 --method list-cp,brkga --run --screenshot out.png --view compare\n"
        "  schedlab generated:layered:2000:1 --bench-startup\n"
        "  schedlab resources/examples/resnet50.onnx --training adam --devices 2\n\n"
        "Methods in this build: %1").arg(methods.trimmed()));
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Graph file (ONNX, JSON, DOT, STG, job-shop, WfCommons, HLO), or generated:FAMILY:N:SEED"));
}

/// Registers the neural methods (loading their module) when the command line names or lists them:
/// --help, or a method or sampler that is not a classic one.
void loadNeuralMethodsIfNamed(const QStringList& arguments) {
    const bool help = arguments.contains(QStringLiteral("--help")) || arguments.contains(QStringLiteral("-h")) ||
                      arguments.contains(QStringLiteral("--help-all"));
    bool named = false;
    for (qsizetype i = 1; i + 1 < arguments.size(); ++i) {
        if (arguments[i] == QLatin1String("--method"))
            for (const QString& m : arguments[i + 1].split(QLatin1Char(','), Qt::SkipEmptyParts))
                named = named || !OptimizerRegistry::instance().find(m.toStdString());
        if (arguments[i] == QLatin1String("--sampler")) named = named || !SamplerRegistry::instance().find(arguments[i + 1].toStdString());
    }
    if (help || named) neural::ensureNeuralMethods();
}

bool CommandLine::parse(QCoreApplication& app) {
    loadNeuralMethodsIfNamed(app.arguments());
    QCommandLineParser p;
    describe(p);
    const CommandLineFlags f;
    p.addOptions(f.all());
    p.process(app);
    return readGraph(p, f) && readSettings(p, f) && checkMethods();
}

bool CommandLine::readGraph(const QCommandLineParser& p, const CommandLineFlags& f) {
    const QStringList pos = p.positionalArguments();
    if (!pos.isEmpty()) {
        QString error;
        graph = graphArgument(pos.first(), &error);
        if (!graph) {
            std::fprintf(stderr, "schedlab: %s\n", qPrintable(error));
            return false;
        }
    }
    this->format = p.value(f.format);
    if (p.isSet(f.training)) {
        const auto rule = parseUpdateRule(p.value(f.training).toLower().toStdString());
        if (!rule) {
            std::fprintf(stderr, "schedlab: --training expects sgd or adam, got '%s'\n", qPrintable(p.value(f.training)));
            return false;
        }
        if (!graph) {
            std::fprintf(stderr, "schedlab: --training needs a FILE\n");
            return false;
        }
        graph = graph->withTraining(rule);
    }
    return true;
}

bool CommandLine::readSettings(const QCommandLineParser& p, const CommandLineFlags& f) {
    if (p.isSet(f.method)) this->methods = p.value(f.method).split(QLatin1Char(','), Qt::SkipEmptyParts);
    this->run = p.isSet(f.run);
    options = p.values(f.option);
    this->devices = p.value(f.devices);
    this->platform = p.value(f.platformFile);
    this->preset = p.value(f.preset);
    this->freeLinks = p.isSet(f.freeLinks);
    this->device = p.value(f.device);
    this->profile = p.value(f.profile);
    if (static_cast<int>(!preset.isEmpty()) + static_cast<int>(!device.isEmpty()) + static_cast<int>(!platform.isEmpty()) > 1) {
        std::fprintf(stderr, "schedlab: give one of --preset, --device and --machine\n");
        return false;
    }
    this->objective = p.value(f.objective);
    this->screenshot = p.value(f.screenshot);
    this->view = p.value(f.view).toLower();
    if (p.isSet(f.delay)) screenshotDelay = std::max(0, p.value(f.delay).toInt());
    benchStartup = p.isSet(f.bench);
    this->quitAfterPaint = p.isSet(f.quitAfterPaint);
    this->temperature = p.value(f.temperature).toDouble();
    this->sampler = p.value(f.sampler);
    if (p.isSet(f.sweep)) this->sweep = p.value(f.sweep).isEmpty() ? QStringLiteral("20,1000,100") : p.value(f.sweep);
    this->sweepFile = p.value(f.sweepFile);
    this->studyFile = p.value(f.studyFile);
    if (p.isSet(f.sweepPoint)) this->sweepPoint = p.value(f.sweepPoint).toInt();
    this->select = p.value(f.select);
    this->moves = p.values(f.move);
    this->drag = p.value(f.drag);
    QStringList specs = moves;
    if (!drag.isEmpty()) specs << drag;
    for (const QString& spec : specs) {
        QString op, error;
        int device = 0, position = 0;
        if (!parseEditSpec(spec, &op, &device, &position, &error)) {
            std::fprintf(stderr, "schedlab: %s\n", qPrintable(error));
            return false;
        }
    }
    if (p.isSet(f.colour)) {
        colourBy = QStringList{QStringLiteral("auto"), QStringLiteral("category"), QStringLiteral("device"), QStringLiteral("order"), QStringLiteral("start"),
                               QStringLiteral("memory"), QStringLiteral("time-source"), QStringLiteral("op-time")}.indexOf(p.value(f.colour).toLower());
        if (colourBy < 0) {
            std::fprintf(stderr, "schedlab: --colour-by expects auto, category, device, order, start, memory, time-source or op-time\n");
            return false;
        }
    }
    if (p.isSet(f.size)) {
        const QStringList wh = p.value(f.size).split(QLatin1Char('x'));
        if (wh.size() != 2 || wh[0].toInt() < 200 || wh[1].toInt() < 200) {
            std::fprintf(stderr, "schedlab: --size expects WxH, e.g. 1600x1000\n");
            return false;
        }
        this->size = QSize(wh[0].toInt(), wh[1].toInt());
    }
    if ((this->run || benchStartup) && !graph) {
        std::fprintf(stderr, "schedlab: --run and --bench-startup need a FILE\n");
        return false;
    }
    return true;
}

bool CommandLine::checkMethods() const {
    for (const QString& m : this->methods)
        if (!OptimizerRegistry::instance().find(m.toStdString())) {
            const neural::ModuleStatus& neuralStatus = neural::ensureNeuralMethods();
            std::fprintf(stderr, "schedlab: unknown method '%s' (see --help for the list)%s%s\n", qPrintable(m),
                         neuralStatus.available ? "" : "; the neural methods are unavailable: ", neuralStatus.error.c_str());
            return false;
        }
    return true;
}

bool CommandLine::apply(MainWindow& w) {
    const bool headless = !screenshot.isEmpty();
    if (graph && !w.open(*graph, format)) {
        std::fprintf(stderr, "schedlab: %s\n", qPrintable(w.lastError()));
        if (headless) return false;
    }
    if (quitAfterPaint) quitOnFirstLayoutPaint(w);
    if (headless)   // the error dialog is not in the screenshot: say it on stderr too
        QObject::connect(&w, &MainWindow::runFailed, &w, [](const QString& message) {
            std::fprintf(stderr, "schedlab: a run failed: %s\n", qPrintable(message));
        });
    return w.applyForThisLaunch([&] { return applySettings(w); }) && (!headless || startScreenshot(w));
}

bool CommandLine::applySettings(MainWindow& w) {
    if (colourBy >= 0) w.dagView()->setColourBy(static_cast<DagColourBy>(colourBy), false);
    if (!applyMachine(w)) return false;
    if (!platform.isEmpty()) {
        QString error;
        if (!w.platformPanel()->loadPlatformFile(platform, &error)) {
            std::fprintf(stderr, "schedlab: %s\n", qPrintable(error));
            return false;
        }
    }
    if (!objective.isEmpty()) {
        try {
            w.platformPanel()->setObjective(objectiveFromString(objective.toStdString()));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "schedlab: %s\n", e.what());
            return false;
        }
    }
    auto setOptions = [&] {
        for (const QString& kv : options) {
            const int eq = kv.indexOf(QLatin1Char('='));
            if (eq < 0 || !w.runPanel()->setOption(kv.left(eq), kv.mid(eq + 1)))
                std::fprintf(stderr, "schedlab: option '%s' does not apply to %s\n", qPrintable(kv), qPrintable(w.runPanel()->method()));
        }
    };
    if (methods.isEmpty()) setOptions();
    for (const QString& m : methods) {
        w.runPanel()->setMethod(m);
        setOptions();
        if (run && w.document() && !w.startRun())
            std::fprintf(stderr, "schedlab: cannot run %s: %s\n", qPrintable(m), qPrintable(w.lastError()));   // the dialog is not in a screenshot
    }
    TemperaturePanel* panel = w.temperaturePanel();
    if (!sampler.isEmpty() && !panel->setSampler(sampler)) {
        std::fprintf(stderr, "schedlab: unknown sampler '%s'\n", qPrintable(sampler));
        return false;
    }
    if (temperature > 0) {
        panel->setTemperature(temperature);
        if (w.document()) panel->resampleNow();
    }
    if (!sweep.isEmpty()) {
        const QStringList tnk = sweep.split(QLatin1Char(','));
        panel->setSweepSettings(tnk.value(0).toInt() > 0 ? tnk.value(0).toInt() : 20, tnk.value(1).toInt() > 0 ? tnk.value(1).toInt() : 1000,
                                tnk.value(2).toInt() > 0 ? tnk.value(2).toInt() : 100);
        w.startSweep();
    }
    if (!sweepFile.isEmpty()) w.openSweep(sweepFile);
    if (!studyFile.isEmpty()) w.openStudy(studyFile);
    if (sweepPoint >= 0) {   // once the sweep is shown (run or opened)
        const int row = sweepPoint;
        QObject::connect(&w, &MainWindow::sweepShown, &w, [&w, row] { w.sweepView()->selectPoint(row); });
    }
    if (!view.isEmpty()) {
        if (!tabs.contains(view)) {
            std::fprintf(stderr, "schedlab: unknown view '%s'\n", qPrintable(view));
            return false;
        }
        w.showTab(static_cast<MainWindow::Tab>(tabs.indexOf(view)));
    }
    return true;
}

bool CommandLine::applyMachine(MainWindow& w) {
    const QString key = !preset.isEmpty() ? QStringLiteral("preset:") + preset : !device.isEmpty() ? QStringLiteral("device:") + device : QString();
    const int count = devices.isEmpty() && !device.isEmpty() ? 1 : devices.toInt();   // as schedlab-cli: one device by default
    if (!key.isEmpty()) {
        try {   // core's one rule and its words: an unknown id, more devices than the preset has
            if (!w.platformPanel()->selectMachine(key, count)) return false;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "schedlab: %s\n", e.what());
            return false;
        }
    }
    if (key.isEmpty() && !devices.isEmpty()) w.platformPanel()->setDeviceCount(devices.toInt());
    if (freeLinks) w.platformPanel()->setSharedLinks(false);
    if (!profile.isEmpty() && !w.applyProfile(profile)) {
        std::fprintf(stderr, "schedlab: %s\n", qPrintable(w.lastError()));   // the dialog is not in a screenshot
        return false;
    }
    return true;
}

void CommandLine::quitOnFirstLayoutPaint(MainWindow& w) {
    DagView* dag = w.dagView();
    new AfterFirstPaint(dag->canvas(), [dag] { return dag->hasLayout(); }, [] { QCoreApplication::exit(0); });
}

bool CommandLine::startScreenshot(MainWindow& w) {
    // wait for the runs and the DAG layout, then render and quit
    w.resize(size);
    auto* poll = new QTimer(&w);
    const QString out = screenshot;
    const QString tab = view;
    QElapsedTimer* since = new QElapsedTimer;
    since->start();
    const int delayMs = screenshotDelay;
    const QString op = select;
    const QStringList edits = moves;
    const QString dragSpec = drag;
    QObject::connect(poll, &QTimer::timeout, &w, [&w, poll, out, tab, since, delayMs, op, edits, dragSpec] {
        const bool busy = w.activeRuns() > 0 || w.temperaturePanel()->isSampling() || w.temperaturePanel()->isSweeping() || w.retimingShown();
        const bool waiting = delayMs >= 0 ? since->elapsed() < delayMs : (busy || (w.openGraph() && !w.dagView()->hasLayout()));
        if (waiting) return;
        delete since;
        poll->stop();
        const bool editing = !edits.isEmpty() || !dragSpec.isEmpty();
        if (w.results()->rowCount() >= 2 && !editing) w.selectResults({0, 1});
        if (w.sweepView()->sweep() && w.sweepView()->selectedPoint() < 0 && tab == QLatin1String("sweep"))
            w.sweepView()->selectPoint(static_cast<int>(w.sweepView()->sweep()->points.size()) / 3);
        if (!tab.isEmpty()) w.showTab(static_cast<MainWindow::Tab>(tabs.indexOf(tab)));
        if (!op.isEmpty() && !w.dagView()->search(op, true)) std::fprintf(stderr, "schedlab: no op '%s'\n", qPrintable(op));
        if (QString error; editing && !applyScriptedEdits(w, edits, dragSpec, &error)) std::fprintf(stderr, "schedlab: %s\n", qPrintable(error));
        QTimer::singleShot(600, &w, [&w, out] {   // let charts and the scene settle
            const bool ok = w.grab().save(out);
            std::fprintf(ok ? stdout : stderr, ok ? "wrote %s\n" : "schedlab: cannot write %s\n", qPrintable(out));
            w.cancelAll();   // runs still going (--screenshot-after) stop before the exit
            QApplication::exit(ok ? 0 : 1);
        });
    });
    poll->start(100);
    return true;
}

} // namespace sl::gui

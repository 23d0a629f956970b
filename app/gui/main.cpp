// SPDX-License-Identifier: MIT
// schedlab: the explorer. Opens a graph, optionally starts runs, and can render a screenshot or a
// startup/responsiveness benchmark headlessly (QT_QPA_PLATFORM=offscreen).
#include "app/gui/afterpaint.h"
#include "app/gui/benchstartup.h"
#include "app/gui/commandline.h"

#include "core/optimizer/optimizer.h"
#include "core/plugin/neuralmodule.h"
#include "core/util/limits.h"
#include "widgets/mainwindow/mainwindow.h"

#include <QApplication>
#include <QIcon>
#include <QTimer>

#include <cstdio>

namespace {

void identify() {
    QCoreApplication::setOrganizationName(QStringLiteral("SchedLab"));
    QCoreApplication::setApplicationName(QStringLiteral("SchedLab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SCHEDLAB_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.schedlab.SchedLab"));   // packaging/'s entry: the window's icon on Wayland
}

} // namespace

int main(int argc, char** argv) {
    try {
        sl::applyLimitsFromEnvironment();   // the same input limits as schedlab-cli (docs/reliability.md)
    } catch (const std::exception& e) {
        std::fprintf(stderr, "schedlab: %s\n", e.what());
        return 2;
    }
    sl::registerCoreOptimizers();   // the neural methods come with their module (core/plugin/neuralmodule.h)
    {
        // parsing needs no display: --help, --version and usage errors end here, without a window system
        QCoreApplication app(argc, argv);
        identify();
        if (!sl::gui::CommandLine().parse(app)) return 2;
    }
    QApplication app(argc, argv);
    identify();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/schedlab.svg")));

    sl::gui::CommandLine cli;
    if (!cli.parse(app)) return 2;
    // scripted launches see every method from the start; an interactive one shows its window first
    const bool scripted = cli.benchStartup || !cli.screenshot.isEmpty();
    if (scripted) sl::neural::ensureNeuralMethods();
    if (cli.benchStartup) return sl::gui::runStartupBenchmark(cli);

    sl::gui::MainWindow window;
    if (!cli.apply(window)) return 1;
    window.show();
    if (!scripted && !cli.quitAfterPaint) {
        auto load = [&window] { window.loadNeuralMethodsInBackground(); };
        new sl::gui::AfterFirstPaint(&window, [] { return true; }, load);
        QTimer::singleShot(2000, &window, load);   // should no paint reach the window (a second call does nothing)
    }
    // after a crash or a kill, offer that session's results back (not for scripted screenshots)
    if (cli.screenshot.isEmpty()) QTimer::singleShot(0, &window, [&window] { window.offerSessionRestore(); });
    return app.exec();
}

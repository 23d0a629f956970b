// SPDX-License-Identifier: MIT
// schedlab: the explorer. Opens a graph, optionally starts runs, and can render a screenshot or a
// startup/responsiveness benchmark headlessly (QT_QPA_PLATFORM=offscreen).
#include "app/gui/benchstartup.h"
#include "app/gui/commandline.h"

#include "core/optimizer/optimizer.h"
#include "models/register.h"
#include "widgets/mainwindow.h"

#include <QApplication>
#include <QIcon>

#include <cstdio>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("SchedLab"));
    QApplication::setApplicationName(QStringLiteral("SchedLab"));
    QApplication::setApplicationVersion(QStringLiteral("0.1"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/schedlab.svg")));
    sl::registerCoreOptimizers();
    sl::registerNeuralOptimizers();

    sl::gui::CommandLine cli;
    if (!cli.parse(app)) return 2;
    if (cli.benchStartup) return sl::gui::runStartupBenchmark(cli);

    sl::gui::MainWindow window;
    if (!cli.apply(window)) return 1;
    window.show();
    return app.exec();
}

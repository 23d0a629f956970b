// SPDX-License-Identifier: MIT
// Help ▸ About: what a bug report needs (version, Qt, build type) and the learned models bundled.
#include "widgets/mainwindow/mainwindow.h"

#include "core/optimizer/optimizer.h"

#include <QApplication>

#ifndef SCHEDLAB_BUILD_TYPE
#define SCHEDLAB_BUILD_TYPE ""   // set by widgets/CMakeLists.txt on this file
#endif

namespace sl::gui {

QString MainWindow::aboutText() {
    QStringList models;
    const auto methods = OptimizerRegistry::instance().list();
    for (const OptimizerInfo& info : methods)
        if (info.family == "neural") models << QString::fromStdString(info.name);
    const QString build = QStringLiteral(SCHEDLAB_BUILD_TYPE);
    return tr("<h3>SchedLab %1</h3><p>Schedules computation graphs on multi-device machines and compares methods: "
              "list heuristics, BRKGA, exact and neural optimizers.</p>"
              "<p>Qt %2 (built with %3), %4 build.<br>%5 methods registered.<br>Bundled models: %6.</p>")
        .arg(QApplication::applicationVersion().isEmpty() ? tr("(no version)") : QApplication::applicationVersion(),
             QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR),
             build.isEmpty() ? tr("an unnamed") : build)
        .arg(methods.size())
        .arg(models.isEmpty() ? tr("none in this build") : models.join(QStringLiteral(", ")));
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
// The explorer's side of the neural module (core/plugin/neuralmodule.h): the window opens with the
// classic methods; the module is mapped on a worker right after, and its methods join the panels.
// scripts/explore.sh opens the window before the module is built: it names a file in
// SCHEDLAB_NEURAL_MODULE_BUILDING that appears when the build ends, and the window waits for it
// (never mapping a module the linker is still writing).
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/panels/runpanel.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/background.h"

#include "core/plugin/neuralmodule.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStatusBar>
#include <QTimer>

#include <memory>
#include <utility>

namespace sl::gui {

namespace {

/// The file scripts/explore.sh writes when the module's build ends ("0" on success), or "" when
/// no build is under way.
QString moduleBuildStamp() { return qEnvironmentVariable("SCHEDLAB_NEURAL_MODULE_BUILDING"); }

bool moduleBuildFailed(const QString& stamp) {
    QFile f(stamp);
    return f.open(QIODevice::ReadOnly) && f.readAll().trimmed() != "0";
}

}   // namespace

void MainWindow::loadNeuralMethodsInBackground() {
    if (std::exchange(m_neuralLoadStarted, true)) return;
    if (const QString stamp = moduleBuildStamp(); !stamp.isEmpty() && !QFileInfo::exists(stamp))
        return waitForNeuralModuleBuild(stamp);
    runInBackground(
        this,
        [] {
            neural::preloadNeuralModule();   // the slow part: LibTorch and what it pulls in
            return true;
        },
        [this](const Outcome<bool>&) {
            // registering writes the registries the panels read: on this thread
            const neural::ModuleStatus& status = neural::ensureNeuralMethods();
            m_neuralLoadEnded = true;
            m_runPanel->reloadMethods();
            m_temperature->reloadSamplers();
            if (!status.available)
                statusBar()->showMessage(tr("Neural methods unavailable: %1").arg(QString::fromStdString(status.error)),
                                         15000);
            else if (!moduleBuildStamp().isEmpty())
                statusBar()->showMessage(tr("The neural module is built: its methods are in the Run panel"), 8000);
            startStudyWaitingForNeural();
            Q_EMIT neuralMethodsLoaded(status.available);
        });
}

void MainWindow::waitForNeuralModuleBuild(const QString& stamp) {
    const QString waiting = tr("The neural methods join the Run panel when their module is built (%1 s so far; "
                               "the classic methods are ready)");
    auto* poll = new QTimer(this);
    auto seconds = std::make_shared<int>(0);
    connect(poll, &QTimer::timeout, this, [this, poll, stamp, seconds, waiting] {
        if (!QFileInfo::exists(stamp)) {
            if (++*seconds % 10 == 0 && statusBar()->currentMessage().isEmpty())
                statusBar()->showMessage(waiting.arg(*seconds), 5000);
            return;
        }
        poll->deleteLater();
        if (moduleBuildFailed(stamp)) {
            m_neuralLoadEnded = true;
            startStudyWaitingForNeural();
            statusBar()->showMessage(tr("The neural module failed to build: see %1")
                                         .arg(QFileInfo(stamp).dir().filePath(QStringLiteral("neural-module.log"))),
                                     30000);
            return;
        }
        m_neuralLoadStarted = false;
        loadNeuralMethodsInBackground();
    });
    statusBar()->showMessage(waiting.arg(0), 5000);
    poll->start(1000);
}

}   // namespace sl::gui

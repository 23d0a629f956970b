// SPDX-License-Identifier: MIT
// The explorer's side of the neural module (core/plugin/neuralmodule.h): the window opens with the
// classic methods; the module is mapped on a worker right after, and its methods join the panels.
#include "widgets/mainwindow.h"

#include "widgets/background.h"
#include "widgets/runpanel.h"
#include "widgets/temperaturepanel.h"

#include "core/plugin/neuralmodule.h"

#include <QStatusBar>

#include <utility>

namespace sl::gui {

void MainWindow::loadNeuralMethodsInBackground() {
    if (std::exchange(m_neuralLoadStarted, true)) return;
    runInBackground(this, [] {
        neural::preloadNeuralModule();   // the slow part: LibTorch and what it pulls in
        return true;
    }, [this](const Outcome<bool>&) {
        // registering writes the registries the panels read: on this thread
        const neural::ModuleStatus& status = neural::ensureNeuralMethods();
        m_runPanel->reloadMethods();
        m_temperature->reloadSamplers();
        if (!status.available)
            statusBar()->showMessage(tr("Neural methods unavailable: %1").arg(QString::fromStdString(status.error)), 15000);
        Q_EMIT neuralMethodsLoaded(status.available);
    });
}

} // namespace sl::gui

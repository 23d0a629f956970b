// SPDX-License-Identifier: MIT
// MainWindow's op times: the Platform panel's machine and profile go to the Document, which derives
// the open graph's times again (widgets/session/graphtiming.h) and re-times the schedules on show
// (widgets/session/shownretiming.h; what lands is selected in mainwindowresults.cpp). Here: the
// hand-over, its errors, and the status bar's links and times.
#include "widgets/mainwindow/mainwindow.h"

#include "core/costmodel/sharedlinks.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/session/document.h"
#include "widgets/session/graphtiming.h"

#include <QFileInfo>
#include <QLabel>
#include <QStatusBar>

namespace sl::gui {

void MainWindow::setMachine(const Machine& machine) {
    try {
        m_document->setMachine(machine);
    } catch (const std::exception& e) {
        return showError(tr("Cannot time the graph on this machine"), QString::fromUtf8(e.what()));
    }
    showLinks(machine.platform);
}

bool MainWindow::applyProfile(const QString& path) {
    try {
        m_document->applyProfile(path);
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        statusBar()->showMessage(tr("Profile not applied: %1").arg(why), 15000);
        showError(tr("Cannot apply the profile"), why);
        return false;
    }
    statusBar()->showMessage(tr("%1: %2").arg(QFileInfo(path).fileName(), profileSummary(*openGraph()->timing.profile)),
                             10000);
    return true;
}

void MainWindow::clearProfile() {
    try {
        m_document->clearProfile();
    } catch (const std::exception& e) {
        showError(tr("Cannot clear the profile"), QString::fromUtf8(e.what()));
    }
}

bool MainWindow::retimingShown() const { return m_document->retimingShown(); }

void MainWindow::showLinks(const Platform& platform) {
    const QString links = QString::fromStdString(linksDescription(platform));
    m_statusLinks->setVisible(!links.isEmpty());
    m_statusLinks->setText(tr("links %1").arg(links.section(QLatin1Char(' '), 0, 0)));   // "shared" / "free"
    m_statusLinks->setToolTip(tr("Links: %1 (Platform dock ▸ Shared links)").arg(links));
}

void MainWindow::showTimesSource(const QString& source) {
    // a profile's device and a roofline's can run to 150 characters: the middle goes, both ends stay
    m_statusTimes->setText(m_statusTimes->fontMetrics().elidedText(source, Qt::ElideMiddle, 560));
    m_statusTimes->setProperty("fullText", source);
    m_statusTimes->setToolTip(tr("Where the op times come from: %1").arg(source));
}

}   // namespace sl::gui

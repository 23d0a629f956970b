// SPDX-License-Identifier: MIT
// MainWindow's op times: the Platform panel's machine and profile go to the Document, which derives
// the open graph's times again (widgets/session/graphtiming.h) and re-times the schedules on show
// (widgets/session/shownretiming.h); the window shows what lands: the rows selected, the status bar.
#include "widgets/mainwindow/mainwindow.h"

#include "core/costmodel/sharedlinks.h"

#include "widgets/panels/platformpanel.h"
#include "widgets/session/document.h"
#include "widgets/session/graphtiming.h"
#include "widgets/session/resultsmodel.h"

#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>

namespace sl::gui {

void MainWindow::syncMachine() {
    Platform platform;
    try {
        platform = m_platform->platform();
    } catch (const std::exception& e) {   // a catalogue entry gone missing, a preset's device unknown
        return showError(tr("Cannot build the machine"), QString::fromUtf8(e.what()));
    }
    try {
        m_document->setMachine({platform, m_platform->objective(), m_platform->target()});
    } catch (const std::exception& e) {
        return showError(tr("Cannot time the graph on this machine"), QString::fromUtf8(e.what()));
    }
    showLinks(platform);
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

void MainWindow::onAsMeasuredAdded(const RunRecord& r) {
    if (!m_document->shown())
        selectResults(
            {m_sorted->mapFromSource(m_document->results()->index(m_document->results()->rowOfId(r.id), 0)).row()});
    Q_EMIT asMeasuredAdded(r.id);
}

void MainWindow::clearProfile() {
    try {
        m_document->clearProfile();
    } catch (const std::exception& e) {
        showError(tr("Cannot clear the profile"), QString::fromUtf8(e.what()));
    }
}

bool MainWindow::retimingShown() const { return m_document->retimingShown(); }

void MainWindow::onTimesChanged(bool newGraph) {
    const OpenGraph& open = *openGraph();
    setWindowTitle(tr("%1 — SchedLab").arg(open.displayName));
    if (newGraph) {
        m_samplesWanted = false;    // the Temperature panel samples the new times afresh
        showResultsOfThisGraph();   // the results of these times
    }
    updateStatus();
}

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

void MainWindow::showRetimed(const RetimedShow& shown) {
    if (!shown.notFitting.isEmpty()) {
        m_resultsView->clearSelection();
        m_document->show(std::nullopt);
        statusBar()->showMessage(
            tr("The graph does not fit this machine, so no schedule is shown: %1").arg(shown.notFitting), 15000);
        return Q_EMIT shownRetimed();
    }
    if (!shown.dropped.isEmpty())
        statusBar()->showMessage(tr("No longer shown, as it does not fit %1: %2")
                                     .arg(shown.machine, shown.dropped.join(QStringLiteral("; "))),
                                 15000);
    const ResultsModel& results = *m_document->results();
    QList<int> visible;
    for (int id : shown.ids)
        if (const QModelIndex i = m_sorted->mapFromSource(results.index(results.rowOfId(id), 0)); i.isValid())
            visible << i.row();
    if (!visible.isEmpty()) {
        selectResults(visible);
    } else {
        m_resultsView->clearSelection();
        m_document->show(shown.loose);
    }
    Q_EMIT shownRetimed();
}

}   // namespace sl::gui

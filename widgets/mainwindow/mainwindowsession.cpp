// SPDX-License-Identifier: MIT
// MainWindow keeps the user's work: finished results autosaved and offered back after a crash or a
// kill (widgets/session/sessionstore.h), and the open graph's file watched for changes on disk.
#include "widgets/mainwindow/mainwindow.h"

#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/sessionstore.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

#include <map>

namespace sl::gui {

void MainWindow::buildSessionKeeping() {
    m_session = std::make_unique<SessionStore>(m_sessionRoot);
    connect(m_document, &Document::resultAdded, this, &MainWindow::autosave);
    const ResultsModel* results = m_document->results();
    connect(results, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this, results](const QModelIndex&, int first, int last) {
                for (int row = first; row <= last; ++row) m_session->forget(results->record(row).id);
            });
    connect(results, &QAbstractItemModel::dataChanged, this,
            [this, results](const QModelIndex& from, const QModelIndex& to) {
                if (from.column() > ResultsModel::Name || to.column() < ResultsModel::Name) return;
                for (int row = from.row(); row <= to.row(); ++row)
                    m_session->rename(results->record(row).id, results->record(row).name);
            });

    m_fileWatcher = new QFileSystemWatcher(this);
    m_fileChanged = new QWidget(this);
    auto* label = new QLabel(m_fileChanged);
    auto* reload = new QPushButton(tr("Reload"), m_fileChanged);
    reload->setObjectName(QStringLiteral("reloadButton"));
    reload->setToolTip(tr("Open the file again as it is now on disk (its earlier results stay under All graphs)"));
    auto* row = new QHBoxLayout(m_fileChanged);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(reload);
    statusBar()->addPermanentWidget(m_fileChanged);
    m_fileChanged->hide();
    connect(m_fileWatcher, &QFileSystemWatcher::fileChanged, this, [this, label](const QString& path) {
        if (!openGraph() || QFileInfo(path) != QFileInfo(openGraph()->path)) return;
        label->setText(tr("%1 changed on disk").arg(QFileInfo(path).fileName()));
        m_fileChanged->show();
    });
    connect(reload, &QPushButton::clicked, this, [this] {
        m_fileChanged->hide();
        if (openGraph()) openInBackground(openGraph()->origin);
    });
}

void MainWindow::watchDocumentFile() {
    m_fileChanged->hide();
    if (!m_fileWatcher->files().isEmpty()) m_fileWatcher->removePaths(m_fileWatcher->files());
    if (openGraph() && QFileInfo(openGraph()->path).isFile()) m_fileWatcher->addPath(openGraph()->path);
}

bool MainWindow::fileChangedOnDisk() const { return m_fileChanged && !m_fileChanged->isHidden(); }

void MainWindow::autosave(const RunRecord& r) {
    const SessionGraph* graph = m_document->sessionGraph(r.graphFingerprint);
    if (!r.result || !graph) return;   // no graph of this session: nothing could reopen it
    m_session->save({r.id, graph->origin, r.graphTitle, r.name, r.method, {}}, r.problem, r.schedule());
}

SessionStore& MainWindow::sessionStore() const { return *m_session; }

void MainWindow::offerSessionRestore() {
    const QList<OrphanSession> orphans = SessionStore::orphans(m_sessionRoot);
    if (orphans.isEmpty()) return;
    const OrphanSession& s = orphans.front();
    QStringList graphs;
    for (const SessionEntry& e : s.entries)
        if (!graphs.contains(e.graphTitle)) graphs << e.graphTitle;
    QMessageBox box(QMessageBox::Question, tr("Restore the last session?"),
                    tr("SchedLab did not close normally on %1. Restore its %n result(s) (of %2)?", nullptr,
                       static_cast<int>(s.entries.size()))
                        .arg(QLocale().toString(s.saved, QLocale::ShortFormat), graphs.join(QStringLiteral(", "))),
                    QMessageBox::NoButton, this);
    QPushButton* restore = box.addButton(tr("Restore"), QMessageBox::AcceptRole);
    box.addButton(tr("Discard"), QMessageBox::DestructiveRole);
    box.setDefaultButton(restore);
    box.exec();
    if (box.clickedButton() == restore)
        restoreSession(s);
    else
        SessionStore::remove(s);
}

int MainWindow::restoreSession(const OrphanSession& s) {
    // graph by graph, in the order they were first used: open it, then re-import its schedules
    std::vector<std::pair<GraphOrigin, std::vector<SessionEntry>>> byGraph;   // in first-use order
    for (const SessionEntry& e : s.entries) {
        auto graph = std::find_if(byGraph.begin(), byGraph.end(), [&](const auto& g) { return g.first == e.graph; });
        if (graph == byGraph.end()) graph = byGraph.insert(byGraph.end(), {e.graph, {}});
        graph->second.push_back(e);
    }
    int restored = 0;
    QStringList missing;
    ResultsModel* results = m_document->results();
    for (const auto& [origin, entries] : byGraph) {
        if (!open(origin)) {
            missing << entries.front().graphTitle;
            continue;
        }
        for (const SessionEntry& e : entries) {
            QEventLoop wait;
            bool ok = false, finished = false;
            importSchedule(s.folder + QLatin1Char('/') + e.scheduleFile, [&](bool success) {
                ok = success;
                finished = true;
                wait.quit();
            });
            if (!finished) wait.exec();   // the answer may come before exec(): it must not wait then
            if (!ok) continue;
            results->setData(results->index(results->rowCount() - 1, ResultsModel::Name), e.name);
            ++restored;
        }
    }
    SessionStore::remove(s);
    statusBar()->showMessage(missing.isEmpty() ? tr("Restored %n result(s) of the last session", nullptr, restored)
                                               : tr("Restored %n result(s); could not reopen %1", nullptr, restored)
                                                     .arg(missing.join(QStringLiteral(", "))),
                             10000);
    return restored;
}

}   // namespace sl::gui

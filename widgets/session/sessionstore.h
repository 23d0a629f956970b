// SPDX-License-Identifier: MIT
#pragma once
// Finished runs saved as they land, so that a crash or a kill loses none of them. Each running
// explorer owns one folder, <root>/<pid>: an index (JSON) and one schedule JSON per result, every
// file written atomically on a thread of its own, in order. A clean exit removes the folder; a
// folder whose process is gone is a session to offer back at the next start.
#include "widgets/session/graphorigin.h"

#include "core/costmodel/problem.h"
#include "core/schedule/schedule.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <memory>

class QThreadPool;

namespace sl::gui {

/// One saved result: enough to reopen its graph and re-import its schedule.
struct SessionEntry {
    int id = 0;
    GraphOrigin graph;   ///< where the graph came from, to open it again
    QString graphTitle;
    QString name;
    QString method;
    QString scheduleFile;   ///< inside the session folder
};

/// A session left behind by an explorer that did not close normally.
struct OrphanSession {
    QString folder;
    QDateTime saved;
    QList<SessionEntry> entries;
};

class SessionStore {
public:
    /// `root`: AppDataLocation/sessions unless given (tests).
    explicit SessionStore(QString root = {});
    ~SessionStore();   ///< waits for pending writes
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    /// Saves a finished result (the schedule JSON is made on the writer thread).
    void save(const SessionEntry& entry, std::shared_ptr<const Problem> problem, const Schedule& schedule);
    void rename(int id, const QString& name);
    void forget(int id);
    /// A clean exit: the folder goes, nothing is offered back.
    void discard();
    /// Blocks until every queued write has landed (tests, exit).
    void flush();
    QString folder() const { return m_folder; }

    /// Sessions under `root` whose explorer is gone, newest first; unreadable folders are skipped.
    static QList<OrphanSession> orphans(const QString& root = {});
    /// Removes an orphan's folder (restored or declined).
    static void remove(const OrphanSession& s);
    static QString defaultRoot();

private:
    void writeIndex();

    QString m_folder;
    QList<SessionEntry> m_entries;
    std::unique_ptr<QThreadPool> m_writer;
};

}   // namespace sl::gui

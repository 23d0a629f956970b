// SPDX-License-Identifier: MIT
#pragma once
// A study running in the explorer (File ▸ New Study): the study's runs on the thread pool, their
// stop, and how often the Study tab should read the database back. The tab and the status bar
// observe it; MainWindow only starts and cancels it. Its runs use core/study, as `schedlab-cli
// study run` does (StudyStore::openOrCreate: another study's database is refused in the same words).
#include <QObject>
#include <QString>

#include <memory>
#include <stop_token>

namespace sl::gui {

class TaskState;

class StudySession : public QObject {
    Q_OBJECT
public:
    explicit StudySession(QObject* parent = nullptr);
    ~StudySession() override;   ///< stops the study and waits for the run in flight

    /// Runs the study of `specPath` into `dbPath` (created when missing, else resumed) on the
    /// global thread pool, one run per core. False when a study is running already.
    bool start(const QString& specPath, const QString& dbPath);
    /// Stops after the runs in flight; the runs stored so far stay.
    void stop();
    bool isRunning() const { return m_task != nullptr; }
    const QString& database() const { return m_database; }

    /// The least time between two reloadDue() while runs are stored: reading the database back
    /// costs about 0.1 s at 15,000 runs.
    static constexpr int kReloadIntervalMs = 500;

Q_SIGNALS:
    /// A run was stored: `done` of `total` runs are in the database.
    void progressed(int done, int total);
    /// The database has runs the tab has not read: at most every kReloadIntervalMs, and at the end.
    void reloadDue(const QString& dbPath);
    /// The study ended: all its runs stored, or stopped (`made` runs by this session).
    void finished(int made);
    void failed(const QString& message);

private:
    void onProgress(int done, int total);

    std::shared_ptr<TaskState> m_task;
    std::shared_ptr<std::stop_source> m_stop;
    QString m_database;
    qint64 m_reloadedAt = 0;   // ms since the epoch
};

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/session/studysession.h"

#include "widgets/session/pooltask.h"

#include "core/study/studyrunner.h"
#include "core/study/studystore.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QPointer>
#include <QThreadPool>

#include <algorithm>
#include <thread>

namespace sl::gui {

StudySession::StudySession(QObject* parent) : QObject(parent) {}

StudySession::~StudySession() {
    stop();
    if (m_task) m_task->wait();   // a run in flight finishes (and is not stored)
}

bool StudySession::start(const QString& specPath, const QString& dbPath) {
    if (m_task) return false;
    m_stop = std::make_shared<std::stop_source>();
    m_database = dbPath;
    m_reloadedAt = 0;
    QPointer<StudySession> self(this);
    auto progress = [self](const StudyProgress& p) {   // on a worker: handed to the GUI thread
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, done = p.done, total = p.total] {
                if (self) self->onProgress(done, total);
            },
            Qt::QueuedConnection);
    };
    const int workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    m_task = runOnPool(
        *QThreadPool::globalInstance(), this,
        [spec = specPath.toStdString(), db = dbPath.toStdString(), progress, stop = m_stop, workers] {
            StudyStore store = StudyStore::openOrCreate(db, spec);
            return runStudy(store, progress, stop->get_token(), workers);
        },
        [this](Outcome<int> o) {
            m_task.reset();
            m_stop.reset();
            Q_EMIT reloadDue(m_database);
            if (o.value)
                Q_EMIT finished(*o.value);
            else
                Q_EMIT failed(o.error);
        });
    return true;
}

void StudySession::stop() {
    if (m_stop) m_stop->request_stop();
}

void StudySession::onProgress(int done, int total) {
    Q_EMIT progressed(done, total);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (now - m_reloadedAt < kReloadIntervalMs) return;   // the end reloads in any case
    m_reloadedAt = now;
    Q_EMIT reloadDue(m_database);
}

}   // namespace sl::gui

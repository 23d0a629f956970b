// SPDX-License-Identifier: MIT
#include "widgets/session/sessionstore.h"
#include "widgets/session/pooltask.h"

#include "core/io/scheduleio.h"
#include "core/util/atomicfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QThreadPool>

#include <algorithm>
#include <cerrno>

#include <signal.h>

namespace sl::gui {
namespace {

const QString kIndex = QStringLiteral("session.json");

bool processAlive(qint64 pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

QJsonObject toJson(const SessionEntry& e) {
    return {{QStringLiteral("id"), e.id},
            {QStringLiteral("graph"), QJsonObject::fromVariantMap(e.graph.toVariant())},
            {QStringLiteral("graph_title"), e.graphTitle},
            {QStringLiteral("name"), e.name},
            {QStringLiteral("method"), e.method},
            {QStringLiteral("schedule"), e.scheduleFile}};
}

/// None when the entry's graph cannot be read back (an older or damaged index).
std::optional<SessionEntry> entryFrom(const QJsonObject& o) {
    const auto graph = GraphOrigin::fromVariant(o.value(QStringLiteral("graph")).toObject().toVariantMap());
    if (!graph) return std::nullopt;
    return SessionEntry{o.value(QStringLiteral("id")).toInt(),
                        *graph,
                        o.value(QStringLiteral("graph_title")).toString(),
                        o.value(QStringLiteral("name")).toString(),
                        o.value(QStringLiteral("method")).toString(),
                        o.value(QStringLiteral("schedule")).toString()};
}

}   // namespace

QString SessionStore::defaultRoot() {
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions");
}

SessionStore::SessionStore(QString root) : m_writer(std::make_unique<QThreadPool>()) {
    m_writer->setMaxThreadCount(1);   // one writer: the index never overtakes its schedules
    m_folder = (root.isEmpty() ? defaultRoot() : root) + QLatin1Char('/') +
        QString::number(QCoreApplication::applicationPid());
}

SessionStore::~SessionStore() { flush(); }

void SessionStore::save(const SessionEntry& entry, std::shared_ptr<const Problem> problem, const Schedule& schedule) {
    SessionEntry e = entry;
    e.scheduleFile = QStringLiteral("%1.schedule.json").arg(e.id);
    m_entries.append(e);
    const QString path = m_folder + QLatin1Char('/') + e.scheduleFile;
    const QString folder = m_folder;
    runDetached(*m_writer, [folder, path, problem = std::move(problem), schedule] {
        try {
            QDir().mkpath(folder);
            writeFileAtomically(path.toStdString(), scheduleToJson(*problem, schedule));
        } catch (const std::exception&) {
            // a full disk must not stop the explorer; the index then names a file that is missing,
            // and the restore skips that result
        }
    });
    writeIndex();
}

void SessionStore::rename(int id, const QString& name) {
    for (SessionEntry& e : m_entries)
        if (e.id == id && e.name != name) {
            e.name = name;
            writeIndex();
        }
}

void SessionStore::forget(int id) {
    if (m_entries.removeIf([id](const SessionEntry& e) { return e.id == id; }) > 0) writeIndex();
}

void SessionStore::writeIndex() {
    QJsonArray results;
    for (const SessionEntry& e : m_entries) results.append(toJson(e));
    const QJsonObject doc{{QStringLiteral("format"), QStringLiteral("schedlab-session")},
                          {QStringLiteral("version"), 1},
                          {QStringLiteral("saved"), QDateTime::currentDateTime().toString(Qt::ISODate)},
                          {QStringLiteral("results"), results}};
    const QByteArray text = QJsonDocument(doc).toJson();
    const QString folder = m_folder;
    runDetached(*m_writer, [folder, text] {
        try {
            QDir().mkpath(folder);
            writeFileAtomically((folder + QLatin1Char('/') + kIndex).toStdString(), text.toStdString());
        } catch (const std::exception&) {}
    });
}

void SessionStore::flush() { m_writer->waitForDone(); }

void SessionStore::discard() {
    flush();
    m_entries.clear();
    QDir(m_folder).removeRecursively();
}

QList<OrphanSession> SessionStore::orphans(const QString& rootIn) {
    const QString root = rootIn.isEmpty() ? defaultRoot() : rootIn;
    QList<OrphanSession> out;
    for (const QFileInfo& dir : QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool numeric = false;
        const qint64 pid = dir.fileName().toLongLong(&numeric);
        if (!numeric || pid == QCoreApplication::applicationPid() || processAlive(pid)) continue;
        QFile index(dir.filePath() + QLatin1Char('/') + kIndex);
        if (!index.open(QIODevice::ReadOnly)) continue;
        const QJsonObject doc = QJsonDocument::fromJson(index.readAll()).object();
        if (doc.value(QStringLiteral("format")).toString() != QLatin1String("schedlab-session")) continue;
        OrphanSession s{
            dir.filePath(), QDateTime::fromString(doc.value(QStringLiteral("saved")).toString(), Qt::ISODate), {}};
        for (const QJsonValue& v : doc.value(QStringLiteral("results")).toArray())
            if (auto entry = entryFrom(v.toObject())) s.entries.append(*entry);
        if (s.entries.isEmpty()) {
            remove(s);   // nothing to offer
            continue;
        }
        out.append(s);
    }
    std::sort(out.begin(), out.end(), [](const OrphanSession& a, const OrphanSession& b) { return a.saved > b.saved; });
    return out;
}

void SessionStore::remove(const OrphanSession& s) { QDir(s.folder).removeRecursively(); }

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/session/scheduleopen.h"

#include "widgets/session/criticalpath.h"
#include "widgets/session/schedulerecord.h"

#include "core/costmodel/cost.h"
#include "core/costmodel/sharedlinks.h"
#include "core/costmodel/validator.h"
#include "core/graph/fingerprint.h"
#include "core/io/scheduleio.h"
#include "core/timing/retime.h"
#include "core/util/atomicfile.h"

#include <QCoreApplication>
#include <QFileInfo>

#include <stdexcept>

namespace sl::gui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("OpenSchedule", text); }

[[noreturn]] void refuse(const QString& sentence) { throw std::runtime_error(sentence.toStdString()); }

QString fingerprint(std::uint64_t f) { return QString::fromStdString(fingerprintText(f)); }

/// The platform the schedule is read on: its own when it says, else the panel's, widened to the
/// device count of an older file that names more devices than the panel has.
std::optional<Platform> platformToAdopt(const ScheduleOrigin& origin, const Platform& panel) {
    if (origin.platform) return samePlatform(*origin.platform, panel) ? std::nullopt : origin.platform;
    if (origin.deviceCount <= panel.deviceCount()) return std::nullopt;
    Platform wider = Platform::identical(origin.deviceCount, panel.devices.front().memoryCapacity);
    wider.link = panel.link;
    return wider;
}

}   // namespace

bool samePlatform(const Platform& a, const Platform& b) {
    if (a.deviceCount() != b.deviceCount() || a.link.latency != b.link.latency || a.link.bandwidth != b.link.bandwidth)
        return false;
    if (a.topology.empty() != b.topology.empty() || linksShared(a) != linksShared(b)) return false;
    for (int d = 0; d < a.deviceCount(); ++d) {
        const Device& x = a.devices[static_cast<size_t>(d)];
        const Device& y = b.devices[static_cast<size_t>(d)];
        if (x.name != y.name || x.machineType != y.machineType || x.memoryCapacity != y.memoryCapacity ||
            x.resourceCapacity != y.resourceCapacity || x.model != y.model)
            return false;
        for (int e = 0; e < a.deviceCount(); ++e)
            if (a.pairLatency(d, e) != b.pairLatency(d, e) || a.pairBandwidth(d, e) != b.pairBandwidth(d, e))
                return false;
    }
    return true;
}

OpenedSchedule openScheduleFile(const QString& path, const Problem& current, const ShownGraph& shown, int id,
                                const ScoringTarget& target) {
    return openScheduleText(readFile(path.toStdString()), path, current, shown, id, target);
}

OpenedSchedule openScheduleText(const std::string& json, const QString& source, const Problem& current,
                                const ShownGraph& shown, int id, const ScoringTarget& target) {
    const std::string file = source.toStdString();
    const QString name = QFileInfo(source).fileName();
    const ScheduleOrigin origin = parseScheduleOrigin(json, file);
    auto problem = std::make_shared<Problem>(current);
    OpenedSchedule out;
    out.adopted = platformToAdopt(origin, current.platform);
    if (out.adopted) problem->platform = *out.adopted;
    // A schedule made on catalogue devices carries its machine; the open graph's ops are re-timed
    // on it (the schedule's fingerprint is of those times) before anything is compared.
    std::uint64_t expected = shown.fingerprint;
    if (out.adopted)
        if (const TimedGraph timed = retimeGraph(current.g(), problem->platform, DeviceCatalog::instance());
            timed.retimed) {
            problem->graph = timed.retimed;
            expected = graphFingerprint(*timed.retimed);
        }
    const Graph& g = current.g();
    if (origin.graphFingerprint && *origin.graphFingerprint != expected)
        refuse(
            tr("%1 was made for another graph (%2 ops, fingerprint %3); the open graph is %4 (%5 ops, fingerprint %6). "
               "Open the schedule's graph first.")
                .arg(name)
                .arg(origin.graphOps >= 0 ? QString::number(origin.graphOps) : tr("unknown"))
                .arg(fingerprint(*origin.graphFingerprint), shown.title)
                .arg(g.opCount())
                .arg(fingerprint(shown.fingerprint)));

    try {
        problem->check();
    } catch (const std::exception& e) {
        refuse(tr("%1 was made on a platform (%2 devices) that cannot run the open graph: %3")
                   .arg(name)
                   .arg(problem->platform.deviceCount())
                   .arg(QString::fromUtf8(e.what())));
    }
    // the file's numbers are not trusted: the cost model re-times and re-scores the schedule
    Schedule s = parseScheduleJson(*problem, json, file);
    const ValidationReport v = validateSchedule(*problem, s);
    if (!v.ok())
        refuse(tr("%1 is not a valid schedule of this graph and platform: %2")
                   .arg(source, QString::fromStdString(v.errors.front())));
    const QString method = QString::fromStdString(s.method.empty() ? std::string("imported") : s.method);
    out.record =
        recordOfSchedule(id, QStringLiteral("%1 (%2)").arg(name, method), method, problem, std::move(s), target);
    out.record.options.seed = out.record.schedule().seed;
    return out;
}

}   // namespace sl::gui

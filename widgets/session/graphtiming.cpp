// SPDX-License-Identifier: MIT
#include "widgets/session/graphtiming.h"

#include "core/timing/retime.h"

#include <QObject>

namespace sl::gui {
namespace {

/// "DGX A100: 8 x A100 SXM4 80 GB, NVSwitch" -> "DGX A100"; "4 of DGX A100: ..." -> "4 of DGX A100".
QString beforeColon(const std::string& name) {
    const QString text = QString::fromStdString(name);
    const qsizetype colon = text.indexOf(QLatin1Char(':'));
    return colon < 0 ? text : text.left(colon);
}

}   // namespace

std::shared_ptr<const GraphProfile> readAndApplyProfile(const QString& path,
                                                        const std::shared_ptr<const Graph>& asRead) {
    auto measured = std::make_shared<Graph>(*asRead);   // a copy: a refusal leaves the open graph alone
    auto out = std::make_shared<GraphProfile>();
    out->path = path;
    out->applied = sl::applyProfileFile(*measured, path.toStdString());
    out->graph = std::move(measured);
    return out;
}

std::shared_ptr<const Graph> deriveTimes(GraphTiming& timing, const Platform& machine) {
    timing.judgedOn.reset();
    if (timing.profileIsTarget && timing.profile) {   // estimates to schedule on, the measured times to judge
        GraphTiming measured = timing;
        measured.profileIsTarget = false;
        std::shared_ptr<const Graph> judged = deriveTimes(measured, machine);
        GraphTiming estimate = timing;
        estimate.profile.reset();
        std::shared_ptr<const Graph> timed = deriveTimes(estimate, machine);
        timing.source = QObject::tr("%1; judged on %2")
                            .arg(estimate.source.isEmpty() ? QObject::tr("the file's own times") : estimate.source,
                                 measured.source);
        timing.label = estimate.label.isEmpty() ? QObject::tr("judged on measured")
                                                : QObject::tr("%1, judged on measured").arg(estimate.label);
        timing.judgedOn = std::move(judged);
        return timed;
    }
    std::shared_ptr<const Graph> base = timing.profile ? timing.profile->graph : timing.asRead;
    const TimedGraph timed = retimeGraph(*base, machine, DeviceCatalog::instance());
    const QString models = timed.retimed ? QString::fromStdString(timed.describe()) : QString();
    if (timing.profile) {
        timing.source =
            profileSummary(*timing.profile) + (models.isEmpty() ? QString() : QStringLiteral("; ") + models);
        timing.label = timed.retimed ? QObject::tr("measured, %1 roofline").arg(QString::fromStdString(timed.devices))
                                     : QObject::tr("measured");
    } else {
        // the core's words: "measured times" for a trace's, "the file's own times" otherwise
        timing.source = timed.retimed ? models : QString::fromStdString(timed.describe());
        timing.label =
            timed.retimed ? QObject::tr("%1 roofline").arg(QString::fromStdString(timed.devices)) : QString();
    }
    return timed.retimed ? timed.retimed : base;
}

QString timedTitle(const GraphTiming& timing) {
    return timing.label.isEmpty() ? timing.name : QStringLiteral("%1 — %2").arg(timing.name, timing.label);
}

QString profileSummary(const GraphProfile& p) { return QString::fromStdString(p.applied.describe()); }

QString machineLabel(const Platform& p) {
    // a machine whose links were freed (Platform dock, --free-links) is named apart from itself shared
    const QString links = !p.topology.empty() && !p.topology.shared ? QObject::tr(", free links") : QString();
    if (!p.name.empty()) return beforeColon(p.name) + links;
    return QObject::tr("%n device(s)", nullptr, p.deviceCount());
}

}   // namespace sl::gui

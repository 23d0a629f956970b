// SPDX-License-Identifier: MIT
#include "widgets/session/graphloader.h"

#include "core/generators/generators.h"
#include "core/graph/fingerprint.h"
#include "core/io/graphio.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <stdexcept>

namespace sl::gui {
namespace {

OpenGraph generated(const GraphOrigin& origin) {
    auto inst = generateInstance(origin.family.toStdString(), origin.ops, origin.seed);
    OpenGraph g;
    g.graph = inst.graph;
    g.platform = inst.platform;
    g.displayName = QStringLiteral("%1 (%2 ops, seed %3)").arg(origin.family).arg(origin.ops).arg(origin.seed);
    return g;
}

OpenGraph fromFile(const QString& path, const QString& format) {
    const QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(path.toStdString() + ": no such file");
    GraphFormat fmt = GraphFormat::Auto;
    if (!format.isEmpty()) {
        try {
            fmt = graphFormatFromString(format.toStdString());
        } catch (const std::invalid_argument&) {
            throw std::runtime_error(path.toStdString() + ": unknown format '" + format.toStdString() + "'");
        }
    }
    LoadedGraph lg = loadGraph(path.toStdString(), fmt);
    OpenGraph g;
    g.graph = lg.graph;
    g.platform = lg.platform;
    for (const auto& w : lg.warnings) g.warnings << QString::fromStdString(w);
    g.path = info.absoluteFilePath();
    g.displayName = info.fileName();
    return g;
}

/// A bundled example copied to a temporary file: the format readers read real files.
QString copyOfBundled(const QString& resource) {
    const QString dir =
        QStandardPaths::writableLocation(QStandardPaths::TempLocation) + QStringLiteral("/schedlab-examples");
    QDir().mkpath(dir);
    const QString copy = dir + QLatin1Char('/') + QFileInfo(resource).fileName();
    QFile::remove(copy);
    if (!QFile::copy(resource, copy)) throw std::runtime_error(resource.toStdString() + " is not in this build");
    QFile::setPermissions(copy, QFile::ReadOwner | QFile::WriteOwner);
    return copy;
}

OpenGraph underived(const GraphOrigin& origin, const QString& format) {
    switch (origin.kind) {
    case GraphOrigin::Kind::Generated: return generated(origin);
    case GraphOrigin::Kind::Bundled: return fromFile(copyOfBundled(origin.path), format);
    case GraphOrigin::Kind::File: break;
    }
    return fromFile(origin.path, format);
}

/// The graph replaced by its training step; the title says so.
void deriveTrainingStep(OpenGraph& g, UpdateRule rule, const QString& name) {
    try {
        g.graph = std::make_shared<const Graph>(makeTrainingGraph(*g.graph, {.rule = rule}));
    } catch (const GraphError& e) {
        throw std::runtime_error(name.toStdString() + ": " + e.what());
    }
    g.displayName += QStringLiteral(" — training step, %1").arg(updateRuleTitle(rule));
}

}   // namespace

QStringList knownFormats() {
    return {QStringLiteral("json"),      QStringLiteral("dot"),  QStringLiteral("stg"), QStringLiteral("jobshop"),
            QStringLiteral("wfcommons"), QStringLiteral("onnx"), QStringLiteral("hlo")};
}

OpenGraph readGraph(const GraphOrigin& origin, const QString& format) {
    OpenGraph g = underived(origin, format);
    if (origin.training) deriveTrainingStep(g, *origin.training, g.path.isEmpty() ? g.displayName : g.path);
    g.origin = origin;
    g.fingerprint = graphFingerprint(*g.graph);
    return g;
}

}   // namespace sl::gui

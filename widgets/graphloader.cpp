// SPDX-License-Identifier: MIT
#include "widgets/graphloader.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"

#include <QFileInfo>

#include <stdexcept>

namespace sl::gui {
namespace {

LoadedDocument generated(const QString& spec) {
    const QStringList parts = spec.split(QLatin1Char(':'));   // generated:FAMILY:N:SEED
    if (parts.size() != 4) throw std::runtime_error(spec.toStdString() + ": expected generated:FAMILY:N:SEED");
    auto inst = generateInstance(parts[1].toStdString(), parts[2].toInt(), parts[3].toULongLong());
    LoadedDocument doc;
    doc.graph = inst.graph;
    doc.platform = inst.platform;
    doc.displayName = QStringLiteral("%1 (%2 ops, seed %3)").arg(parts[1], parts[2], parts[3]);
    return doc;
}

} // namespace

QStringList knownFormats() {
    return {QStringLiteral("json"), QStringLiteral("dot"), QStringLiteral("stg"), QStringLiteral("jobshop"),
            QStringLiteral("wfcommons"), QStringLiteral("onnx"), QStringLiteral("hlo")};
}

LoadedDocument loadDocument(const QString& path, const QString& format) {
    if (path.startsWith(QLatin1String("generated:"))) return generated(path);
    const QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(path.toStdString() + ": no such file");
    LoadedDocument doc;
    GraphFormat fmt = GraphFormat::Auto;
    if (!format.isEmpty()) {
        try {
            fmt = graphFormatFromString(format.toStdString());
        } catch (const std::invalid_argument&) {
            throw std::runtime_error(path.toStdString() + ": unknown format '" + format.toStdString() + "'");
        }
    }
    LoadedGraph lg = loadGraph(path.toStdString(), fmt);
    doc.graph = lg.graph;
    doc.platform = lg.platform;
    for (const auto& w : lg.warnings) doc.warnings << QString::fromStdString(w);
    doc.path = info.absoluteFilePath();
    doc.displayName = info.fileName();
    return doc;
}

} // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/graphloader.h"

#include "core/generators/generators.h"
#include "core/io/graphio.h"

#include <QFileInfo>

#include <stdexcept>

namespace sl::gui {
namespace {

constexpr QLatin1String kTrainingSuffix("?training=");

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

LoadedDocument loadFile(const QString& path, const QString& format) {
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

/// The document's graph replaced by its training step; the title says so.
void makeTraining(LoadedDocument& doc, UpdateRule rule) {
    doc.graph = std::make_shared<const Graph>(makeTrainingGraph(*doc.graph, {.rule = rule}));
    doc.training = rule;
    doc.displayName += QStringLiteral(" — training step, %1").arg(updateRuleTitle(rule));
}

} // namespace

QStringList knownFormats() {
    return {QStringLiteral("json"), QStringLiteral("dot"), QStringLiteral("stg"), QStringLiteral("jobshop"),
            QStringLiteral("wfcommons"), QStringLiteral("onnx"), QStringLiteral("hlo")};
}

DocumentSource parseDocumentSource(const QString& source) {
    const int at = source.lastIndexOf(kTrainingSuffix);
    if (at < 0) return {source, std::nullopt};
    const auto rule = parseUpdateRule(source.mid(at + kTrainingSuffix.size()).toStdString());
    if (!rule) return {source, std::nullopt};
    return {source.left(at), rule};
}

QString documentSource(const QString& path, std::optional<UpdateRule> training) {
    if (!training) return path;
    return path + kTrainingSuffix + QString::fromLatin1(updateRuleName(*training));
}

QString updateRuleTitle(UpdateRule rule) {
    return rule == UpdateRule::Adam ? QStringLiteral("Adam") : QStringLiteral("SGD");
}

LoadedDocument loadDocument(const QString& source, const QString& format) {
    const DocumentSource src = parseDocumentSource(source);
    LoadedDocument doc = src.path.startsWith(QLatin1String("generated:")) ? generated(src.path) : loadFile(src.path, format);
    doc.source = src.path;
    if (!src.training) return doc;
    try {
        makeTraining(doc, *src.training);
    } catch (const GraphError& e) {
        throw std::runtime_error(src.path.toStdString() + ": " + e.what());
    }
    return doc;
}

} // namespace sl::gui

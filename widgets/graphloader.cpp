// SPDX-License-Identifier: MIT
#include "widgets/graphloader.h"

#include "core/generators/generators.h"
#ifdef SL_HAVE_GRAPHIO
#include "core/io/graphio.h"
#endif

#include <QFile>
#include <QFileInfo>

#include <sstream>
#include <stdexcept>

namespace sl::gui {
namespace {

// standard job-shop text: "jobs machines", then per job `machine duration` pairs
LoadedDocument readJobShop(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error(path.toStdString() + ": cannot open");
    std::istringstream in(f.readAll().toStdString());
    int jobs = 0, machines = 0;
    if (!(in >> jobs >> machines) || jobs <= 0 || machines <= 0 || jobs * machines > 1000000)
        throw std::runtime_error(path.toStdString() + ":1: expected 'jobs machines'");
    auto g = std::make_shared<Graph>();
    for (int j = 0; j < jobs; ++j) {
        OpId prev = kNoOp;
        for (int k = 0; k < machines; ++k) {
            int m = 0;
            double d = 0;
            if (!(in >> m >> d) || m < 0 || m >= machines || d < 0)
                throw std::runtime_error(path.toStdString() + ":" + std::to_string(j + 2) + ": bad (machine, duration) pair "
                                         + std::to_string(k + 1) + " of job " + std::to_string(j));
            const OpId v = g->addOp({.name = "j" + std::to_string(j) + "o" + std::to_string(k), .type = "M" + std::to_string(m),
                                     .duration = d, .machineType = m});
            if (prev != kNoOp) g->addEdge(prev, v, 0);
            prev = v;
        }
    }
    g->finalize();
    Platform p;
    for (int m = 0; m < machines; ++m) p.devices.push_back({.name = "M" + std::to_string(m), .machineType = m});
    LoadedDocument doc;
    doc.graph = std::move(g);
    doc.platform = p;
    return doc;
}

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

bool haveCoreLoaders() {
#ifdef SL_HAVE_GRAPHIO
    return true;
#else
    return false;
#endif
}

QStringList knownFormats() {
    return {QStringLiteral("json"), QStringLiteral("dot"), QStringLiteral("stg"), QStringLiteral("jobshop"),
            QStringLiteral("wfcommons"), QStringLiteral("onnx"), QStringLiteral("hlo")};
}

LoadedDocument loadDocument(const QString& path, const QString& format) {
    if (path.startsWith(QLatin1String("generated:"))) return generated(path);
    const QFileInfo info(path);
    if (!info.exists()) throw std::runtime_error(path.toStdString() + ": no such file");
    LoadedDocument doc;
#ifdef SL_HAVE_GRAPHIO
    const auto fmt = format.isEmpty() ? GraphFormat::Auto : graphFormatFromString(format.toStdString());
    LoadedGraph lg = loadGraph(path.toStdString(), fmt);
    doc.graph = lg.graph;
    doc.platform = lg.platform;
    for (const auto& w : lg.warnings) doc.warnings << QString::fromStdString(w);
#else
    const QString suffix = info.suffix().toLower();
    if (format == QLatin1String("jobshop") || (format.isEmpty() && (suffix == QLatin1String("txt") || suffix == QLatin1String("jss"))))
        doc = readJobShop(path);
    else
        throw std::runtime_error(path.toStdString() + ": this build reads only job-shop text (core/io loaders not built in)");
#endif
    doc.path = info.absoluteFilePath();
    doc.displayName = info.fileName();
    return doc;
}

} // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// Reading a graph for the explorer from its origin: files in every format through sl::loadGraph
// (core/io), bundled examples from the resources, generated instances (core/generators), and the
// training step derived from any of them (core/graph/traininggraph.h). Runs on a worker thread.
#include "widgets/session/graphorigin.h"
#include "widgets/session/graphtiming.h"

#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>

namespace sl::gui {

/// A graph as the explorer opened it.
struct OpenGraph {
    std::shared_ptr<const Graph> graph;
    std::uint64_t fingerprint = 0;   ///< results and schedules know their graph by it
    GraphOrigin origin;
    QString path;   ///< the file read (absolute); empty for a generated graph
    QString displayName;
    QStringList warnings;
    std::optional<Platform> platform;   ///< the machine the file names, if any
    /// Where `graph`'s times come from; the Document fills it (a graph read from its file has
    /// none yet: its own times).
    GraphTiming timing;
};

/// Throws std::exception with a message naming the file (or the generator). `format` empty = by
/// the file's extension.
OpenGraph readGraph(const GraphOrigin& origin, const QString& format = {});
/// Formats the open dialog and --format accept.
QStringList knownFormats();

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// Opening graph files for the explorer: every format through sl::loadGraph (core/io);
// "generated:FAMILY:N:SEED" makes a generated instance.
#include "core/graph/graph.h"
#include "core/platform/platform.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace sl::gui {

struct LoadedDocument {
    std::shared_ptr<const Graph> graph;
    std::optional<Platform> platform;
    QString path;
    QString displayName;
    QStringList warnings;
};

/// Throws std::exception with a message naming the file. `format` empty = by extension.
LoadedDocument loadDocument(const QString& path, const QString& format = {});
/// Formats the open dialog and --format accept.
QStringList knownFormats();

} // namespace sl::gui

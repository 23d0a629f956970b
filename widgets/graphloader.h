// SPDX-License-Identifier: MIT
#pragma once
// Opening graph files for the explorer: every format through sl::loadGraph (core/io);
// "generated:FAMILY:N:SEED" makes a generated instance. A source may end in "?training=sgd|adam":
// then the document is its training step (core/graph/traininggraph.h), and the recent-files
// list, which stores sources as they were opened, remembers the mode.
#include "core/graph/graph.h"
#include "core/graph/traininggraph.h"
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
    QString source;                       ///< the file or generated spec, without "?training="
    std::optional<UpdateRule> training;   ///< set when the graph is a training step
};

/// A source split into the file (or generated spec) and the training mode of its suffix.
struct DocumentSource {
    QString path;
    std::optional<UpdateRule> training;
};
/// "PATH?training=adam" -> {PATH, Adam}; no (or an unknown) suffix: {source, none}.
DocumentSource parseDocumentSource(const QString& source);
/// `path` with the "?training=" suffix of `training` (none: `path` as it is).
QString documentSource(const QString& path, std::optional<UpdateRule> training);
/// "SGD" / "Adam", for titles and menus.
QString updateRuleTitle(UpdateRule rule);

/// Throws std::exception with a message naming the file. `format` empty = by extension. `path`
/// may carry a "?training=" suffix.
LoadedDocument loadDocument(const QString& path, const QString& format = {});
/// Formats the open dialog and --format accept.
QStringList knownFormats();

} // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// Where an open graph came from, as typed fields: a file, an example bundled in the resources, or a
// generator's instance, and whether it was derived into its training step. The explorer never
// parses a string into an origin: the command line does that at its edge (app/gui/commandline.cpp);
// recent files and saved sessions store the fields themselves (toVariant / fromVariant).
#include "core/graph/traininggraph.h"

#include <QString>
#include <QVariantMap>

#include <cstdint>
#include <optional>

namespace sl::gui {

struct GraphOrigin {
    enum class Kind { File, Bundled, Generated };
    Kind kind = Kind::File;
    QString path;                         ///< File: the file; Bundled: its resource (":/examples/…")
    QString family;                       ///< Generated: the generator family (core/generators)
    int ops = 0;                          ///< Generated: its size
    std::uint64_t seed = 1;               ///< Generated: its seed
    std::optional<UpdateRule> training;   ///< set: the document is the graph's training step

    static GraphOrigin file(const QString& path);
    static GraphOrigin bundled(const QString& resource);
    static GraphOrigin generated(const QString& family, int ops, std::uint64_t seed);
    /// The same graph derived into its training step under `rule` (none: the graph as it is).
    GraphOrigin withTraining(std::optional<UpdateRule> rule) const;
    /// The same graph, not derived.
    GraphOrigin underived() const { return withTraining(std::nullopt); }

    /// The fields as a map, for QSettings and the session index; fromVariant reads it back and
    /// returns none for a map it does not recognise (an older or damaged entry).
    QVariantMap toVariant() const;
    static std::optional<GraphOrigin> fromVariant(const QVariantMap& map);

    bool operator==(const GraphOrigin&) const = default;
};

/// "SGD" / "Adam", for titles and menus.
QString updateRuleTitle(UpdateRule rule);

}   // namespace sl::gui

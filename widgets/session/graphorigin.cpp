// SPDX-License-Identifier: MIT
#include "widgets/session/graphorigin.h"

namespace sl::gui {
namespace {

QString kindName(GraphOrigin::Kind kind) {
    switch (kind) {
    case GraphOrigin::Kind::File: return QStringLiteral("file");
    case GraphOrigin::Kind::Bundled: return QStringLiteral("bundled");
    case GraphOrigin::Kind::Generated: return QStringLiteral("generated");
    }
    return {};
}

std::optional<GraphOrigin::Kind> kindOf(const QString& name) {
    for (auto kind : {GraphOrigin::Kind::File, GraphOrigin::Kind::Bundled, GraphOrigin::Kind::Generated})
        if (kindName(kind) == name) return kind;
    return std::nullopt;
}

}   // namespace

GraphOrigin GraphOrigin::file(const QString& path) {
    GraphOrigin o;
    o.path = path;
    return o;
}

GraphOrigin GraphOrigin::bundled(const QString& resource) {
    GraphOrigin o;
    o.kind = Kind::Bundled;
    o.path = resource;
    return o;
}

GraphOrigin GraphOrigin::generated(const QString& family, int ops, std::uint64_t seed) {
    GraphOrigin o;
    o.kind = Kind::Generated;
    o.family = family;
    o.ops = ops;
    o.seed = seed;
    return o;
}

GraphOrigin GraphOrigin::withTraining(std::optional<UpdateRule> rule) const {
    GraphOrigin o = *this;
    o.training = rule;
    return o;
}

QVariantMap GraphOrigin::toVariant() const {
    QVariantMap map{{QStringLiteral("kind"), kindName(kind)}};
    if (kind == Kind::Generated) {
        map[QStringLiteral("family")] = family;
        map[QStringLiteral("ops")] = ops;
        map[QStringLiteral("seed")] = QString::number(seed);   // as text: 64 bits survive JSON
    } else {
        map[QStringLiteral("path")] = path;
    }
    if (training) map[QStringLiteral("training")] = QString::fromLatin1(updateRuleName(*training));
    return map;
}

std::optional<GraphOrigin> GraphOrigin::fromVariant(const QVariantMap& map) {
    const auto kind = kindOf(map.value(QStringLiteral("kind")).toString());
    if (!kind) return std::nullopt;
    GraphOrigin o;
    o.kind = *kind;
    if (o.kind == Kind::Generated) {
        bool ok = false;
        o.family = map.value(QStringLiteral("family")).toString();
        o.ops = map.value(QStringLiteral("ops")).toInt();
        o.seed = map.value(QStringLiteral("seed")).toString().toULongLong(&ok);
        if (!ok || o.family.isEmpty() || o.ops <= 0) return std::nullopt;
    } else {
        o.path = map.value(QStringLiteral("path")).toString();
        if (o.path.isEmpty()) return std::nullopt;
    }
    if (map.contains(QStringLiteral("training"))) {
        o.training = parseUpdateRule(map.value(QStringLiteral("training")).toString().toStdString());
        if (!o.training) return std::nullopt;
    }
    return o;
}

QString updateRuleTitle(UpdateRule rule) {
    return rule == UpdateRule::Adam ? QStringLiteral("Adam") : QStringLiteral("SGD");
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/views/dagcolouring.h"

#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/palette.h"

#include <QObject>

#include <algorithm>
#include <array>
#include <cmath>
#include <unordered_map>

namespace sl::gui {
namespace {

// ops of one type share a category: classify each distinct type once (100k ops, a few dozen types)
std::vector<OpCategory> categories(const Graph& g) {
    std::unordered_map<std::string, OpCategory> seen;
    std::vector<OpCategory> out(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        const std::string& type = g.op(v).type;
        auto it = seen.find(type);
        if (it == seen.end()) it = seen.emplace(type, classifyOpType(type)).first;
        out[static_cast<size_t>(v)] = it->second;
    }
    return out;
}

void byCategory(const Graph& g, DagColouring& c) {
    const auto cat = categories(g);
    std::array<bool, kOpCategoryCount> used{};
    for (size_t v = 0; v < cat.size(); ++v) {
        c.fill[v] = categoryColour(cat[v]).rgb();
        used[static_cast<size_t>(cat[v])] = true;
    }
    for (int k = 0; k < kOpCategoryCount; ++k)   // only the categories this graph has
        if (used[static_cast<size_t>(k)])
            c.swatches.emplace_back(categoryColour(static_cast<OpCategory>(k)),
                                    QString::fromUtf8(toString(static_cast<OpCategory>(k)).data()));
}

void byDevice(const RunRecord& r, DagColouring& c) {
    const auto& ops = r.schedule().ops;
    for (size_t v = 0; v < c.fill.size() && v < ops.size(); ++v) c.fill[v] = palette::category(ops[v].device).rgb();
    const auto& devices = r.problem->platform.devices;
    for (size_t d = 0; d < devices.size() && d < 12; ++d)
        c.swatches.emplace_back(palette::category(static_cast<int>(d)), QString::fromStdString(devices[d].name));
}

void byValue(const std::vector<double>& value, DagColouring& c) {
    double lo = kInfinity, hi = -kInfinity;
    for (double x : value)
        if (std::isfinite(x)) {
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
    if (lo > hi) lo = hi = 0;
    for (size_t v = 0; v < value.size(); ++v)
        c.fill[v] = std::isfinite(value[v]) ? rampColour(hi > lo ? (value[v] - lo) / (hi - lo) : 0).rgb()
                                            : QColor(0xe3, 0xe8, 0xef).rgb();
    c.continuous = true;
}

void byTimeSource(const Graph& g, DagColouring& c) {
    std::array<int, 3> count{};
    for (OpId v = 0; v < g.opCount(); ++v) {
        const TimeSource s = g.op(v).timeSource;
        c.fill[static_cast<size_t>(v)] = timeSourceColour(s).rgb();
        ++count[static_cast<size_t>(s)];
    }
    for (TimeSource s : {TimeSource::Measured, TimeSource::Estimated,
                         TimeSource::Given})   // all three: the legend explains the scheme
        c.swatches.emplace_back(timeSourceColour(s),
                                QObject::tr("%1 (%2)").arg(QString::fromUtf8(toString(s).data()),
                                                           formatCount(count[static_cast<size_t>(s)])));
}

/// Durations on a log scale: a few µs of a ReLU and 100 ms of a convolution both read.
void byOpTime(const Graph& g, DagColouring& c) {
    std::vector<double> value(static_cast<size_t>(g.opCount()), kInfinity);
    double lo = kInfinity, hi = 0;
    for (OpId v = 0; v < g.opCount(); ++v) {
        const double d = g.op(v).duration;
        if (!(d > 0)) continue;   // no time: grey
        value[static_cast<size_t>(v)] = std::log10(d);
        lo = std::min(lo, d);
        hi = std::max(hi, d);
    }
    byValue(value, c);
    c.title = QObject::tr("op time (log scale)");
    c.low = hi > 0 ? formatDuration(lo, g.timeUnit()) : QObject::tr("none");
    c.high = hi > 0 ? formatDuration(hi, g.timeUnit()) : QObject::tr("none");
}

}   // namespace

QColor timeSourceColour(TimeSource s) {
    switch (s) {
    case TimeSource::Measured: return QColor(0x00, 0x9e, 0x73);
    case TimeSource::Estimated: return QColor(0xe6, 0x9f, 0x00);
    case TimeSource::Given: break;
    }
    return QColor(0xa7, 0xb0, 0xba);
}

QColor categoryColour(OpCategory c) {
    switch (c) {
    case OpCategory::Convolution: return QColor(0x4e, 0x79, 0xa7);
    case OpCategory::MatMul: return QColor(0x8a, 0x6b, 0xbe);
    case OpCategory::Elementwise: return QColor(0xf2, 0xa0, 0x6b);
    case OpCategory::Normalisation: return QColor(0x6d, 0xb3, 0x63);
    case OpCategory::Pooling: return QColor(0x4f, 0xb0, 0xa8);
    case OpCategory::DataMovement: return QColor(0xc4, 0xcc, 0xd6);
    case OpCategory::Reduction: return QColor(0xed, 0xc9, 0x48);
    case OpCategory::Other: break;
    }
    return QColor(0xdb, 0xd2, 0xc8);
}

QColor rampColour(double t) {
    // viridis-like, reversed so that small is light: cream, green, teal, blue, deep purple
    static const std::array<QColor, 5> stops = {QColor(0xfd, 0xe7, 0x25), QColor(0x5e, 0xc9, 0x62),
                                                QColor(0x21, 0x91, 0x8c), QColor(0x3b, 0x52, 0x8b),
                                                QColor(0x44, 0x01, 0x54)};
    t = std::clamp(t, 0.0, 1.0) * (stops.size() - 1);
    const auto i = std::min(static_cast<size_t>(t), stops.size() - 2);
    const double f = t - static_cast<double>(i);
    auto mix = [&](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return QColor(mix(stops[i].red(), stops[i + 1].red()), mix(stops[i].green(), stops[i + 1].green()),
                  mix(stops[i].blue(), stops[i + 1].blue()));
}

std::vector<int> orderPositions(const Graph& g, const RunRecord& record) {
    std::vector<int> position(static_cast<size_t>(g.opCount()), -1);
    const auto& order = record.schedule().order;
    for (size_t i = 0; i < order.size(); ++i)
        if (order[i] >= 0 && order[i] < g.opCount()) position[static_cast<size_t>(order[i])] = static_cast<int>(i);
    return position;
}

DagColouring colourOps(const Graph& g, const RunRecord* record, DagColourBy by) {
    DagColouring c;
    c.fill.assign(static_cast<size_t>(g.opCount()), QColor(0xe3, 0xe8, 0xef).rgb());
    if (by == DagColourBy::Auto) by = record ? DagColourBy::Device : DagColourBy::Category;
    const bool ofTheGraph = by == DagColourBy::Memory || by == DagColourBy::TimeSource || by == DagColourBy::OpTime;
    if (!record && !ofTheGraph) by = DagColourBy::Category;   // the others need a schedule
    c.mode = by;
    const auto n = static_cast<size_t>(g.opCount());
    std::vector<double> value(n, kInfinity);
    switch (by) {
    case DagColourBy::Auto:
    case DagColourBy::Category: byCategory(g, c); return c;
    case DagColourBy::Device: byDevice(*record, c); return c;
    case DagColourBy::Order: {
        const auto pos = orderPositions(g, *record);
        for (size_t v = 0; v < n; ++v) value[v] = pos[v] >= 0 ? pos[v] : kInfinity;
        byValue(value, c);
        c.title = QObject::tr("order position");
        c.low = QStringLiteral("#0");
        c.high = QStringLiteral("#%1").arg(
            formatCount(std::max<long long>(0, static_cast<long long>(record->schedule().order.size()) - 1)));
        return c;
    }
    case DagColourBy::Start: {
        const auto& ops = record->schedule().ops;
        for (size_t v = 0; v < n && v < ops.size(); ++v) value[v] = ops[v].start;
        byValue(value, c);
        double hi = 0;
        for (const auto& o : ops) hi = std::max(hi, o.start);
        c.title = QObject::tr("start time");
        c.low = formatDuration(0, g.timeUnit());
        c.high = formatDuration(hi, g.timeUnit());
        return c;
    }
    case DagColourBy::Memory: {
        double hi = 0;
        for (OpId v = 0; v < g.opCount(); ++v) hi = std::max(hi, value[static_cast<size_t>(v)] = g.outputBytes(v));
        byValue(value, c);
        c.title = QObject::tr("output bytes");
        c.low = formatBytes(0);
        c.high = formatBytes(hi);
        return c;
    }
    case DagColourBy::TimeSource: byTimeSource(g, c); return c;
    case DagColourBy::OpTime: byOpTime(g, c); return c;
    }
    return c;
}

}   // namespace sl::gui

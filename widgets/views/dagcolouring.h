// SPDX-License-Identifier: MIT
#pragma once
// What the DAG's node colours mean: op category (before a run), device (once a schedule is shown),
// where each op's time comes from (measured, estimated, given), or a continuous value (order
// position, start time, output bytes, op time on a log scale) on a sequential ramp.
#include "core/graph/opcategory.h"
#include "widgets/session/types.h"

#include <QColor>
#include <QString>

#include <optional>
#include <vector>

namespace sl::gui {

/// In the colour combo's order (its index is the value; saved as such: append only).
enum class DagColourBy { Auto, Category, Device, Order, Start, Memory, TimeSource, OpTime };

/// One colour per category, chosen for the legend and black or white text on top.
QColor categoryColour(OpCategory c);
/// A sequential ramp (light to dark, perceptually even enough), t in [0, 1].
QColor rampColour(double t);
/// Measured, estimated and given times: three colours apart in hue and lightness (Okabe-Ito
/// bluish green and orange, a neutral grey), told apart with colour-blind eyes too.
QColor timeSourceColour(TimeSource s);

/// The fills of every op and what the legend shows.
struct DagColouring {
    DagColourBy mode = DagColourBy::Category;   ///< resolved: never Auto
    std::vector<QRgb> fill;                     ///< per op
    bool continuous = false;
    QString low, high;                                  ///< continuous: the ramp's ends, with units
    QString title;                                      ///< continuous: what the ramp measures
    std::vector<std::pair<QColor, QString>> swatches;   ///< categorical legend entries
};

/// `record` only when it schedules `g`; modes that need a schedule fall back to Category without
/// one. OpTime: log10 of each duration on the ramp; ops of no time (0) get the "no value" grey.
DagColouring colourOps(const Graph& g, const RunRecord* record, DagColourBy by);
/// Per op, its position in the record's order, or -1.
std::vector<int> orderPositions(const Graph& g, const RunRecord& record);

}   // namespace sl::gui

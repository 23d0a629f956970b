// SPDX-License-Identifier: MIT
#pragma once
// The mark of a pinned op, one look in the Gantt chart and the DAG: a dark pin head with a white
// rim at a bar's or node's corner, and for an op pinned to its place, that place's number.
#include "core/costmodel/pins.h"

class QPainter;
class QPointF;

namespace sl::gui {

/// Paints `pin` with its head centred at `at`, `radius` pixels (scene units) wide.
void paintPin(QPainter& p, QPointF at, double radius, const Pin& pin);

}   // namespace sl::gui

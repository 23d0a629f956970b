// SPDX-License-Identifier: MIT
#pragma once
// One categorical palette for the whole explorer (devices, op types, series), so a device has the
// same colour in the DAG, the Gantt chart and the memory chart.
#include <QColor>
#include <QString>

namespace sl::gui::palette {

QColor category(int index);   ///< 12 distinct, legible colours, cycling
/// Colour `index` of `count` that must all differ (a job-shop's jobs): the categories while they
/// suffice, else `count` evenly spaced hues, alternately lighter and darker.
QColor distinct(int index, int count);
QColor forName(const QString& name);                          ///< stable colour for an op type
QColor textOn(const QColor& fill);                            ///< black or white, whichever reads better
inline QColor accent() { return QColor(0xd6, 0x27, 0x28); }   // selection / critical path
inline QColor gridLine() { return QColor(0xdd, 0xdd, 0xdd); }
inline QColor laneBackground(int i) { return i % 2 ? QColor(0xf6, 0xf7, 0xf9) : QColor(0xff, 0xff, 0xff); }

}   // namespace sl::gui::palette

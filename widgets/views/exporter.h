// SPDX-License-Identifier: MIT
#pragma once
// Exports from the explorer: schedule files through core/io/scheduleio.h (one writer per format,
// shared with schedlab-cli), and the current view as PNG or SVG.
#include "widgets/session/types.h"

#include <QString>

class QWidget;

namespace sl::gui {

enum class ExportKind { ScheduleJson, Csv, ChromeTrace, AnnotatedDot };

/// Throws std::exception with a readable message.
void exportSchedule(ExportKind kind, const RunRecord& r, const QString& path);
/// PNG (or any raster format by suffix) or SVG of a widget as shown; throws on failure.
void exportWidgetImage(QWidget* w, const QString& path);
QString exportFilter(ExportKind kind);

}   // namespace sl::gui

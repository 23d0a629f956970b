// SPDX-License-Identifier: MIT
#include "widgets/exporter.h"

#include "core/io/scheduleio.h"

#include <QFile>
#include <QPainter>
#include <QSvgGenerator>
#include <QWidget>

#include <stdexcept>

namespace sl::gui {

QString exportFilter(ExportKind kind) {
    switch (kind) {
    case ExportKind::ScheduleJson: return QStringLiteral("Schedule JSON (*.json)");
    case ExportKind::Csv: return QStringLiteral("CSV (*.csv)");
    case ExportKind::ChromeTrace: return QStringLiteral("Chrome trace (*.json)");
    case ExportKind::AnnotatedDot: return QStringLiteral("Graphviz DOT (*.dot *.gv)");
    }
    return {};
}

void exportSchedule(ExportKind kind, const RunRecord& r, const QString& path) {
    const Problem& p = *r.problem;
    const Schedule& s = r.schedule();
    const std::string file = path.toStdString();
    switch (kind) {
    case ExportKind::ScheduleJson: saveScheduleJson(p, s, file); break;
    case ExportKind::Csv: saveScheduleCsv(p, s, file); break;
    case ExportKind::ChromeTrace: saveChromeTrace(p, s, file); break;
    case ExportKind::AnnotatedDot: saveAnnotatedDot(p, s, file); break;
    }
}

void exportWidgetImage(QWidget* w, const QString& path) {
    if (path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(w->size());
        svg.setViewBox(w->rect());
        svg.setTitle(QStringLiteral("SchedLab"));
        QPainter painter;
        if (!painter.begin(&svg)) throw std::runtime_error(path.toStdString() + ": cannot write SVG");
        w->render(&painter);
        painter.end();
        if (!QFile::exists(path)) throw std::runtime_error(path.toStdString() + ": cannot write SVG");
        return;
    }
    if (!w->grab().save(path)) throw std::runtime_error(path.toStdString() + ": cannot write image");
}

} // namespace sl::gui

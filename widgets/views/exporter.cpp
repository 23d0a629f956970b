// SPDX-License-Identifier: MIT
#include "widgets/views/exporter.h"

#include "core/io/scheduleio.h"

#include <QFile>
#include <QFileInfo>
#include <QImageWriter>
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

namespace {

/// Why `path` cannot be written, in the words of the CSV and JSON exports; empty when it can.
QString unwritable(const QString& path) {
    const QFileInfo file(path);
    const QFileInfo dir(file.absolutePath());
    if (!dir.exists()) return QStringLiteral("the folder %1 does not exist").arg(dir.filePath());
    if (!dir.isDir()) return QStringLiteral("%1 is not a folder").arg(dir.filePath());
    if (!dir.isWritable()) return QStringLiteral("the folder %1 is not writable").arg(dir.filePath());
    if (file.exists() && !file.isWritable()) return QStringLiteral("the file is read-only");
    return {};
}

[[noreturn]] void fail(const QString& path, const QString& what, const QString& why) {
    throw std::runtime_error(QStringLiteral("%1: cannot write %2: %3").arg(path, what, why).toStdString());
}

}   // namespace

void exportWidgetImage(QWidget* w, const QString& path) {
    const bool svg = path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive);
    if (const QString why = unwritable(path); !why.isEmpty())
        fail(path, svg ? QStringLiteral("the SVG drawing") : QStringLiteral("the image"), why);
    if (svg) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(w->size());
        svg.setViewBox(w->rect());
        svg.setTitle(QStringLiteral("SchedLab"));
        QPainter painter;
        if (!painter.begin(&svg))
            fail(path, QStringLiteral("the SVG drawing"), QStringLiteral("the file cannot be opened for writing"));
        w->render(&painter);
        painter.end();
        if (!QFile::exists(path)) fail(path, QStringLiteral("the SVG drawing"), QStringLiteral("nothing was written"));
        return;
    }
    QImageWriter writer(path);
    if (!writer.canWrite()) {
        const QString suffix = QFileInfo(path).suffix();
        fail(path, QStringLiteral("the image"),
             suffix.isEmpty() || writer.error() == QImageWriter::UnsupportedFormatError
                 ? QStringLiteral("\"%1\" is not an image format this build writes (use .png or .svg)").arg(suffix)
                 : writer.errorString());
    }
    if (!writer.write(w->grab().toImage())) fail(path, QStringLiteral("the image"), writer.errorString());
}

}   // namespace sl::gui

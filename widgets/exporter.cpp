// SPDX-License-Identifier: MIT
#include "widgets/exporter.h"

#ifdef SL_HAVE_SCHEDULEIO
#include "core/io/scheduleio.h"
#endif

#include <QFile>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace sl::gui {
namespace {

#ifndef SL_HAVE_SCHEDULEIO
void writeAtomically(const QString& path, const std::string& text) {
    QSaveFile f(path);   // temporary file + rename: never a truncated export
    if (!f.open(QIODevice::WriteOnly) || f.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) || !f.commit())
        throw std::runtime_error(path.toStdString() + ": cannot write (" + f.errorString().toStdString() + ")");
}

std::string deviceName(const Problem& p, int d) {
    return d >= 0 && d < p.platform.deviceCount() ? p.platform.devices[static_cast<size_t>(d)].name : std::to_string(d);
}

std::string toJson(const Problem& p, const Schedule& s) {
    using nlohmann::json;
    const Graph& g = p.g();
    json j = {{"format", "schedlab-schedule"}, {"version", 1}, {"makespan", s.makespan}, {"peak_memory_bytes", s.peakMemory},
              {"memory_clock", s.memoryClock}, {"method", s.method}, {"seed", s.seed}};
    json devices = json::array(), order = json::array(), ops = json::array(), transfers = json::array();
    for (const auto& d : p.platform.devices) devices.push_back(d.name);
    for (OpId v : s.order) order.push_back(g.op(v).name);
    for (size_t v = 0; v < s.ops.size(); ++v)
        ops.push_back({{"id", g.op(static_cast<OpId>(v)).name}, {"device", s.ops[v].device}, {"start", s.ops[v].start}, {"end", s.ops[v].end}});
    for (const auto& t : s.transfers)
        transfers.push_back({{"tensor", g.tensor(t.tensor).name}, {"from", t.from}, {"to", t.to}, {"start", t.start}, {"end", t.end}});
    j["devices"] = devices;
    j["order"] = order;
    j["ops"] = ops;
    j["transfers"] = transfers;
    return j.dump(1) + "\n";
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

std::string toCsv(const Problem& p, const Schedule& s) {
    std::vector<int> position(s.ops.size(), -1);
    for (size_t i = 0; i < s.order.size(); ++i) position[static_cast<size_t>(s.order[i])] = static_cast<int>(i);
    std::string out = "op,type,device,start,end,duration,position\n";
    for (size_t v = 0; v < s.ops.size(); ++v) {
        const Op& op = p.g().op(static_cast<OpId>(v));
        const auto& so = s.ops[v];
        out += csvField(op.name) + "," + csvField(op.type) + "," + std::to_string(so.device) + "," + nlohmann::json(so.start).dump() + ","
               + nlohmann::json(so.end).dump() + "," + nlohmann::json(so.end - so.start).dump() + "," + std::to_string(position[v]) + "\n";
    }
    return out;
}

std::string toChromeTrace(const Problem& p, const Schedule& s) {
    using nlohmann::json;
    json events = json::array();
    for (int d = 0; d < p.platform.deviceCount(); ++d)
        events.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", 1}, {"tid", d}, {"args", {{"name", deviceName(p, d)}}}});
    for (size_t v = 0; v < s.ops.size(); ++v) {
        const Op& op = p.g().op(static_cast<OpId>(v));
        events.push_back({{"ph", "X"}, {"name", op.name}, {"cat", op.type}, {"pid", 1}, {"tid", s.ops[v].device},
                          {"ts", s.ops[v].start}, {"dur", s.ops[v].end - s.ops[v].start}});
    }
    for (const auto& t : s.transfers)
        events.push_back({{"ph", "X"}, {"name", p.g().tensor(t.tensor).name}, {"cat", "transfer"}, {"pid", 2}, {"tid", t.to},
                          {"ts", t.start}, {"dur", t.end - t.start}});
    return json({{"traceEvents", events}, {"displayTimeUnit", "ns"}}).dump() + "\n";
}

std::string toDot(const Problem& p, const Schedule& s) {
    static const char* colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"};
    const Graph& g = p.g();
    std::vector<int> position(s.ops.size(), -1);
    for (size_t i = 0; i < s.order.size(); ++i) position[static_cast<size_t>(s.order[i])] = static_cast<int>(i);
    std::string out = "digraph schedule {\n  node [shape=box, style=filled];\n";
    for (OpId v = 0; v < g.opCount(); ++v)
        out += "  n" + std::to_string(v) + " [label=" + nlohmann::json("#" + std::to_string(position[static_cast<size_t>(v)]) + " " + g.op(v).name).dump()
               + ", fillcolor=\"" + colours[static_cast<size_t>(s.ops[static_cast<size_t>(v)].device) % 8] + "\"];\n";
    for (OpId v = 0; v < g.opCount(); ++v)
        for (OpId w : g.successors(v)) out += "  n" + std::to_string(v) + " -> n" + std::to_string(w) + ";\n";
    return out + "}\n";
}
#endif

} // namespace

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
#ifdef SL_HAVE_SCHEDULEIO
    switch (kind) {
    case ExportKind::ScheduleJson: saveScheduleJson(p, s, file); break;
    case ExportKind::Csv: saveScheduleCsv(p, s, file); break;
    case ExportKind::ChromeTrace: saveChromeTrace(p, s, file); break;
    case ExportKind::AnnotatedDot: saveAnnotatedDot(p, s, file); break;
    }
#else
    (void)file;
    switch (kind) {
    case ExportKind::ScheduleJson: writeAtomically(path, toJson(p, s)); break;
    case ExportKind::Csv: writeAtomically(path, toCsv(p, s)); break;
    case ExportKind::ChromeTrace: writeAtomically(path, toChromeTrace(p, s)); break;
    case ExportKind::AnnotatedDot: writeAtomically(path, toDot(p, s)); break;
    }
#endif
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

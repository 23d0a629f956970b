// SPDX-License-Identifier: MIT
#include "widgets/views/opdetails.h"

#include "core/graph/opcategory.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/dagcolouring.h"

#include <algorithm>
#include <numeric>

namespace sl::gui {
namespace {

constexpr int kListLimit = 12;   // consumers or folded ops listed before "and N more"

QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString row(const QString& key, const QString& value) {
    return QStringLiteral("<tr><td style='color:#6a7280; padding-right:10px'>%1</td><td>%2</td></tr>").arg(key, value);
}

QString section(const QString& title) {
    return QStringLiteral("<tr><td colspan=2 style='padding-top:8px'><b>%1</b></td></tr>").arg(title);
}

}   // namespace

std::vector<double> latestStarts(const Problem& p, const Schedule& s) {
    const Graph& g = p.g();
    const auto n = static_cast<size_t>(g.opCount());
    std::vector<double> latest(n, kInfinity);
    if (s.ops.size() != n) return latest;
    std::vector<int> topoIndex(n);
    for (size_t i = 0; i < n; ++i) topoIndex[static_cast<size_t>(g.topologicalOrder()[i])] = static_cast<int>(i);
    // latest first: every op's data successors and device successor are settled before it
    std::vector<OpId> byStart(n);
    std::iota(byStart.begin(), byStart.end(), 0);
    std::sort(byStart.begin(), byStart.end(), [&](OpId a, OpId b) {
        return s.ops[a].start != s.ops[b].start ? s.ops[a].start > s.ops[b].start
                                                : topoIndex[static_cast<size_t>(a)] > topoIndex[static_cast<size_t>(b)];
    });
    std::vector<std::vector<const ScheduledTransfer*>> transfersOf(n);
    for (const auto& t : s.transfers)
        if (t.tensor >= 0 && t.tensor < g.tensorCount())
            transfersOf[static_cast<size_t>(g.tensor(t.tensor).producer)].push_back(&t);
    std::vector<OpId> nextOnDevice(p.platform.devices.size() + 1, kNoOp);
    for (OpId v : byStart) {
        const ScheduledOp& sv = s.ops[v];
        double finish = s.makespan;
        for (OpId w : g.successors(v)) finish = std::min(finish, latest[static_cast<size_t>(w)]);
        for (const ScheduledTransfer* t : transfersOf[static_cast<size_t>(v)])
            for (OpId c : g.tensor(t->tensor).consumers)
                if (s.ops[c].device == t->to)
                    finish = std::min(finish, latest[static_cast<size_t>(c)] - (t->end - t->start));
        const auto d = static_cast<size_t>(std::clamp(sv.device, 0, static_cast<int>(nextOnDevice.size()) - 1));
        // a device that runs one op at a time: the next op there cannot start before we end
        if (const OpId next = nextOnDevice[d]; next != kNoOp && s.ops[next].start >= sv.end)
            finish = std::min(finish, latest[static_cast<size_t>(next)]);
        nextOnDevice[d] = v;
        latest[static_cast<size_t>(v)] = finish - (sv.end - sv.start);
    }
    return latest;
}

OpDetails::OpDetails(QWidget* parent) : QTextBrowser(parent) {
    setObjectName(QStringLiteral("opDetails"));
    setOpenLinks(false);
    setFrameShape(QFrame::NoFrame);
    connect(this, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        bool ok = false;
        const OpId v = url.path().toInt(&ok);
        if (url.scheme() == QLatin1String("op") && ok) Q_EMIT opActivated(v);
    });
    showOp(kNoOp);
}

void OpDetails::setGraph(std::shared_ptr<const Graph> g, std::vector<std::vector<OpId>> folded) {
    m_graph = std::move(g);
    m_folded = std::move(folded);
    m_record.reset();
    m_latestStart.clear();
    m_critical.clear();
    showOp(kNoOp);
}

void OpDetails::setRecord(const std::optional<RunRecord>& r) {
    m_record = r && r->problem && r->problem->graph == m_graph && r->result ? r : std::nullopt;
    m_latestStart.clear();
    m_critical.clear();
    if (m_record) {
        m_latestStart = latestStarts(*m_record->problem, m_record->schedule());
        m_critical.assign(static_cast<size_t>(m_graph->opCount()), 0);
        for (OpId v : m_record->criticalPath) m_critical[static_cast<size_t>(v)] = 1;
    }
    showOp(m_op);
}

QString OpDetails::opLink(OpId v) const {
    return QStringLiteral("<a href='op:%1'>%2</a>").arg(v).arg(esc(m_graph->op(v).name));
}

QString OpDetails::tensorRows(OpId v) const {
    const Graph& g = *m_graph;
    QString html;
    if (!g.inputs(v).empty()) html += section(tr("Inputs"));
    for (TensorId t : g.inputs(v)) {
        const Tensor& tensor = g.tensor(t);
        html += row(esc(tensor.name), tr("%1 from %2").arg(formatBytes(tensor.bytes), opLink(tensor.producer)));
    }
    if (!g.outputs(v).empty()) html += section(tr("Outputs"));
    for (TensorId t : g.outputs(v)) {
        const Tensor& tensor = g.tensor(t);
        QStringList to;
        for (size_t i = 0; i < tensor.consumers.size() && i < kListLimit; ++i) to << opLink(tensor.consumers[i]);
        if (tensor.consumers.size() > kListLimit)
            to << tr("and %1 more").arg(formatCount(static_cast<long long>(tensor.consumers.size() - kListLimit)));
        html += row(esc(tensor.name),
                    to.isEmpty() ? formatBytes(tensor.bytes)
                                 : tr("%1 to %2").arg(formatBytes(tensor.bytes), to.join(QStringLiteral(", "))));
    }
    const auto& folded = m_folded.empty() ? std::vector<OpId>{} : m_folded[static_cast<size_t>(v)];
    if (!folded.empty()) {
        html += section(tr("Folded parameters (%1)").arg(formatCount(static_cast<long long>(folded.size()))));
        for (size_t i = 0; i < folded.size() && i < kListLimit; ++i)
            html += row(esc(g.op(folded[i]).type),
                        QStringLiteral("%1, %2").arg(opLink(folded[i]), formatBytes(g.outputBytes(folded[i]))));
        if (folded.size() > kListLimit)
            html += row({}, tr("and %1 more").arg(formatCount(static_cast<long long>(folded.size() - kListLimit))));
    }
    return html;
}

QString OpDetails::scheduleRows(OpId v) const {
    if (!m_record) return {};
    const auto& ops = m_record->schedule().ops;
    if (static_cast<size_t>(v) >= ops.size()) return {};
    const TimeUnit unit = m_graph->timeUnit();
    const ScheduledOp& s = ops[static_cast<size_t>(v)];
    const auto& devices = m_record->problem->platform.devices;
    const QString device = s.device >= 0 && static_cast<size_t>(s.device) < devices.size()
        ? esc(devices[static_cast<size_t>(s.device)].name)
        : QString::number(s.device);
    const double slack = std::max(0.0, m_latestStart[static_cast<size_t>(v)] - s.start);
    const bool critical = m_critical[static_cast<size_t>(v)] != 0;
    const auto position = orderPositions(*m_graph, *m_record)[static_cast<size_t>(v)];
    QString html = section(tr("Schedule: %1").arg(m_record->name.toHtmlEscaped()));
    html += row(tr("device"), device);
    html += row(tr("order"), QStringLiteral("#%1").arg(position));
    html += row(tr("start"), formatDuration(s.start, unit));
    html += row(tr("end"), formatDuration(s.end, unit));
    html += row(tr("slack"), formatDuration(slack, unit));
    html += row(tr("critical"),
                critical ? tr("<span style='color:#d62728'><b>yes</b></span>, on the critical path") : tr("no"));
    return html;
}

void OpDetails::showOp(OpId v) {
    m_op = v;
    if (!m_graph || v < 0 || v >= m_graph->opCount()) {
        setHtml(QStringLiteral("<p style='color:#6a7280'>%1</p>").arg(tr("Click an op to see its details.")));
        return;
    }
    const Graph& g = *m_graph;
    const Op& op = g.op(v);
    const OpCategory category = classifyOpType(op.type);
    QString html =
        QStringLiteral(
            "<h3 style='margin:0'>%1</h3><div style='color:#4a525c'>%2</div><table cellspacing=0 cellpadding=1>")
            .arg(op.type.empty() ? tr("(no type)") : esc(op.type), esc(op.name));
    html += row(tr("category"),
                QStringLiteral("<span style='color:%1'>&#9632;</span> %2")
                    .arg(categoryColour(category).name(), QString::fromUtf8(toString(category).data())));
    html += row(tr("duration"),
                QStringLiteral("%1 <span style='color:%2'>&#9632;</span> %3")
                    .arg(formatDuration(op.duration, g.timeUnit()), timeSourceColour(op.timeSource).name(),
                         QString::fromUtf8(toString(op.timeSource).data())));
    html += row(tr("parameters"), formatBytes(op.paramBytes));
    html += row(tr("output"), formatBytes(g.outputBytes(v)));
    if (op.machineType != 0) html += row(tr("machine type"), QString::number(op.machineType));
    if (op.resourceDemand != 1) html += row(tr("resource demand"), QString::number(op.resourceDemand, 'g', 3));
    html += tensorRows(v);
    html += scheduleRows(v);
    html += QStringLiteral("</table>");
    setHtml(html);
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/views/dagview.h"

#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/units.h"
#include "widgets/views/dagitems.h"
#include "widgets/views/dagoverview.h"
#include "widgets/views/opdetails.h"
#include "widgets/views/opselection.h"
#include "widgets/views/palette.h"

#include <QComboBox>
#include <QDropEvent>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QMouseEvent>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QThread>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace sl::gui {
namespace {

const QString kColourKey = QStringLiteral("dag/colourBy");

bool containsNoCase(const std::string& haystack, const std::string& lowerNeedle) {
    auto it = std::search(haystack.begin(), haystack.end(), lowerNeedle.begin(), lowerNeedle.end(),
                          [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
    return it != haystack.end();
}

QString localFileOf(const QMimeData* mime) {
    if (!mime || !mime->hasUrls() || mime->urls().isEmpty() || !mime->urls().first().isLocalFile()) return {};
    return mime->urls().first().toLocalFile();
}

}   // namespace

class DagGraphicsView : public QGraphicsView {
public:
    DagGraphicsView(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent) {
        setDragMode(ScrollHandDrag);
        setTransformationAnchor(AnchorUnderMouse);
        setViewportUpdateMode(SmartViewportUpdate);
        setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
        setBackgroundBrush(QColor(0xfb, 0xfb, 0xfc));
        setRenderHint(QPainter::TextAntialiasing);
        setAcceptDrops(true);
        setFrameShape(QFrame::NoFrame);
    }
    std::function<void(OpId)> clicked;
    std::function<void(OpId)> hovered;
    std::function<OpId(QPointF)> opAt;
    std::function<QString(OpId)> tooltip;
    std::function<void(QString)> dropped;
    double minScale = 0.01;

protected:
    void wheelEvent(QWheelEvent* e) override {
        const double factor = std::pow(1.2, e->angleDelta().y() / 120.0);
        const double current = transform().m11();
        const double target = std::clamp(current * factor, minScale, 6.0);   // clamped zoom
        scale(target / current, target / current);
        e->accept();
    }
    void mousePressEvent(QMouseEvent* e) override {
        m_press = e->position().toPoint();
        QGraphicsView::mousePressEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        QGraphicsView::mouseReleaseEvent(e);
        if ((e->position().toPoint() - m_press).manhattanLength() < 4 && clicked) clicked(hit(e->position().toPoint()));
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        QGraphicsView::mouseMoveEvent(e);
        if (!(e->buttons() & Qt::LeftButton) && hovered) hovered(hit(e->position().toPoint()));
    }
    bool viewportEvent(QEvent* e) override {
        if (e->type() == QEvent::ToolTip && tooltip) {
            auto* help = static_cast<QHelpEvent*>(e);
            const OpId v = hit(help->pos());
            if (v == kNoOp)
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tooltip(v), viewport());
            return true;
        }
        return QGraphicsView::viewportEvent(e);
    }
    // the scene has nothing that takes drops: a dropped file is the window's to open
    void dragEnterEvent(QDragEnterEvent* e) override {
        if (!localFileOf(e->mimeData()).isEmpty()) e->acceptProposedAction();
    }
    void dragMoveEvent(QDragMoveEvent* e) override {
        if (!localFileOf(e->mimeData()).isEmpty()) e->acceptProposedAction();
    }
    void dropEvent(QDropEvent* e) override {
        const QString path = localFileOf(e->mimeData());
        if (path.isEmpty()) return;
        e->acceptProposedAction();
        if (dropped) dropped(path);
    }

private:
    OpId hit(QPoint p) const { return opAt ? opAt(mapToScene(p)) : kNoOp; }
    QPoint m_press;
};

DagView::DagView(QWidget* parent) : QWidget(parent) {
    m_scene = new QGraphicsScene(this);
    m_scene->setItemIndexMethod(QGraphicsScene::NoIndex);   // two items; they index their own contents
    m_view = new DagGraphicsView(m_scene, this);
    m_details = new OpDetails(this);
    m_details->setMinimumWidth(220);
    m_overview = new DagOverview(m_view, this);
    auto* canvas = new QWidget(this);   // the graph, and beside it the strip that finds one's way in it
    auto* canvasRow = new QHBoxLayout(canvas);
    canvasRow->setContentsMargins(0, 0, 0, 0);
    canvasRow->setSpacing(0);
    canvasRow->addWidget(m_view, 1);
    canvasRow->addWidget(m_overview);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(canvas);
    split->addWidget(m_details);
    split->setStretchFactor(0, 1);
    split->setSizes({900, 260});
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("dagLegend"));
    m_legend->setContentsMargins(6, 0, 6, 0);
    m_legend->setFixedHeight(m_legend->fontMetrics().height() +
                             4);   // present even when empty: the canvas does not jump
    buildToolBar();
    auto* column = static_cast<QVBoxLayout*>(QWidget::layout());
    auto* legendRow = new QHBoxLayout;   // the legend, and on the right what the layout wants known
    legendRow->setContentsMargins(0, 0, 4, 0);
    legendRow->addWidget(m_legend, 1);
    legendRow->addWidget(m_notice);
    column->addLayout(legendRow);
    column->addWidget(split, 1);
    connect(m_details, &OpDetails::opActivated, this, [this](OpId v) {
        if (m_selection) m_selection->setCurrent(v);
    });
    m_view->clicked = [this](OpId v) {
        if (m_selection) m_selection->setCurrent(v);
    };
    m_view->hovered = [this](OpId v) {
        if (m_selection) m_selection->setHovered(v);
    };
    m_view->opAt = [this](QPointF p) { return m_nodes ? m_nodes->opAt(p) : kNoOp; };
    m_view->tooltip = [this](OpId v) { return tooltipFor(v); };
    m_view->dropped = [this](const QString& path) { Q_EMIT fileDropped(path); };
    const int saved = QSettings().value(kColourKey, 0).toInt();
    m_colourBy = saved >= 0 && saved <= static_cast<int>(DagColourBy::OpTime) ? static_cast<DagColourBy>(saved)
                                                                              : DagColourBy::Auto;
    m_colourCombo->setCurrentIndex(static_cast<int>(m_colourBy));
    showWelcome();
}

void DagView::buildToolBar() {
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("dagFind"));
    m_search->setPlaceholderText(tr("Find op by name or type"));
    m_search->setClearButtonEnabled(true);
    m_search->setToolTip(tr("Ctrl+F; Enter or F3 finds the next match, Shift+F3 the previous"));
    m_search->setMinimumWidth(200);
    m_search->setMaximumWidth(280);
    m_matchInfo = new QLabel(this);
    m_matchInfo->setObjectName(QStringLiteral("dagFindInfo"));
    auto* fitButton = new QToolButton(this);
    fitButton->setText(tr("Fit"));
    fitButton->setToolTip(tr("Show the whole graph (Ctrl+0)"));
    m_colourCombo = new QComboBox(this);
    m_colourCombo->setObjectName(QStringLiteral("dagColourBy"));
    m_colourCombo->addItems({tr("Colour: automatic"), tr("Colour: op category"), tr("Colour: device"),
                             tr("Colour: order position"), tr("Colour: start time"),
                             tr("Colour: memory (output bytes)"), tr("Colour: time source"), tr("Colour: op time")});
    m_colourCombo->setItemData(
        static_cast<int>(DagColourBy::TimeSource),
        tr("Where each op's time comes from: measured (a profile), estimated (a device's roofline) or given (the file)"),
        Qt::ToolTipRole);
    m_colourCombo->setItemData(static_cast<int>(DagColourBy::OpTime),
                               tr("Each op's duration on a log scale, light (short) to dark (long)"), Qt::ToolTipRole);
    m_colourCombo->setToolTip(tr("What node colours show; automatic: op category, device once a schedule is shown"));
    m_parametersButton = new QToolButton(this);
    m_parametersButton->setText(tr("Show parameters"));
    m_parametersButton->setCheckable(true);
    m_parametersButton->setToolTip(tr("Lay out weights, constants and their broadcasts as nodes of their own; "
                                      "off: they are folded into the ops that use them (+N on the node)"));
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("dagNotice"));
    m_notice->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4d6; color: #5a4500; padding: 0px 8px; border-radius: 3px; }"));
    m_notice->hide();
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_search);
    bar->addWidget(m_matchInfo);
    bar->addWidget(fitButton);
    bar->addWidget(m_colourCombo);
    bar->addWidget(m_parametersButton);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    connect(fitButton, &QToolButton::clicked, this, &DagView::fit);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(false); });
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_matchInfo->clear();
        m_search->setStyleSheet({});
    });
    connect(m_colourCombo, &QComboBox::activated, this, [this](int i) { setColourBy(static_cast<DagColourBy>(i)); });
    connect(m_parametersButton, &QToolButton::toggled, this, &DagView::setShowParameters);
    auto* find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, this, [this] {
        m_search->setFocus(Qt::ShortcutFocusReason);
        m_search->selectAll();
    });
    connect(new QShortcut(QKeySequence::FindNext, this), &QShortcut::activated, this, [this] { findNext(false); });
    connect(new QShortcut(QKeySequence::FindPrevious, this), &QShortcut::activated, this, [this] { findNext(true); });
}

void DagView::showWelcome() {
    auto* text = m_scene->addText(tr("Open a graph: File ▸ Open (Ctrl+O), File ▸ Open Example, or drop a file here"));
    text->setDefaultTextColor(palette().color(QPalette::PlaceholderText));
    m_scene->setSceneRect(text->boundingRect());
}

// no wait for a layout in flight: it owns a reference to its graph and touches nothing of ours
DagView::~DagView() = default;

QWidget* DagView::canvas() const { return m_view->viewport(); }

void DagView::setGraph(std::shared_ptr<const Graph> g) {
    m_graph = std::move(g);
    m_record.reset();
    m_search->clear();   // a find text belongs to the graph it was typed for
    m_matches.clear();
    m_matchText.clear();
    m_details->setGraph(m_graph, {});
    startLayout();
}

void DagView::setTimes(std::shared_ptr<const Graph> g) {
    if (!m_graph || !g || g->opCount() != m_graph->opCount()) return setGraph(std::move(g));
    m_graph = std::move(g);   // a layout in flight lands on it: the same ops
    if (m_nodes) m_nodes->setGraph(m_graph);
    m_details->setGraph(m_graph, m_layout ? m_layout->foldedInto : std::vector<std::vector<OpId>>{});
    m_details->setRecord(m_record);
    m_details->showOp(m_highlighted);
    recolour();
}

void DagView::startLayout() {
    m_scene->clear();                   // the items point into the layout: they go first
    m_overview->setNodes({}, {}, {});   // and so does the strip
    m_nodes = nullptr;
    m_edges = nullptr;
    m_layout.reset();
    m_notice->hide();
    const LatestRequest::Ticket ticket = m_layouts.next();
    if (!m_graph) {
        m_legend->clear();
        showWelcome();
        return;
    }
    m_scene->addText(tr("Laying out %1 op(s)…").arg(formatCount(m_graph->opCount())));
    layoutInBackground(this, m_graph, !m_showParameters,
                       [this, ticket](Outcome<DagLayout> laidOut) { onLayoutFinished(ticket, std::move(laidOut)); });
}

void DagView::setShowParameters(bool on) {
    if (m_parametersButton->isChecked() != on) m_parametersButton->setChecked(on);   // re-enters through toggled
    if (m_showParameters == on) return;
    m_showParameters = on;
    if (m_graph) startLayout();
}

void DagView::onLayoutFinished(LatestRequest::Ticket ticket, Outcome<DagLayout> laidOut) {
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_layouts.isLatest(ticket)) return;
    if (!laidOut.value) {
        m_scene->clear();
        m_notice->setText(tr("The graph could not be laid out: %1").arg(laidOut.error));
        m_notice->show();
        return;
    }
    auto layout = std::make_unique<DagLayout>(std::move(*laidOut.value));   // a move: millions of edges
    if (!m_graph || static_cast<int>(layout->nodes.size()) != m_graph->opCount()) return;
    m_scene->clear();
    m_layout = std::move(layout);
    buildScene();
    Q_EMIT layoutReady(m_layout->seconds);
}

void DagView::buildScene() {
    std::vector<int> counts(m_layout->foldedInto.size());
    for (size_t v = 0; v < counts.size(); ++v) counts[v] = static_cast<int>(m_layout->foldedInto[v].size());
    m_nodes = new DagNodesItem(m_graph, *m_layout, std::move(counts));
    m_nodes->setPins(m_pins);
    m_edges = new DagEdgesItem(*m_layout, m_nodes);
    m_scene->addItem(m_edges);
    m_scene->addItem(m_nodes);
    m_scene->setSceneRect(m_layout->bounds.adjusted(-20, -20, 20, 20));
    m_details->setGraph(m_graph, m_layout->foldedInto);
    const bool foldable = m_showParameters ||
        std::any_of(m_layout->foldedInto.begin(), m_layout->foldedInto.end(), [](const auto& f) { return !f.empty(); });
    m_parametersButton->setEnabled(foldable);   // nothing to show or hide otherwise
    m_details->setRecord(m_record);
    if (!m_layout->notice.isEmpty()) {
        m_notice->setText(m_layout->notice);
        m_notice->show();
    }
    recolour();
    showOpening();
    if (m_selection) onCurrentChanged(m_selection->current());
}

QString DagView::notice() const { return m_notice->isHidden() ? QString() : m_notice->text(); }

void DagView::setRecord(const std::optional<RunRecord>& r) {
    m_record = r;
    m_details->setRecord(r);
    recolour();
}

void DagView::setColourBy(DagColourBy by, bool remember) {
    m_colourBy = by;
    m_colourCombo->setCurrentIndex(static_cast<int>(by));
    if (remember) QSettings().setValue(kColourKey, static_cast<int>(by));
    recolour();
}

void DagView::recolour() {
    if (!m_graph) return;
    const RunRecord* record =
        m_record && m_record->problem && m_record->problem->graph == m_graph && m_record->result ? &*m_record : nullptr;
    m_colouring = colourOps(*m_graph, record, m_colourBy);
    updateLegend();
    if (!m_nodes) return;
    m_nodes->setFills(m_colouring.fill);
    m_overview->setNodes(m_layout->nodes, m_colouring.fill, m_layout->bounds);
    m_nodes->setPositions(record ? orderPositions(*m_graph, *record) : std::vector<int>{});
}

void DagView::updateLegend() {
    QString html;
    if (m_colouring.continuous) {   // a ramp of block characters between the two ends
        html = QStringLiteral("%1:&nbsp;&nbsp;%2&nbsp;")
                   .arg(m_colouring.title.toHtmlEscaped(), m_colouring.low.toHtmlEscaped());
        for (int i = 0; i < 16; ++i)
            html += QStringLiteral("<span style='color:%1'>&#9608;</span>").arg(rampColour(i / 15.0).name());
        html += QStringLiteral("&nbsp;%1").arg(m_colouring.high.toHtmlEscaped());
    } else {
        if (m_colourBy != m_colouring.mode &&
            m_colourBy != DagColourBy::Auto)   // device, order or start without a schedule
            html = tr("<i>no schedule shown, so by op category:</i>&nbsp;&nbsp;");
        for (const auto& [colour, name] : m_colouring.swatches)
            html += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp;&nbsp;")
                        .arg(colour.name(), name.toHtmlEscaped());
    }
    m_legend->setText(html);
}

QString DagView::legendText() const { return m_legend->text(); }

void DagView::setSelection(OpSelection* s) {
    if (m_selection) disconnect(m_selection, nullptr, this, nullptr);
    m_selection = s;
    if (s) connect(s, &OpSelection::currentChanged, this, &DagView::onCurrentChanged);
}

void DagView::onCurrentChanged(OpId v) {
    m_highlighted = v;
    m_details->showOp(v);
    if (!m_nodes || !m_graph) return;
    const bool valid = v >= 0 && v < m_graph->opCount();
    std::vector<OpId> neighbours;
    if (valid) {
        for (OpId u : m_graph->predecessors(v)) neighbours.push_back(u);
        for (OpId u : m_graph->successors(v)) neighbours.push_back(u);
    }
    m_nodes->setSelection(valid ? v : kNoOp, neighbours);
    m_edges->setSelection(valid ? v : kNoOp);
    if (valid && !m_layout->nodes[static_cast<size_t>(v)].isNull())
        m_view->ensureVisible(m_layout->nodes[static_cast<size_t>(v)], 80, 80);
}

void DagView::fit() {
    if (!m_layout) return;
    // as fitInView, with a margin of whole pixels that absorbs the scroll bars' integer rounding
    const QRectF scene = m_layout->bounds.isEmpty() ? m_scene->sceneRect() : m_layout->bounds;
    const QRectF room = QRectF(m_view->viewport()->rect()).adjusted(12, 12, -12, -12);
    const double scale = std::max(
        1e-4, std::min(room.width() / std::max(1.0, scene.width()), room.height() / std::max(1.0, scene.height())));
    m_view->setTransform(QTransform::fromScale(scale, scale));
    m_view->centerOn(scene.center());
    m_view->minScale = std::min(0.01, scale / 2);   // the wheel may go out as far as fit and beyond
}

void DagView::showOpening() {
    fit();
    if (m_view->transform().m11() >= kReadableScale) return;   // the whole graph reads: keep it whole
    m_view->setTransform(QTransform::fromScale(kReadableScale, kReadableScale));
    // the first row at the top, centred, as Netron opens a model at its inputs
    double top = m_layout->bounds.bottom();
    for (const QRectF& r : m_layout->nodes)
        if (!r.isNull()) top = std::min(top, r.top());
    QRectF firstRow;
    for (const QRectF& r : m_layout->nodes)
        if (!r.isNull() && r.top() <= top + 1) firstRow |= r;
    const QRectF shown = m_view->mapToScene(m_view->viewport()->rect()).boundingRect();
    m_view->centerOn(QPointF(firstRow.center().x(), firstRow.top() - 24 + shown.height() / 2));
}

double DagView::scale() const { return m_view->transform().m11(); }

void DagView::zoomBy(double factor) {
    const auto anchor = m_view->transformationAnchor();
    m_view->setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    m_view->scale(factor, factor);
    m_view->setTransformationAnchor(anchor);
}

void DagView::panBy(QPoint delta) {
    m_view->horizontalScrollBar()->setValue(m_view->horizontalScrollBar()->value() + delta.x());
    m_view->verticalScrollBar()->setValue(m_view->verticalScrollBar()->value() + delta.y());
}

void DagView::showMatch(OpId v, bool zoomIn) {
    if (m_selection)
        m_selection->setCurrent(v);
    else
        onCurrentChanged(v);
    if (const double scale = m_view->transform().m11(); zoomIn && scale < 0.8)
        m_view->scale(1 / scale, 1 / scale);   // labels readable
    if (m_layout && !m_layout->nodes[static_cast<size_t>(v)].isNull())
        m_view->centerOn(m_layout->nodes[static_cast<size_t>(v)].center());
}

bool DagView::search(const QString& text, bool zoomIn) {
    if (!m_graph || text.isEmpty()) return false;
    if (const OpId exact = m_graph->findOp(text.toStdString()); exact != kNoOp) {
        showMatch(exact, zoomIn);
        return true;
    }
    m_search->setText(text);
    m_matchText.clear();
    return findNext(false);
}

bool DagView::findNext(bool backwards) {
    const QString text = m_search->text().trimmed();
    if (!m_graph || text.isEmpty()) return false;
    if (text != m_matchText) {   // collect the matches once per text: names and types
        m_matchText = text;
        m_matches.clear();
        m_matchIndex = -1;
        const std::string needle = text.toLower().toStdString();
        for (OpId v = 0; v < m_graph->opCount(); ++v)
            if (containsNoCase(m_graph->op(v).name, needle) || containsNoCase(m_graph->op(v).type, needle))
                m_matches.push_back(v);
    }
    if (m_matches.empty()) {
        m_matchInfo->setText(tr("No match"));
        m_search->setStyleSheet(QStringLiteral("QLineEdit { background: #fde2e1; }"));
        return false;
    }
    const int n = static_cast<int>(m_matches.size());
    m_matchIndex = m_matchIndex < 0 ? (backwards ? n - 1 : 0) : (m_matchIndex + (backwards ? n - 1 : 1)) % n;
    m_matchInfo->setText(tr("%1 of %2").arg(formatCount(m_matchIndex + 1), formatCount(n)));
    m_search->setStyleSheet({});
    showMatch(m_matches[static_cast<size_t>(m_matchIndex)], true);
    return true;
}

QPoint DagView::viewportPosOf(OpId v) const {
    const QRectF r = viewportRectOf(v);
    return r.isNull() ? QPoint() : r.center().toPoint();
}

QRectF DagView::viewportRectOf(OpId v) const {
    if (!m_layout || v < 0 || static_cast<size_t>(v) >= m_layout->nodes.size() ||
        m_layout->nodes[static_cast<size_t>(v)].isNull())
        return {};
    return m_view->viewportTransform().mapRect(m_layout->nodes[static_cast<size_t>(v)]);
}

QStringList DagView::labelLines(OpId v) const {
    return m_nodes && v >= 0 && m_graph && v < m_graph->opCount() ? m_nodes->labelLines(v) : QStringList();
}

QColor DagView::fillOf(OpId v) const {
    return m_nodes && v >= 0 && m_graph && v < m_graph->opCount() ? m_nodes->fillOf(v) : QColor();
}

std::vector<std::pair<OpId, OpId>> DagView::highlightedEdges() const {
    std::vector<std::pair<OpId, OpId>> out;
    if (!m_edges) return out;
    for (int i : m_edges->highlighted()) out.push_back(m_layout->edgeEnds[static_cast<size_t>(i)]);
    return out;
}

std::vector<OpId> DagView::highlightedNeighbours() const {
    std::vector<OpId> out;
    for (OpId v = 0; m_nodes && v < m_graph->opCount(); ++v)
        if (m_nodes->isNeighbour(v)) out.push_back(v);
    return out;
}

QString DagView::tooltipFor(OpId v) const {
    if (!m_graph || v < 0 || v >= m_graph->opCount()) return {};
    const Graph& g = *m_graph;
    const Op& op = g.op(v);
    QString tip =
        QStringLiteral("<b>%1</b> %2<br>%3<br>duration %4<br>output %5<br>parameters %6")
            .arg(QString::fromStdString(op.type).toHtmlEscaped(), QString::fromStdString(op.name).toHtmlEscaped(),
                 QString::fromUtf8(toString(classifyOpType(op.type)).data()), formatDuration(op.duration, g.timeUnit()),
                 formatBytes(g.outputBytes(v)), formatBytes(op.paramBytes));
    if (m_layout && !m_layout->foldedInto[static_cast<size_t>(v)].empty())
        tip += tr("<br>%1 folded op(s): see the details panel")
                   .arg(formatCount(static_cast<long long>(m_layout->foldedInto[static_cast<size_t>(v)].size())));
    if (m_record && m_record->problem->graph == m_graph && static_cast<size_t>(v) < m_record->schedule().ops.size()) {
        const ScheduledOp& s = m_record->schedule().ops[static_cast<size_t>(v)];
        const auto& devices = m_record->problem->platform.devices;
        const QString device = static_cast<size_t>(s.device) < devices.size()
            ? QString::fromStdString(devices[static_cast<size_t>(s.device)].name)
            : QString::number(s.device);
        tip += tr("<br>%1, %2 – %3")
                   .arg(device.toHtmlEscaped(), formatDuration(s.start, g.timeUnit()),
                        formatDuration(s.end, g.timeUnit()));
    }
    return tip;
}

void DagView::observe(const Document* doc) {
    connect(doc, &Document::graphChanged, this, [this, doc] { setGraph(doc->graph()->graph); });
    connect(doc, &Document::shownChanged, this, [this, doc] { setRecord(doc->shown()); });
    connect(doc, &Document::timesChanged, this, [this, doc](bool newGraph) {
        if (newGraph) setTimes(doc->graph()->graph);
    });
    connect(doc, &Document::pinsChanged, this, [this, doc] {
        m_pins = doc->pins();
        if (m_nodes) m_nodes->setPins(m_pins);
    });
}

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#include "widgets/dagview.h"

#include "widgets/dagitems.h"
#include "widgets/opselection.h"
#include "widgets/palette.h"
#include "widgets/resultsmodel.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QThread>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

namespace sl::gui {

class DagGraphicsView : public QGraphicsView {
public:
    DagGraphicsView(QGraphicsScene* scene, QWidget* parent) : QGraphicsView(scene, parent) {
        setDragMode(ScrollHandDrag);
        setTransformationAnchor(AnchorUnderMouse);
        setViewportUpdateMode(SmartViewportUpdate);
        setOptimizationFlags(DontSavePainterState | DontAdjustForAntialiasing);
        setBackgroundBrush(QColor(0xfb, 0xfb, 0xfc));
        setRenderHint(QPainter::TextAntialiasing);
    }
    std::function<void(OpId)> clicked;
    std::function<void(OpId)> hovered;

protected:
    void wheelEvent(QWheelEvent* e) override {
        const double factor = std::pow(1.2, e->angleDelta().y() / 120.0);
        const double current = transform().m11();
        const double target = std::clamp(current * factor, 0.01, 6.0);   // clamped zoom
        scale(target / current, target / current);
        e->accept();
    }
    void mousePressEvent(QMouseEvent* e) override {
        m_press = e->position().toPoint();
        QGraphicsView::mousePressEvent(e);
    }
    void mouseReleaseEvent(QMouseEvent* e) override {
        QGraphicsView::mouseReleaseEvent(e);
        if ((e->position().toPoint() - m_press).manhattanLength() < 4 && clicked) clicked(opAt(e->position().toPoint()));
    }
    void mouseMoveEvent(QMouseEvent* e) override {
        QGraphicsView::mouseMoveEvent(e);
        if (!(e->buttons() & Qt::LeftButton) && hovered) hovered(opAt(e->position().toPoint()));
    }

private:
    OpId opAt(QPoint p) const {
        for (QGraphicsItem* it : items(p))
            if (auto* n = qgraphicsitem_cast<DagNodeItem*>(it)) return n->op();
        return kNoOp;
    }
    QPoint m_press;
};

DagView::DagView(QWidget* parent) : QWidget(parent) {
    m_scene = new QGraphicsScene(this);
    m_view = new DagGraphicsView(m_scene, this);
    m_notice = new QLabel(this);
    m_notice->setObjectName(QStringLiteral("dagNotice"));
    m_notice->setStyleSheet(QStringLiteral("QLabel { background: #fff4d6; color: #5a4500; padding: 3px 8px; border-radius: 3px; }"));
    m_notice->hide();
    m_legend = new QLabel(this);
    m_legend->setObjectName(QStringLiteral("dagLegend"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Find op by name…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(260);
    auto* fitButton = new QToolButton(this);
    fitButton->setText(tr("Fit"));
    fitButton->setToolTip(tr("Show the whole graph (Ctrl+0)"));
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 4, 4, 0);
    bar->addWidget(m_search);
    bar->addWidget(fitButton);
    bar->addWidget(m_notice);
    bar->addStretch(1);
    bar->addWidget(m_legend);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    connect(fitButton, &QToolButton::clicked, this, &DagView::fit);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(m_search->text()); });
    connect(&m_watcher, &QFutureWatcher<DagLayout>::finished, this, &DagView::onLayoutFinished);
    m_view->clicked = [this](OpId v) { if (m_selection) m_selection->setCurrent(v); };
    m_view->hovered = [this](OpId v) { if (m_selection) m_selection->setHovered(v); };
    showWelcome();
}

void DagView::showWelcome() {
    auto* text = m_scene->addText(tr("Open a graph: File ▸ Open (Ctrl+O), File ▸ Open Example, or drop a file here"));
    text->setDefaultTextColor(palette().color(QPalette::PlaceholderText));
    m_scene->setSceneRect(text->boundingRect());
}

// no wait for a layout in flight: it owns a reference to its graph and touches nothing of ours
DagView::~DagView() = default;

QWidget* DagView::canvas() const {
    return m_view->viewport();
}

void DagView::setGraph(std::shared_ptr<const Graph> g) {
    m_graph = std::move(g);
    m_layout.reset();
    m_items.clear();
    m_scene->clear();
    m_notice->hide();
    if (!m_graph) {
        showWelcome();
        return;
    }
    ++m_generation;
    m_scene->addText(tr("Laying out %n op(s)…", nullptr, m_graph->opCount()));
    m_watcher.setProperty("generation", m_generation);
    m_watcher.setFuture(layoutAsync(m_graph));
}

void DagView::onLayoutFinished() {
    Q_ASSERT(QThread::currentThread() == thread());
    // only the latest request lands (a newer graph may have been opened meanwhile)
    if (m_watcher.property("generation").toInt() != m_generation || m_watcher.future().resultCount() == 0) return;
    m_layout = std::make_unique<DagLayout>(m_watcher.result());
    if (static_cast<int>(m_layout->nodes.size()) != m_graph->opCount()) return;
    buildScene();
    Q_EMIT layoutReady(m_layout->seconds);
}

void DagView::buildScene() {
    m_scene->clear();
    m_items.clear();
    m_scene->setItemIndexMethod(QGraphicsScene::BspTreeIndex);
    m_scene->addItem(new DagEdgesItem(m_layout->edges, m_layout->bounds));
    const Graph& g = *m_graph;
    m_items.reserve(static_cast<size_t>(g.opCount()));
    for (OpId v = 0; v < g.opCount(); ++v) {
        const Op& op = g.op(v);
        const QString tip = tr("<b>%1</b><br>type %2<br>duration %3<br>outputs %4<br>params %5")
                                .arg(QString::fromStdString(op.name).toHtmlEscaped(), QString::fromStdString(op.type).toHtmlEscaped(),
                                     formatNumber(op.duration), formatBytes(g.outputBytes(v)), formatBytes(op.paramBytes));
        auto* item = new DagNodeItem(v, m_layout->nodes[static_cast<size_t>(v)], QString::fromStdString(op.name), tip);
        m_scene->addItem(item);
        m_items.push_back(item);
    }
    m_scene->setSceneRect(m_layout->bounds.adjusted(-20, -20, 20, 20));
    if (!m_layout->notice.isEmpty()) {
        m_notice->setText(m_layout->notice);
        m_notice->show();
    }
    recolour();
    if (m_selection) onCurrentChanged(m_selection->current());
    fit();
}

QString DagView::notice() const {
    return m_notice->isVisible() || !m_notice->isHidden() ? m_notice->text() : QString();
}

void DagView::setRecord(const std::optional<RunRecord>& r) {
    m_record = r;
    recolour();
}

void DagView::recolour() {
    const bool has = m_record && m_record->problem->graph == m_graph;
    QString legend;
    if (has) {   // the device colours, as in the Gantt lanes
        const auto& devices = m_record->problem->platform.devices;
        for (size_t d = 0; d < devices.size() && d < 12; ++d)
            legend += QStringLiteral("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp;")
                          .arg(palette::category(static_cast<int>(d)).name(), QString::fromStdString(devices[d].name).toHtmlEscaped());
        if (devices.size() > 12) legend += QStringLiteral("…");
    }
    m_legend->setText(legend);
    if (m_items.empty()) return;
    std::vector<int> position;
    if (has) {
        position.assign(m_items.size(), -1);
        const auto& order = m_record->schedule().order;
        for (size_t i = 0; i < order.size(); ++i)
            if (order[i] >= 0 && static_cast<size_t>(order[i]) < position.size()) position[static_cast<size_t>(order[i])] = static_cast<int>(i);
    }
    for (auto* item : m_items) {
        const auto v = static_cast<size_t>(item->op());
        if (has && v < m_record->schedule().ops.size())
            item->setFill(palette::category(m_record->schedule().ops[v].device), QStringLiteral("#%1").arg(position[v]));
        else
            item->setFill(QColor(0xe3, 0xe8, 0xef), {});
    }
}

void DagView::setSelection(OpSelection* s) {
    if (m_selection) disconnect(m_selection, nullptr, this, nullptr);
    m_selection = s;
    if (s) connect(s, &OpSelection::currentChanged, this, &DagView::onCurrentChanged);
}

void DagView::onCurrentChanged(OpId v) {
    m_highlighted = v;
    for (auto* item : m_items) item->setHighlighted(item->op() == v);
    if (v >= 0 && static_cast<size_t>(v) < m_items.size()) m_view->ensureVisible(m_items[static_cast<size_t>(v)], 80, 80);
}

void DagView::fit() {
    if (!m_layout) return;
    m_view->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio);
    // a small graph fitted whole with unreadable names: keep them legible, start at the top; a big
    // one is better seen whole (coloured blocks), search and zoom find the details
    if (m_view->transform().m11() < 0.6 && m_items.size() <= 600) {
        const double s = 0.6 / m_view->transform().m11();
        m_view->scale(s, s);
        m_view->centerOn(m_scene->sceneRect().center().x(), m_scene->sceneRect().top());
    }
}

bool DagView::search(const QString& text) {
    if (!m_graph || text.isEmpty()) return false;
    for (OpId v = 0; v < m_graph->opCount(); ++v)
        if (QString::fromStdString(m_graph->op(v).name).contains(text, Qt::CaseInsensitive)) {
            if (m_selection) m_selection->setCurrent(v);
            if (static_cast<size_t>(v) < m_items.size()) m_view->centerOn(m_items[static_cast<size_t>(v)]);
            return true;
        }
    return false;
}

QPoint DagView::viewportPosOf(OpId v) const {
    if (v < 0 || static_cast<size_t>(v) >= m_items.size()) return {};
    return m_view->mapFromScene(m_items[static_cast<size_t>(v)]->boundingRect().center());
}

} // namespace sl::gui

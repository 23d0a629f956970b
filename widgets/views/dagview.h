// SPDX-License-Identifier: MIT
#pragma once
// The DAG: layout from the layout thread (plain data) drawn by two scene items (all nodes, all
// edges). Nodes show the op type (and the name when zoomed in), coloured by op category, device,
// order, start time, output bytes, where the op's time comes from or the time itself; weights and constants folded into their consumers unless
// "Show parameters" is on; a details panel for the selected op; the selection's edges and
// neighbours highlighted; zoom (wheel, under the mouse), pan (drag), fit, find (Ctrl+F, F3);
// a file dropped on the view is handed on to be opened.
#include "widgets/session/latestrequest.h"
#include "widgets/session/types.h"
#include "widgets/views/dagcolouring.h"
#include "widgets/views/daglayout.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QComboBox;
class QGraphicsScene;
class QLabel;
class QLineEdit;
class QToolButton;

namespace sl::gui {

class Document;

class OpSelection;
class OpDetails;
class DagGraphicsView;
class DagOverview;
class DagNodesItem;
class DagEdgesItem;

class DagView : public QWidget {
    Q_OBJECT
public:
    explicit DagView(QWidget* parent = nullptr);
    ~DagView() override;
    void setGraph(std::shared_ptr<const Graph> g);
    /// `g` has the shown graph's ops and edges with other times: no new layout, the colours and
    /// details follow its times.
    void setTimes(std::shared_ptr<const Graph> g);
    void setRecord(const std::optional<RunRecord>& r);
    /// Shows `doc`'s open graph and the schedule on show, following their changes.
    void observe(const Document* doc);
    void setSelection(OpSelection* s);
    bool hasLayout() const { return m_layout != nullptr; }
    const DagLayout* layout() const { return m_layout.get(); }
    QString notice() const;
    /// Shows every node (Ctrl+0).
    void fit();
    /// How a graph opens: whole if its labels read at that zoom, else at kReadableScale with its
    /// first row (the sources) at the top.
    void showOpening();
    /// The zoom at which the smallest label font is at least 9 px tall (6.5 pt at 96 dpi is 8.7 px).
    static constexpr double kReadableScale = 1.1;
    double scale() const;   ///< the view's zoom (1: a scene point is a pixel)
    DagOverview* overview() const { return m_overview; }
    /// Selects the first op whose name is `text`, else whose name or type contains it
    /// (case-insensitive); false if none. `zoomIn`: zoom in to readable labels if zoomed out.
    bool search(const QString& text, bool zoomIn = false);
    /// The next (or previous) op matching the find box, wrapping, zoomed in to readable labels;
    /// false when nothing matches.
    bool findNext(bool backwards = false);
    QLineEdit* findBox() const { return m_search; }
    QWidget* canvas() const;
    /// The op drawn highlighted (the shared selection), or kNoOp.
    OpId highlighted() const { return m_highlighted; }
    /// Scene position of op `v`'s node centre mapped to viewport pixels.
    QPoint viewportPosOf(OpId v) const;
    /// Op `v`'s node in viewport pixels (null when it is folded or not laid out).
    QRectF viewportRectOf(OpId v) const;
    /// The text lines op `v`'s node paints (type, then name): see DagNodesItem::labelLines.
    QStringList labelLines(OpId v) const;
    /// The fill op `v`'s node is painted with.
    QColor fillOf(OpId v) const;
    /// The op-to-op edges drawn highlighted (the selection's in- and out-edges).
    std::vector<std::pair<OpId, OpId>> highlightedEdges() const;
    /// The ops drawn as the selection's neighbours, in increasing OpId.
    std::vector<OpId> highlightedNeighbours() const;

    /// What node colours show; `remember` saves it for later launches (the combo does, a
    /// command-line flag does not).
    void setColourBy(DagColourBy by, bool remember = true);
    DagColourBy colourBy() const { return m_colourBy; }
    /// What the colours show now (Auto resolved).
    DagColourBy shownColouring() const { return m_colouring.mode; }
    QString legendText() const;
    /// Lays folded parameters out as nodes of their own (re-lays the graph out).
    void setShowParameters(bool on);
    bool showParameters() const { return m_showParameters; }
    OpDetails* details() const { return m_details; }

    /// Zoom by `factor` about the view's centre, and pan by `delta` viewport pixels (benchmarks).
    void zoomBy(double factor);
    void panBy(QPoint delta);

Q_SIGNALS:
    void layoutReady(double seconds);
    /// A local file was dropped on the graph view.
    void fileDropped(const QString& path);

private:
    void buildToolBar();
    void startLayout();
    void onLayoutFinished(LatestRequest::Ticket ticket, Outcome<DagLayout> outcome);
    void buildScene();
    void recolour();
    void updateLegend();
    void onCurrentChanged(OpId v);
    void showWelcome();
    void showMatch(OpId v, bool zoomIn);
    QString tooltipFor(OpId v) const;

    std::shared_ptr<const Graph> m_graph;
    std::optional<RunRecord> m_record;
    QPointer<OpSelection> m_selection;
    LatestRequest m_layouts;   // only the newest layout lands (a newer graph may have been opened)
    std::unique_ptr<DagLayout> m_layout;
    QGraphicsScene* m_scene;
    DagOverview* m_overview;
    DagGraphicsView* m_view;
    OpDetails* m_details;
    QLabel* m_notice;
    QLabel* m_legend;
    QLineEdit* m_search;
    QLabel* m_matchInfo;
    QComboBox* m_colourCombo;
    QToolButton* m_parametersButton;
    DagNodesItem* m_nodes = nullptr;
    Pins m_pins;   // the document's, marked on the nodes
    DagEdgesItem* m_edges = nullptr;
    DagColourBy m_colourBy = DagColourBy::Auto;
    DagColouring m_colouring;
    bool m_showParameters = false;
    OpId m_highlighted = kNoOp;
    QString m_matchText;   // the find text m_matches were collected for
    std::vector<OpId> m_matches;
    int m_matchIndex = -1;
};

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// The DAG: layout from the layout thread (plain data) turned into scene items here. Ops coloured by
// device and labelled with their position in the order; zoom (wheel, under the mouse), pan (drag),
// fit, search by name; a level of detail that drops text and arrows when zoomed out.
#include "widgets/daglayout.h"
#include "widgets/types.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QWidget>

#include <optional>

class QGraphicsScene;
class QLabel;
class QLineEdit;

namespace sl::gui {

class OpSelection;
class DagGraphicsView;
class DagNodeItem;

class DagView : public QWidget {
    Q_OBJECT
public:
    explicit DagView(QWidget* parent = nullptr);
    ~DagView() override;
    void setGraph(std::shared_ptr<const Graph> g);
    void setRecord(const std::optional<RunRecord>& r);
    void setSelection(OpSelection* s);
    bool hasLayout() const { return m_layout != nullptr; }
    const DagLayout* layout() const { return m_layout.get(); }
    QString notice() const;
    void fit();
    /// Selects the first op whose name contains `text` (case-insensitive); false if none.
    bool search(const QString& text);
    QWidget* canvas() const;
    /// The op drawn highlighted (the shared selection), or kNoOp.
    OpId highlighted() const { return m_highlighted; }
    /// Scene position of op `v`'s node centre mapped to viewport pixels.
    QPoint viewportPosOf(OpId v) const;

Q_SIGNALS:
    void layoutReady(double seconds);

private:
    void onLayoutFinished();
    void buildScene();
    void recolour();
    void onCurrentChanged(OpId v);
    void showWelcome();

    std::shared_ptr<const Graph> m_graph;
    std::optional<RunRecord> m_record;
    QPointer<OpSelection> m_selection;
    QFutureWatcher<DagLayout> m_watcher;
    int m_generation = 0;
    std::unique_ptr<DagLayout> m_layout;
    QGraphicsScene* m_scene;
    DagGraphicsView* m_view;
    QLabel* m_notice;
    QLabel* m_legend;
    QLineEdit* m_search;
    std::vector<DagNodeItem*> m_items;
    OpId m_highlighted = kNoOp;
};

} // namespace sl::gui

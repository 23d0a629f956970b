// SPDX-License-Identifier: MIT
// The graph view as a reader meets it: op types on the nodes, colours by category, weights folded
// (the SSD-MobileNet HLO module stays narrow), Fit shows every node, a dropped file opens, find
// with wrap-around, the selection's edges and neighbours highlighted, the details panel with the
// schedule's slack, colours by where op times come from and by op time (log scale).
#include "common/testmain.h"
#include "core/generators/generators.h"
#include "core/graph/opcategory.h"
#include "core/io/graphio.h"
#include "core/optimizer/optimizer.h"
#include "widgets/mainwindow/mainwindow.h"
#include "widgets/panels/runpanel.h"
#include "widgets/panels/temperaturepanel.h"
#include "widgets/session/document.h"
#include "widgets/session/graphloader.h"
#include "widgets/session/runjob.h"
#include "widgets/views/dagcolouring.h"
#include "widgets/views/dagitems.h"
#include "widgets/views/daglayout.h"
#include "widgets/views/dagoverview.h"
#include "widgets/views/dagview.h"
#include "widgets/views/ganttview.h"
#include "widgets/views/opdetails.h"
#include "widgets/views/opselection.h"
#include "widgets/views/palette.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <QElapsedTimer>
#include <QTimer>
#include <QToolTip>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

using namespace sl;
using namespace sl::gui;

namespace {

const QString kResnet = QStringLiteral(SCHEDLAB_TEST_DATA "/onnx/light_resnet50.onnx");
const QString kSsd = QStringLiteral(SCHEDLAB_TEST_DATA "/hlo/ssd_mobilenet_tf.hlo");
// the widest rank SSD-MobileNet may have with its parameters folded (measured with dot: 4; unfolded
// 6, and 124 on the top row of the longest-path layering the view used before)
constexpr int kSsdFoldedWidestRank = 4;

// a -> c, b -> c, c -> d, c -> e, d -> f: c has two producers and two consumers
std::shared_ptr<Graph> diamond() {
    auto g = std::make_shared<Graph>();
    const OpId a = g->addOp({.name = "a", .type = "Conv", .duration = 1});
    const OpId b = g->addOp({.name = "b", .type = "MatMul", .duration = 1});
    const OpId c = g->addOp({.name = "c", .type = "Add", .duration = 1});
    const OpId d = g->addOp({.name = "d", .type = "Relu", .duration = 1});
    const OpId e = g->addOp({.name = "e", .type = "Reshape", .duration = 1});
    const OpId f = g->addOp({.name = "f", .type = "MaxPool", .duration = 1});
    g->addEdge(a, c, 4);
    g->addEdge(b, c, 4);
    g->addEdge(c, d, 4);
    g->addEdge(c, e, 4);
    g->addEdge(d, f, 4);
    g->finalize();
    return g;
}

// crossings among edges between adjacent rows of a layered layout, counted pair by pair
long long adjacentRowCrossings(const DagLayout& l) {
    std::map<std::pair<long long, long long>, std::vector<std::pair<double, double>>> byRows;
    for (auto [a, b] : l.edgeEnds) {
        const QRectF ra = l.nodes[static_cast<size_t>(a)], rb = l.nodes[static_cast<size_t>(b)];
        byRows[{std::llround(ra.top()), std::llround(rb.top())}].emplace_back(ra.center().x(), rb.center().x());
    }
    long long crossings = 0;
    for (const auto& [rows, edges] : byRows)
        for (size_t i = 0; i < edges.size(); ++i)
            for (size_t j = i + 1; j < edges.size(); ++j)
                crossings += (edges[i].first - edges[j].first) * (edges[i].second - edges[j].second) < 0;
    return crossings;
}

RunRecord runToEnd(MainWindow& w, const QString& method) {
    w.runPanel()->setMethod(method);
    QSignalSpy finished(&w, &MainWindow::runFinished);
    if (!w.startRun() || !finished.wait(60000)) return {};
    return finished.takeFirst().at(0).value<RunRecord>();
}

/// A graph as tall and narrow as a 910-op DenseNet: a chain of convolutions and concatenations,
/// each also fed by the op two before (the dense block's skips), written to `path` as JSON.
void writeTallGraph(const QString& path, int ops) {
    Graph g;
    for (int i = 0; i < ops; ++i) {
        g.addOp({.name = "n" + std::to_string(i), .type = i % 2 ? "Concat" : "Conv", .duration = 1});
        if (i >= 1) g.addEdge(i - 1, i, 64);
        if (i >= 2) g.addEdge(i - 2, i, 64);
    }
    g.finalize();
    saveGraphJson(g, nullptr, path.toStdString());
}

bool openAndLayOut(MainWindow& w, const QString& path) {
    if (!w.openFile(path)) return false;
    return QTest::qWaitFor([&] { return w.dagView()->hasLayout(); }, 30000);
}

} // namespace

class TestDagView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName(QStringLiteral("SchedLabTest"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_dagview"));
        QSettings().clear();
        registerCoreOptimizers();
    }

    // A real model opens as a reader wants it (as `schedlab resources/examples/resnet50.onnx`
    // does): zoomed so the smallest label font is at least 9 px, the inputs at the top, their op
    // types painted; no schedule in any view and colours by op category, although the Temperature
    // dock has sampled it meanwhile. Mutations caught: opening fitted (27 x 8 px boxes, no labels),
    // labels not painted at the opening zoom, the dock's sample drawn over the graph, device colours.
    void aRealModelOpensReadableAndUnscheduled() {
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(openAndLayOut(w, QStringLiteral(SCHEDLAB_TEST_DATA "/../../resources/examples/resnet50.onnx")));
        QTRY_VERIFY_WITH_TIMEOUT(w.temperaturePanel()->current().has_value(), 30000);   // the dock's sample landed
        DagView* dag = w.dagView();
        const double smallestLabelPx = 6.5 / 72.0 * dag->canvas()->logicalDpiY() * dag->scale();
        QVERIFY2(smallestLabelPx >= 9.0, qPrintable(QString::number(smallestLabelPx)));
        const Graph& g = *w.openGraph()->graph;
        const OpId input = 0;   // ResNet-50's stem convolution: the first row
        QCOMPARE(QString::fromStdString(g.op(input).type), QStringLiteral("Conv"));
        QCOMPARE(dag->labelLines(input).value(0), QStringLiteral("Conv"));
        const QRectF box = dag->viewportRectOf(input);
        QVERIFY2(QRectF(dag->canvas()->rect()).contains(box) && box.top() < 80, "the inputs open at the top");
        // the label is painted: the node's text colour covers part of its box (pixels, not state)
        const QImage shot = dag->canvas()->grab().toImage();
        const QColor text = palette::textOn(dag->fillOf(input));
        int textPixels = 0;
        for (int y = static_cast<int>(box.top()) + 3; y < static_cast<int>(box.bottom()) - 3; ++y)
            for (int x = static_cast<int>(box.left()) + 6; x < static_cast<int>(box.right()) - 6; ++x) {
                const QColor c = shot.pixelColor(x * shot.width() / dag->canvas()->width(), y * shot.height() / dag->canvas()->height());
                textPixels += std::abs(c.lightness() - text.lightness()) < 40;
            }
        QVERIFY2(textPixels > 40, qPrintable(QString::number(textPixels)));
        // nothing scheduled: no record in the views, the colours and legend by op category
        QVERIFY(!w.ganttView()->record());
        QVERIFY(!w.document()->shown());
        QCOMPARE(dag->shownColouring(), DagColourBy::Category);
        QVERIFY2(!dag->legendText().contains(QStringLiteral("dev0")), qPrintable(dag->legendText()));
        QCOMPARE(dag->fillOf(input), categoryColour(OpCategory::Convolution));
        // a tall graph gets its overview strip; Fit shows all of it and the strip goes
        QVERIFY(dag->overview()->isVisible());
        dag->fit();
        QTRY_VERIFY(!dag->overview()->isVisible());
    }

    // catches: nodes labelled by name (n12) or the badge lost after a run
    void resnetNodesShowTheirOpType() {
        MainWindow w;
        QVERIFY(openAndLayOut(w, kResnet));
        const Graph& g = *w.openGraph()->graph;
        int convs = 0;
        for (OpId v = 0; v < g.opCount(); ++v) {
            const QStringList lines = w.dagView()->labelLines(v);
            QVERIFY(!lines.isEmpty());
            convs += lines.first() == QLatin1String("Conv");
            if (lines.first() == QLatin1String("Conv")) QCOMPARE(lines.value(1), QString::fromStdString(g.op(v).name));   // name second
        }
        QCOMPARE(convs, 53);   // ResNet-50: 49 convolutions in the blocks, the stem, 3 downsample... 53 in all
        // before a run the colours are op categories: a Conv node is the convolution colour
        const OpId conv = [&] { for (OpId v = 0; v < g.opCount(); ++v) if (g.op(v).type == "Conv") return v; return kNoOp; }();
        QCOMPARE(w.dagView()->fillOf(conv), categoryColour(OpCategory::Convolution));
        QVERIFY(w.dagView()->legendText().contains(QStringLiteral("convolution")));
        // hover: the full text, durations in the graph's unit (ONNX: microseconds), bytes readable
        w.resize(1300, 850);
        w.show();
        w.dagView()->search(QString::fromStdString(g.op(conv).name), true);
        const QPoint hover = w.dagView()->viewportPosOf(conv);
        QHelpEvent help(QEvent::ToolTip, hover, w.dagView()->canvas()->mapToGlobal(hover));
        QApplication::sendEvent(w.dagView()->canvas(), &help);
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(QStringLiteral("Conv")) && tip.contains(QString::fromStdString(g.op(conv).name)), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral(" µs")) || tip.contains(QStringLiteral(" ms")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("KiB")) || tip.contains(QStringLiteral("MiB")), qPrintable(tip));
        const RunRecord r = runToEnd(w, QStringLiteral("list-cp"));
        QVERIFY(r.result);
        QTRY_VERIFY(w.dagView()->labelLines(conv).first().startsWith(QLatin1Char('#')));
        const auto& order = r.schedule().order;
        const auto at = std::find(order.begin(), order.end(), conv) - order.begin();
        QCOMPARE(w.dagView()->labelLines(conv).first(), QStringLiteral("#%1 Conv").arg(at));
        QCOMPARE(w.dagView()->shownColouring(), DagColourBy::Device);   // automatic: device once a schedule is shown
    }

    // catches: no folding, or a rule that folds everything/nothing
    void ssdMobilenetFoldedIsNarrow() {
        const LoadedGraph ssd = loadGraph(kSsd.toStdString());
        const DagLayout folded = layoutGraph(*ssd.graph, true);
        const DagLayout all = layoutGraph(*ssd.graph, false);
        qInfo("widest rank folded %d (dot %d, %d shown), unfolded %d (dot %d)", folded.widestRank(), folded.usedGraphviz, folded.shownCount(),
              all.widestRank(), all.usedGraphviz);
        QVERIFY2(folded.widestRank() <= kSsdFoldedWidestRank, qPrintable(QString::number(folded.widestRank())));
        QVERIFY2(all.widestRank() > kSsdFoldedWidestRank, qPrintable(QString::number(all.widestRank())));
        QCOMPARE(all.shownCount(), ssd.graph->opCount());
        QVERIFY(folded.shownCount() < ssd.graph->opCount() - 100);
        // a folded op's consumer lists it
        int listed = 0;
        for (const auto& into : folded.foldedInto) listed += static_cast<int>(into.size());
        QVERIFY(listed >= ssd.graph->opCount() - folded.shownCount());
        for (OpId v = 0; v < ssd.graph->opCount(); ++v)
            if (folded.folded[static_cast<size_t>(v)]) QVERIFY(folded.nodes[static_cast<size_t>(v)].isNull());
    }

    // catches: the barycentre sweeps dropped (rows left in topological order), or sweeps that leave
    // a graph with more crossings than they found
    void layeredLayoutReducesCrossings() {
        for (const char* f : {"layered", "erdos-renyi", "barabasi-albert", "watts-strogatz"}) {   // never worse
            const auto h = generateInstance(f, 1500, 2).graph;
            const long long unsorted = adjacentRowCrossings(layoutLayered(*h, {}, 0)), swept = adjacentRowCrossings(layoutLayered(*h));
            QVERIFY2(swept <= unsorted, qPrintable(QStringLiteral("%1: %2 -> %3").arg(QLatin1String(f)).arg(unsorted).arg(swept)));
        }
        const auto g = generateInstance("sbm", 1500, 2).graph;   // communities: the sweeps untangle most crossings
        const long long before = adjacentRowCrossings(layoutLayered(*g, {}, 0));
        const long long after = adjacentRowCrossings(layoutLayered(*g));
        qInfo("crossings between adjacent rows: %lld unsorted, %lld after the sweeps", before, after);
        QVERIFY2(after * 2 < before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(after)));
    }

    void showParametersLaysThemOut() {
        MainWindow w;
        QVERIFY(openAndLayOut(w, kSsd));
        QVERIFY(w.dagView()->layout()->shownCount() < 230);   // folded by default
        w.dagView()->setShowParameters(true);
        QTRY_VERIFY_WITH_TIMEOUT(w.dagView()->hasLayout(), 30000);
        QCOMPARE(w.dagView()->layout()->shownCount(), 330);
    }

    // catches: the old clamp that kept small graphs at zoom 0.6 (about 20 ResNet nodes visible)
    void fitShowsEveryNode() {
        MainWindow w;
        w.resize(1300, 850);
        w.show();
        QVERIFY(openAndLayOut(w, kResnet));
        w.dagView()->zoomBy(4);
        w.dagView()->fit();
        const QRectF viewport = QRectF(w.dagView()->canvas()->rect());
        const Graph& g = *w.openGraph()->graph;
        int shown = 0;
        for (OpId v = 0; v < g.opCount(); ++v) {
            const QRectF r = w.dagView()->viewportRectOf(v);
            if (r.isNull()) continue;
            ++shown;
            QVERIFY2(viewport.contains(r), qPrintable(QStringLiteral("op %1 at %2,%3 %4x%5 outside %6x%7")
                                                          .arg(v).arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()).arg(viewport.width()).arg(viewport.height())));
        }
        QVERIFY(shown > 100);
    }

    // A very tall graph's overview strip stays wide enough to see and click: the strip and the
    // miniature painted in it are at least DagOverview::kMinMiniatureWidth px wide, and a click
    // in it still moves the view there. Mutation caught: one scale across and down (the issue:
    // a 910-op DenseNet's miniature a line 3 px wide).
    void aTallGraphsOverviewKeepsItsWidth() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("tall.json"));
        writeTallGraph(path, 910);
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QVERIFY(openAndLayOut(w, path));
        DagOverview* strip = w.dagView()->overview();
        QTRY_VERIFY(strip->isVisible());
        const QRectF bounds = w.dagView()->layout()->bounds;
        QVERIFY2(bounds.height() > 30 * bounds.width(), "the graph must be tall: else nothing is tested");
        QVERIFY(strip->width() >= DagOverview::kMinMiniatureWidth);
        QVERIFY2(strip->miniature().width() >= DagOverview::kMinMiniatureWidth,
                 qPrintable(QString::number(strip->miniature().width())));
        // painted: a row of the miniature below the frame is covered that wide by nodes
        const QImage img = strip->grab().toImage();
        const double dpr = img.width() / static_cast<double>(strip->width());
        const QRgb background = img.pixel(0, img.height() - 1);
        const int y = static_cast<int>((strip->frame().bottom() + strip->miniature().bottom()) / 2 * dpr);
        int left = img.width(), right = -1;
        for (int x = 0; x < img.width(); ++x)
            if (img.pixel(x, y) != background) left = std::min(left, x), right = std::max(right, x);
        QVERIFY2(right - left + 1 >= (DagOverview::kMinMiniatureWidth - 2) * dpr,
                 qPrintable(QStringLiteral("%1..%2").arg(left).arg(right)));
        // a click near the bottom of the strip brings the last ops into view
        const QPointF bottom(strip->miniature().center().x(), strip->miniature().bottom() - 2);
        QTest::mouseClick(strip, Qt::LeftButton, {}, bottom.toPoint());
        QTRY_VERIFY(QRectF(w.dagView()->canvas()->rect()).intersects(w.dagView()->viewportRectOf(909)));
    }

    // catches: the graphics view's viewport swallowing drops
    void dropOnTheGraphViewOpensTheFile() {
        MainWindow w;
        w.show();
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(QFileInfo(kResnet).absoluteFilePath())});
        QWidget* canvas = w.dagView()->canvas();
        QDragEnterEvent enter(QPoint(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy loaded(&w, &MainWindow::documentLoaded);
        QDropEvent drop(QPointF(40, 40), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(loaded.count() == 1 || loaded.wait(10000));
        QVERIFY(w.openGraph());
        QCOMPARE(w.openGraph()->graph->opCount(), 176);
    }

    // catches: no highlight, only out-edges, or neighbours not marked
    void selectionHighlightsEdgesAndNeighbours() {
        DagView view;
        OpSelection selection;
        view.setSelection(&selection);
        view.setGraph(diamond());
        QTRY_VERIFY_WITH_TIMEOUT(view.hasLayout(), 30000);
        QVERIFY(view.highlightedEdges().empty());
        selection.setCurrent(2);   // c
        auto edges = view.highlightedEdges();
        std::sort(edges.begin(), edges.end());
        using E = std::pair<OpId, OpId>;
        QCOMPARE(edges, (std::vector<E>{{0, 2}, {1, 2}, {2, 3}, {2, 4}}));
        QCOMPARE(view.highlightedNeighbours(), (std::vector<OpId>{0, 1, 3, 4}));   // not f, not c itself
        selection.setCurrent(5);
        QCOMPARE(view.highlightedEdges(), (std::vector<E>{{3, 5}}));
        QCOMPARE(view.highlightedNeighbours(), (std::vector<OpId>{3}));
        selection.setCurrent(kNoOp);
        QVERIFY(view.highlightedEdges().empty());
    }

    // catches: find matching names only, no wrap, Shift+F3 going forward, the text kept across graphs
    void findWrapsAndClearsOnANewGraph() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QApplication::setActiveWindow(&w);
        QVERIFY(openAndLayOut(w, kResnet));
        QLineEdit* box = w.dagView()->findBox();
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QTRY_VERIFY(box->hasFocus());
        const Graph& g = *w.openGraph()->graph;
        std::vector<OpId> pools;   // by type: ResNet-50 has one MaxPool and one GlobalAveragePool
        for (OpId v = 0; v < g.opCount(); ++v)
            if (QString::fromStdString(g.op(v).type).contains(QStringLiteral("pool"), Qt::CaseInsensitive)) pools.push_back(v);
        QCOMPARE(pools.size(), size_t(2));
        QTest::keyClicks(box, QStringLiteral("POOL"));
        QTest::keyClick(box, Qt::Key_Return);
        QCOMPARE(w.selection()->current(), pools[0]);
        QTest::keyClick(&w, Qt::Key_F3);
        QCOMPARE(w.selection()->current(), pools[1]);
        QTest::keyClick(&w, Qt::Key_F3);   // wraps
        QCOMPARE(w.selection()->current(), pools[0]);
        QTest::keyClick(&w, Qt::Key_F3, Qt::ShiftModifier);   // previous, wrapping backwards
        QCOMPARE(w.selection()->current(), pools[1]);
        box->setText(QStringLiteral("no such op"));
        QVERIFY(!w.dagView()->findNext());
        QCOMPARE(w.dagView()->findChild<QLabel*>(QStringLiteral("dagFindInfo"))->text(), QStringLiteral("No match"));
        QVERIFY(openAndLayOut(w, kSsd));
        QVERIFY(box->text().isEmpty());
    }

    // catches: a colour mode forgotten between launches, or continuous modes without a range
    void colourModeIsRemembered() {
        {
            DagView view;
            view.setGraph(diamond());
            QTRY_VERIFY_WITH_TIMEOUT(view.hasLayout(), 30000);
            view.setColourBy(DagColourBy::Memory);
            QCOMPARE(view.shownColouring(), DagColourBy::Memory);
            QVERIFY2(view.legendText().contains(QStringLiteral("8 bytes")), qPrintable(view.legendText()));   // c: two 4-byte outputs
            QVERIFY(view.fillOf(2) != view.fillOf(5));   // 8 bytes out vs none
        }
        DagView again;
        QCOMPARE(again.colourBy(), DagColourBy::Memory);
        again.setColourBy(DagColourBy::Auto);
    }

    // Where each op's time comes from, in three colours with counted swatches; and op times on a
    // log scale: 1, 10, 100, 1000 units fill a quarter, a third... of the ramp apart, so 100 sits at
    // 2/3 of it (on a linear scale, at 0.1); an op of no time is grey. Catches a linear scale, a
    // legend without a source, or these modes falling back to op category without a schedule.
    void timeSourceAndOpTimeColourings() {
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .type = "Conv", .duration = 1});
        const OpId b = g->addOp({.name = "b", .type = "MatMul", .duration = 10});
        const OpId c = g->addOp({.name = "c", .type = "Add", .duration = 100});
        const OpId d = g->addOp({.name = "d", .type = "Relu", .duration = 1000});
        const OpId e = g->addOp({.name = "e", .type = "Reshape", .duration = 0});
        g->addEdge(a, b);
        g->addEdge(b, c);
        g->addEdge(c, d);
        g->addEdge(c, e);
        g->finalize();
        g->setTiming(a, 1, {}, TimeSource::Measured);
        g->setTiming(b, 10, {}, TimeSource::Estimated);
        DagView view;
        view.setGraph(g);
        QTRY_VERIFY_WITH_TIMEOUT(view.hasLayout(), 30000);
        view.setColourBy(DagColourBy::TimeSource);
        QCOMPARE(view.shownColouring(), DagColourBy::TimeSource);
        QCOMPARE(view.fillOf(a), timeSourceColour(TimeSource::Measured));
        QCOMPARE(view.fillOf(b), timeSourceColour(TimeSource::Estimated));
        QCOMPARE(view.fillOf(c), timeSourceColour(TimeSource::Given));
        const std::set<QRgb> three = {timeSourceColour(TimeSource::Measured).rgb(), timeSourceColour(TimeSource::Estimated).rgb(),
                                      timeSourceColour(TimeSource::Given).rgb()};
        QCOMPARE(three.size(), size_t(3));
        for (const char* entry : {"measured (1)", "estimated (1)", "given (3)"})
            QVERIFY2(view.legendText().contains(QString::fromLatin1(entry)), qPrintable(view.legendText()));
        view.setColourBy(DagColourBy::OpTime);
        QCOMPARE(view.shownColouring(), DagColourBy::OpTime);
        QCOMPARE(view.fillOf(a), rampColour(0));
        QCOMPARE(view.fillOf(c), rampColour(2.0 / 3.0));
        QCOMPARE(view.fillOf(d), rampColour(1));
        QCOMPARE(view.fillOf(e), QColor(0xe3, 0xe8, 0xef));
        QVERIFY2(view.legendText().contains(QStringLiteral("op time (log scale)")) && view.legendText().contains(QStringLiteral("1.00 units")) &&
                     view.legendText().contains(QStringLiteral("1.00 k units")),
                 qPrintable(view.legendText()));
        view.setColourBy(DagColourBy::Auto);
    }

    // hand-checked: a(2) -> b(3) on device 0, c(1) alone on device 1; makespan 5
    void slackFromLatestStarts() {
        auto g = std::make_shared<Graph>();
        const OpId a = g->addOp({.name = "a", .duration = 2});
        const OpId b = g->addOp({.name = "b", .duration = 3});
        const OpId c = g->addOp({.name = "c", .duration = 1});
        g->addEdge(a, b, 1);
        g->finalize();
        Problem p;
        p.graph = g;
        p.platform.devices = {{"d0"}, {"d1"}};
        Schedule s;
        s.ops = {{0, 0, 2}, {0, 2, 5}, {1, 0, 1}};
        s.order = {a, c, b};
        s.makespan = 5;
        const auto latest = latestStarts(p, s);
        QCOMPARE(latest[static_cast<size_t>(a)], 0.0);
        QCOMPARE(latest[static_cast<size_t>(b)], 2.0);
        QCOMPARE(latest[static_cast<size_t>(c)], 4.0);   // slack 4
    }

    // catches: a details panel without the schedule, or links that do not navigate
    void detailsPanelShowsTheSelectedOp() {
        MainWindow w;
        QVERIFY(openAndLayOut(w, kResnet));
        const Graph& g = *w.openGraph()->graph;
        const OpId conv = g.successors(g.topologicalOrder().front()).empty() ? 1 : g.topologicalOrder().front();
        w.selection()->setCurrent(conv);
        OpDetails* details = w.dagView()->details();
        QString text = details->toPlainText();
        QVERIFY2(text.contains(QString::fromStdString(g.op(conv).type)) && text.contains(QString::fromStdString(g.op(conv).name)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Outputs")));
        QVERIFY(!text.contains(QStringLiteral("slack")));
        QVERIFY(runToEnd(w, QStringLiteral("list-cp")).result);
        QTRY_VERIFY(details->toPlainText().contains(QStringLiteral("slack")));
        QVERIFY(details->toPlainText().contains(QStringLiteral("critical")));
        const OpId next = g.successors(conv).front();
        Q_EMIT details->anchorClicked(QUrl(QStringLiteral("op:%1").arg(next)));
        QCOMPARE(w.selection()->current(), next);
        QCOMPARE(details->op(), next);
    }

    // catches: mid-word cuts such as "Fused...3.145"
    void labelsElideAtWordBoundaries() {
        QFont font;
        font.setPointSizeF(8);
        const QFontMetricsF fm(font);
        const QString name = QStringLiteral("FeatureExtractor/MobilenetV1/Conv2d_11_pointwise/Relu6");
        const QString cut = elideAtWords(name, fm, 110);
        QVERIFY(fm.horizontalAdvance(cut) <= 110);
        QVERIFY(cut.contains(QStringLiteral("…")));
        const QStringList words = name.split(QRegularExpression(QStringLiteral("[ ._/:\\-]")));
        for (const QString& part : cut.split(QRegularExpression(QStringLiteral("[ ._/:\\-…]")), Qt::SkipEmptyParts))
            QVERIFY2(words.contains(part), qPrintable(cut));
        QCOMPARE(elideAtWords(QStringLiteral("FusedBatchNormV3.188"), fm, fm.horizontalAdvance(QStringLiteral("FusedBatchNormV3…"))),
                 QStringLiteral("FusedBatchNormV3…"));   // the longer whole part, not "….188" nor "FusedBatchN…"
        QCOMPARE(elideAtWords(QStringLiteral("Postprocessor/Decode/truediv"), fm, fm.horizontalAdvance(QStringLiteral("Postprocessor…/truediv"))),
                 QStringLiteral("Postprocessor…/truediv"));
        QCOMPARE(elideAtWords(QStringLiteral("Conv"), fm, 110), QStringLiteral("Conv"));
    }

    // Not a check: SCHEDLAB_DAG_BENCH=FILE prints open -> first paint, the
    // longest event-loop stall meanwhile and the zoom / pan step times (run under /usr/bin/time -v
    // for the peak memory).
    void scaleBenchmark() {
        const QByteArray source = qgetenv("SCHEDLAB_DAG_BENCH");
        if (source.isEmpty()) QSKIP("set SCHEDLAB_DAG_BENCH=FILE to measure");
        MainWindow w;
        w.resize(1600, 1000);
        w.show();
        QApplication::processEvents();
        double stall = 0;
        QElapsedTimer tick;
        QTimer ticker;
        ticker.setTimerType(Qt::PreciseTimer);
        connect(&ticker, &QTimer::timeout, [&] { stall = std::max(stall, tick.nsecsElapsed() / 1e6 - 5.0); tick.restart(); });
        QElapsedTimer clock;
        clock.start();
        tick.start();
        ticker.start(5);
        QVERIFY(openAndLayOut(w, QString::fromUtf8(source)));
        w.dagView()->canvas()->repaint();
        const double firstPaint = clock.elapsed() / 1000.0;
        QApplication::processEvents();
        ticker.stop();
        auto step = [&](auto&& action) {
            QElapsedTimer t;
            t.start();
            action();
            w.dagView()->canvas()->repaint();
            return t.nsecsElapsed() / 1e6;
        };
        double zoomMax = 0, panMax = 0, zoomSum = 0, panSum = 0;
        for (int i = 0; i < 24; ++i) {   // from fitted to well zoomed in, panning at each zoom
            const double z = step([&] { w.dagView()->zoomBy(1.35); });
            zoomMax = std::max(zoomMax, z), zoomSum += z;
            const double p = step([&] { w.dagView()->panBy(QPoint(120, 80)); });
            panMax = std::max(panMax, p), panSum += p;
        }
        // a schedule landing: recolour by device, order badges, the details panel's slack
        double recordStall = 0;
        disconnect(&ticker, nullptr, nullptr, nullptr);
        connect(&ticker, &QTimer::timeout, [&] { recordStall = std::max(recordStall, tick.nsecsElapsed() / 1e6 - 5.0); tick.restart(); });
        w.runPanel()->setMethod(QStringLiteral("list-cp"));
        QSignalSpy finished(&w, &MainWindow::runFinished);
        QVERIFY(w.startRun());
        tick.restart();
        ticker.start(5);
        QVERIFY(finished.wait(120000));
        QElapsedTimer recordClock;
        recordClock.start();
        w.dagView()->setRecord(finished.takeFirst().at(0).value<RunRecord>());
        const double setRecordMs = recordClock.nsecsElapsed() / 1e6;
        QTest::qWait(200);
        ticker.stop();
        // the DAG's share alone: a bare view given the loaded graph, from setGraph to its first paint
        DagView bare;
        bare.resize(1200, 800);
        bare.show();
        QApplication::processEvents();
        double bareStall = 0;
        QElapsedTimer bareClock;
        bareClock.start();
        tick.restart();
        disconnect(&ticker, nullptr, nullptr, nullptr);
        connect(&ticker, &QTimer::timeout, [&] { bareStall = std::max(bareStall, tick.nsecsElapsed() / 1e6 - 5.0); tick.restart(); });
        ticker.start(5);
        bare.setGraph(w.openGraph()->graph);
        QVERIFY(QTest::qWaitFor([&] { return bare.hasLayout(); }, 60000));
        bare.canvas()->repaint();
        const double bareFirstPaint = bareClock.elapsed() / 1000.0;
        QApplication::processEvents();
        ticker.stop();
        std::printf("ops %d, shown %d, layout %s in %.3f s\n", w.openGraph()->graph->opCount(), w.dagView()->layout()->shownCount(),
                    w.dagView()->layout()->usedGraphviz ? "dot" : "layered", w.dagView()->layout()->seconds);
        std::printf("open -> first painted layout  %.3f s\n", firstPaint);
        std::printf("longest event-loop stall      %.1f ms\n", stall);
        std::printf("DagView alone: setGraph -> first paint %.3f s, longest stall %.1f ms\n", bareFirstPaint, bareStall);
        std::printf("list-cp run landing: longest stall %.1f ms; DagView::setRecord %.1f ms\n", recordStall, setRecordMs);
        std::printf("zoom step mean / max          %.1f / %.1f ms\n", zoomSum / 24, zoomMax);
        std::printf("pan step mean / max           %.1f / %.1f ms\n", panSum / 24, panMax);
    }
};

SCHEDLAB_TEST_MAIN(dagview, TestDagView)
#include "tst_dagview.moc"

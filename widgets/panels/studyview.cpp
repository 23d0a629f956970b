// SPDX-License-Identifier: MIT
#include "widgets/panels/studyview.h"

#include "widgets/session/background.h"
#include "widgets/session/studygraphsmodel.h"
#include "widgets/views/exporter.h"
#include "widgets/views/palette.h"

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QScatterSeries>
#include <QSplitter>
#include <QTableWidget>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sl::gui {

namespace {

struct Loaded {
    StudySpec spec;
    StudySummary summary;
};

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

template <typename Table>
Table* makeTable(QWidget* parent) {
    auto* t = new Table(parent);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->setAlternatingRowColors(true);
    return t;
}

/// A filled circle of `size` pixels, a strip's marker.
QImage dot(const QColor& colour, int size) {
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawEllipse(QRectF(0, 0, size, size));
    return image;
}

QChartView* makeChart(QChart* chart, const QString& title, QWidget* parent) {
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    auto* view = new QChartView(chart, parent);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumHeight(180);
    return view;
}

}   // namespace

StudyView::StudyView(QWidget* parent) : QWidget(parent) {
    m_title = new QLabel(tr("No study open: File ▸ Open Study… (a database made by `schedlab-cli study run`)"), this);
    m_title->setWordWrap(true);
    m_table = makeTable<QTableWidget>(this);
    m_winLoss = makeTable<QTableWidget>(this);
    m_winLoss->setToolTip(tr("Row beats column on this many graphs (more than a relative 1e-9 cheaper)"));
    m_graphs = makeTable<QTableView>(this);
    m_graphModel = new StudyGraphsModel(this);
    m_graphs->setModel(m_graphModel);
    // a thousand rows: sized when its columns change (fillGraphs), not measured on every reload
    m_graphs->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_test = new QLabel(tr("Click a cell of the win/loss matrix for the Wilcoxon signed-rank test of its two methods."),
                        this);
    m_test->setWordWrap(true);
    m_graphs->setToolTip(tr("Mean cost over the seeds; double-click a cell to open that run's schedule"));
    m_profile = new QChart;
    m_profileView = makeChart(m_profile, tr("Performance profile"), this);
    m_gaps = new QChart;
    m_gapView = makeChart(m_gaps, tr("Per-graph gap to the best"), this);
    auto* grid = new QGridLayout;
    grid->addWidget(m_profileView, 0, 0);
    grid->addWidget(m_gapView, 0, 1);
    grid->addWidget(m_table, 1, 0);
    grid->addWidget(m_winLoss, 1, 1);
    grid->addWidget(m_test, 2, 1);
    auto* top = new QWidget(this);
    top->setLayout(grid);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(top);
    split->addWidget(m_graphs);
    // the per-graph costs get two fifths of the height: at 1600x1000 beside the docks a quarter of
    // it showed three rows, and half left the charts too short for their axis labels at 1500x950
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(split, 1);
    addExportMenus();
    connect(m_winLoss, &QTableWidget::cellClicked, this, [this](int row, int column) { showTest(row, column); });
    connect(m_graphs, &QTableView::doubleClicked, this, [this](const QModelIndex& at) {
        if (!m_summary || !m_spec || at.column() < 1) return;
        Q_EMIT runRequested(QString::fromStdString(m_graphModel->graphAt(at.row())),
                            QString::fromStdString(m_graphModel->methodAt(at.column())), m_spec->seeds.front());
    });
}

QString StudyView::tableCsv(const QAbstractItemModel* table) {
    const auto quote = [](QString text) {
        if (text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')))
            text = QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
        return text;
    };
    const auto rowName = [table](int r) { return table->headerData(r, Qt::Vertical).toString(); };
    // the win/loss matrix names its rows; the other tables' rows are numbered
    const bool rowNames = table->rowCount() > 0 && rowName(0) != QString::number(1);
    QStringList lines;
    QStringList header;
    if (rowNames) header << QString();
    for (int c = 0; c < table->columnCount(); ++c) header << quote(table->headerData(c, Qt::Horizontal).toString());
    lines << header.join(QLatin1Char(','));
    for (int r = 0; r < table->rowCount(); ++r) {
        QStringList row;
        if (rowNames) row << quote(rowName(r));
        for (int c = 0; c < table->columnCount(); ++c) row << quote(table->index(r, c).data().toString());
        lines << row.join(QLatin1Char(','));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

bool StudyView::compareSelected() {
    QModelIndexList cells = m_graphs->selectionModel()->selectedIndexes();
    if (!m_summary || !m_spec || cells.size() != 2 || cells[0].row() != cells[1].row() || cells[0].column() < 1 ||
        cells[1].column() < 1)
        return false;
    std::sort(cells.begin(), cells.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.column() < b.column(); });
    const auto label = [&](const QModelIndex& i) { return QString::fromStdString(m_graphModel->methodAt(i.column())); };
    Q_EMIT compareRequested(QString::fromStdString(m_graphModel->graphAt(cells[0].row())), label(cells[0]),
                            label(cells[1]), m_spec->seeds.front());
    return true;
}

void StudyView::addExportMenus() {
    auto* compare = new QAction(tr("Compare the Two Selected Runs"), m_graphs);
    compare->setStatusTip(tr("Select two methods' cells of one graph (Ctrl+click), then compare their schedules"));
    connect(compare, &QAction::triggered, this, [this] { compareSelected(); });
    m_graphs->addAction(compare);
    for (QChartView* chart : {m_profileView, m_gapView}) {
        chart->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto* a = new QAction(tr("Export Chart as PNG or SVG…"), chart);
        connect(a, &QAction::triggered, this, [this, chart] {
            const QString path = QFileDialog::getSaveFileName(
                this, tr("Export chart"),
                chart->chart()->title().toLower().replace(QLatin1Char(' '), QLatin1Char('-')) + QStringLiteral(".svg"),
                tr("SVG drawing (*.svg);;PNG image (*.png)"));
            if (path.isEmpty()) return;
            try {
                exportWidgetImage(chart, path);
            } catch (const std::exception& e) {
                QMessageBox::warning(this, tr("Export failed"), QString::fromUtf8(e.what()));
            }
        });
        chart->addAction(a);
    }
    for (QTableView* table : std::initializer_list<QTableView*>{m_table, m_winLoss, m_graphs}) {
        table->setContextMenuPolicy(Qt::ActionsContextMenu);
        auto* a = new QAction(tr("Export Table as CSV…"), table);
        connect(a, &QAction::triggered, this, [this, table] {
            const QString path =
                QFileDialog::getSaveFileName(this, tr("Export table"), QStringLiteral("study.csv"), tr("CSV (*.csv)"));
            if (path.isEmpty()) return;
            QSaveFile out(path);
            const QByteArray csv = tableCsv(table->model()).toUtf8();
            if (!out.open(QIODevice::WriteOnly) || out.write(csv) != csv.size() || !out.commit())
                QMessageBox::warning(this, tr("Export failed"), tr("%1 could not be written").arg(path));
        });
        table->addAction(a);
    }
}

void StudyView::openStudy(const QString& path) {
    // a study that runs is read again and again: its title stays, and only the newest read lands
    if (path != m_path || !m_summary) m_title->setText(tr("Reading %1 …").arg(path));
    m_path = path;
    const LatestRequest::Ticket ticket = m_reads.next();
    runInBackground(
        this,
        [p = path.toStdString()] {
            const StudyStore store = StudyStore::open(p, StudyStore::Access::ReadOnly);
            return Loaded{store.spec(), summarize(store.spec(), store.runs())};
        },
        [this, ticket](Outcome<Loaded> o) {
            if (!m_reads.isLatest(ticket)) return;   // a newer read is on its way
            if (!o.value) {
                m_title->setText(tr("Cannot open the study: %1").arg(o.error));
                Q_EMIT studyFailed(o.error);
                return;
            }
            show(std::move(o.value->spec), std::move(o.value->summary));
        });
}

void StudyView::show(StudySpec spec, StudySummary summary) {
    m_spec = std::move(spec);
    m_summary = std::make_shared<const StudySummary>(std::move(summary));
    m_title->setText(tr("%1: %2 graphs × %3 methods × %4 seeds")
                         .arg(QFileInfo(m_path).fileName())
                         .arg(m_summary->graphs.size())
                         .arg(m_summary->methods.size())
                         .arg(m_spec->seeds.size()));
    fillSummary();
    fillWinLoss();
    fillGraphs();
    drawProfile();
    drawGaps();
    Q_EMIT studyShown();
}

void StudyView::fillSummary() {
    const QStringList headers{tr("Method"),        tr("Cost / best (geomean)"),
                              tr("95 % interval"), tr("Cost / bound"),
                              tr("Wins"),          tr("Ties"),
                              tr("Losses"),        tr("Failed"),
                              tr("Mean s")};
    m_table->clear();
    m_table->setColumnCount(static_cast<int>(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(static_cast<int>(m_summary->rows.size()));
    for (int i = 0; i < m_table->rowCount(); ++i) {
        const MethodSummary& r = m_summary->rows[static_cast<std::size_t>(i)];
        m_table->setItem(i, 0, cell(QString::fromStdString(r.method), Qt::AlignLeft | Qt::AlignVCenter));
        m_table->setItem(i, 1, cell(QString::number(r.geomeanRatio, 'f', 4)));
        m_table->setItem(i, 2, cell(QStringLiteral("%1 – %2").arg(r.low, 0, 'f', 4).arg(r.high, 0, 'f', 4)));
        m_table->setItem(
            i, 3, cell(std::isnan(r.geomeanToBound) ? QStringLiteral("—") : QString::number(r.geomeanToBound, 'f', 4)));
        m_table->setItem(i, 4, cell(QString::number(r.wins)));
        m_table->setItem(i, 5, cell(QString::number(r.ties)));
        m_table->setItem(i, 6, cell(QString::number(r.losses)));
        m_table->setItem(i, 7, cell(QString::number(r.failed)));
        m_table->setItem(i, 8, cell(QString::number(r.meanSeconds, 'g', 3)));
    }
}

void StudyView::fillWinLoss() {
    const auto& methods = m_summary->methods;
    const int n = static_cast<int>(methods.size());
    m_winLoss->clear();
    m_winLoss->setRowCount(n);
    m_winLoss->setColumnCount(n);
    QStringList labels;
    for (const auto& m : methods) labels << QString::fromStdString(m);
    m_winLoss->setHorizontalHeaderLabels(labels);
    m_winLoss->setVerticalHeaderLabels(labels);
    for (int a = 0; a < n; ++a)
        for (int b = 0; b < n; ++b) {
            if (a == b) {
                m_winLoss->setItem(a, b, cell(QStringLiteral("—"), Qt::AlignCenter));
                continue;
            }
            int beats = 0;
            for (std::size_t g = 0; g < m_summary->graphs.size(); ++g) {
                const double x = m_summary->cost.at(methods[static_cast<std::size_t>(a)])[g];
                const double y = m_summary->cost.at(methods[static_cast<std::size_t>(b)])[g];
                if (!std::isnan(x) && (std::isnan(y) || x < y - 1e-9 * std::max(std::abs(x), std::abs(y)))) ++beats;
            }
            m_winLoss->setItem(a, b, cell(QString::number(beats), Qt::AlignCenter));
        }
}

QString StudyView::testText() const { return m_test->text(); }

void StudyView::showTest(int a, int b) {
    if (!m_summary || a == b) return;
    const std::string& first = m_summary->methods[static_cast<std::size_t>(a)];
    const std::string& second = m_summary->methods[static_cast<std::size_t>(b)];
    const WilcoxonResult w = compareMethods(*m_summary, first, second);
    m_test->setText(
        tr("%1 against %2: Wilcoxon signed-rank test over %3 graphs with a difference, V = %4, two-sided p = %5 (%6)")
            .arg(QString::fromStdString(first), QString::fromStdString(second))
            .arg(w.pairs)
            .arg(w.plus)
            .arg(QString::number(w.pValue, 'g', 4))
            .arg(w.exact ? tr("exact") : tr("normal approximation, tie-corrected")));
}

void StudyView::fillGraphs() {
    const int columnsBefore = m_graphModel->columnCount();
    m_graphModel->setSummary(m_summary);
    // measured from the rows in view when the methods change, not from all rows on every reload
    if (m_graphModel->columnCount() != columnsBefore) {
        m_graphs->horizontalHeader()->setResizeContentsPrecision(100);
        m_graphs->resizeColumnsToContents();
    }
}

QList<QPointF> StudyView::profileSteps(std::size_t method, double tauMax) const {
    // performanceProfile(m, t) is the share of its ratios <= t: read off its sorted ratios, in
    // O(G log G) rather than O(G) per step (0.3 s at 1,000 graphs x 5 methods)
    std::vector<double> ratios;
    for (const double r : m_ratios[method])
        if (std::isfinite(r)) ratios.push_back(r);
    std::sort(ratios.begin(), ratios.end());
    const auto graphs = static_cast<double>(m_summary->graphs.size());
    const auto shareWithin = [&](double t) {
        return static_cast<double>(std::upper_bound(ratios.begin(), ratios.end(), t) - ratios.begin()) / graphs;
    };
    std::vector<double> taus = ratios;
    taus.push_back(1.0);
    taus.push_back(tauMax);
    std::sort(taus.begin(), taus.end());
    QList<QPointF> steps;   // a step function: flat, then up at each ratio
    double previous = shareWithin(1.0);
    steps.append({1.0, previous});
    for (double t : taus) {
        const double share = shareWithin(t);
        steps.append({t, previous});
        steps.append({t, share});
        previous = share;
    }
    return steps;
}

void StudyView::drawProfile() {
    m_ratios.assign(m_summary->methods.size(), {});
    double tauMax = 1.05;
    for (std::size_t m = 0; m < m_summary->methods.size(); ++m)
        for (std::size_t g = 0; g < m_summary->graphs.size(); ++g) {
            const double r = ratioToBest(*m_summary, m_summary->methods[m], g);
            m_ratios[m].push_back(r);
            if (std::isfinite(r)) tauMax = std::max(tauMax, r * 1.05);
        }
    // a running study is read again every half second: its curves keep their series, the points move
    if (seriesAreMethods(m_profile)) {
        auto* x = static_cast<QLogValueAxis*>(m_profile->axes(Qt::Horizontal).first());
        x->setRange(1, tauMax);
        x->setBase(std::pow(tauMax, 1.0 / 5));
        for (std::size_t i = 0; i < m_summary->methods.size(); ++i)
            static_cast<QLineSeries*>(m_profile->series().at(static_cast<qsizetype>(i)))
                ->replace(profileSteps(i, tauMax));
        return;
    }
    m_profile->removeAllSeries();
    for (auto* a : m_profile->axes()) m_profile->removeAxis(a), delete a;
    auto* x = new QLogValueAxis;
    x->setTitleText(tr("τ: within this factor of the best"));
    x->setRange(1, tauMax);
    x->setBase(std::pow(tauMax, 1.0 / 5));   // about five labelled ticks whatever the range
    x->setLabelFormat(QStringLiteral("%.2f"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("share of graphs"));
    y->setRange(0, 1);
    y->setTickCount(6);
    m_profile->addAxis(x, Qt::AlignBottom);
    m_profile->addAxis(y, Qt::AlignLeft);
    for (std::size_t i = 0; i < m_summary->methods.size(); ++i) {
        auto* s = new QLineSeries;
        s->setName(QString::fromStdString(m_summary->methods[i]));
        s->setPen(QPen(palette::category(static_cast<int>(i)), 2));
        s->replace(profileSteps(i, tauMax));
        m_profile->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
}

QList<QPointF> StudyView::gapPoints(std::size_t method, double& top) {
    QList<QPointF> points;
    m_gapGraphs[method].clear();
    for (std::size_t g = 0; g < m_summary->graphs.size(); ++g) {
        const double r = m_ratios[method][g];
        if (!std::isfinite(r)) continue;
        const double jitter =
            (static_cast<double>((g * 2654435761u) % 1000) / 1000.0 - 0.5) * 0.4;   // spread, deterministic
        points.append({static_cast<double>(method) + jitter, 100 * (r - 1)});
        m_gapGraphs[method].push_back(g);
        top = std::max(top, 100 * (r - 1));
    }
    return points;
}

bool StudyView::seriesAreMethods(const QChart* chart) const {
    const QList<QAbstractSeries*> strips = chart->series();
    if (static_cast<std::size_t>(strips.size()) != m_summary->methods.size()) return false;
    for (qsizetype i = 0; i < strips.size(); ++i)
        if (strips[i]->name() != QString::fromStdString(m_summary->methods[static_cast<std::size_t>(i)])) return false;
    return true;
}

void StudyView::drawGaps() {
    m_gapGraphs.assign(m_summary->methods.size(), {});
    double top = 1;
    // a running study is read again every half second: its strips keep their series and the points
    // move, since a scatter series makes one item per point (new ones cost 0.1 s at 5,000)
    if (seriesAreMethods(m_gaps)) {
        for (std::size_t i = 0; i < m_summary->methods.size(); ++i)
            static_cast<QScatterSeries*>(m_gaps->series().at(static_cast<qsizetype>(i)))->replace(gapPoints(i, top));
        auto* y = static_cast<QValueAxis*>(m_gaps->axes(Qt::Vertical).first());
        y->setRange(0, top * 1.1);
        y->applyNiceNumbers();
        return;
    }
    m_gaps->removeAllSeries();
    for (auto* a : m_gaps->axes()) m_gaps->removeAxis(a), delete a;
    const auto n = static_cast<double>(m_summary->methods.size());
    auto* x = new QValueAxis;
    x->setRange(-0.5, n - 0.5);
    x->setTickCount(static_cast<int>(n) + 1);
    x->setLabelsVisible(false);   // the legend names the strips, left to right
    auto* y = new QValueAxis;
    y->setTitleText(tr("% above the best"));
    m_gaps->addAxis(x, Qt::AlignBottom);
    m_gaps->addAxis(y, Qt::AlignLeft);
    for (std::size_t i = 0; i < m_summary->methods.size(); ++i) {
        auto* s = new QScatterSeries;
        s->setName(QString::fromStdString(m_summary->methods[i]));
        s->setColor(palette::category(static_cast<int>(i)));
        s->setMarkerSize(8);
        // painted, not one graphics item per point: 5,000 items laid out again on every reload of
        // a running study stalled the window 75 ms (docs/studies.md, Scale)
        s->setLightMarker(dot(palette::category(static_cast<int>(i)), 8));
        s->replace(gapPoints(i, top));   // one change, not one per point
        connect(s, &QScatterSeries::clicked, this, [this, i](const QPointF& at) { openGapPoint(i, at); });
        m_gaps->addSeries(s);
        s->attachAxis(x);
        s->attachAxis(y);
    }
    y->setRange(0, top * 1.1);
    y->applyNiceNumbers();
}

void StudyView::openGapPoint(std::size_t method, QPointF at) {
    auto* series = static_cast<QScatterSeries*>(m_gaps->series().at(static_cast<qsizetype>(method)));
    const QList<QPointF> points = series->points();
    if (points.isEmpty() || !m_spec) return;
    qsizetype nearest = 0;   // in value space: y spans far more than x, so y decides
    for (qsizetype k = 1; k < points.size(); ++k)
        if (std::abs(points[k].y() - at.y()) + std::abs(points[k].x() - at.x()) <
            std::abs(points[nearest].y() - at.y()) + std::abs(points[nearest].x() - at.x()))
            nearest = k;
    Q_EMIT runRequested(
        QString::fromStdString(m_summary->graphs[m_gapGraphs[method][static_cast<std::size_t>(nearest)]]),
        QString::fromStdString(m_summary->methods[method]), m_spec->seeds.front());
}

}   // namespace sl::gui

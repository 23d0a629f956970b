// SPDX-License-Identifier: MIT
#include "widgets/panels/runpanel.h"

#include "widgets/session/document.h"
#include "widgets/session/resultsmodel.h"
#include "widgets/session/runjob.h"
#include "widgets/session/units.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace sl::gui {
namespace {

QWidget* makeField(const OptionSpec& o, QWidget* parent) {
    QWidget* w = nullptr;
    switch (o.kind) {
    case OptionSpec::Kind::Int: {
        auto* s = new QSpinBox(parent);
        s->setRange(static_cast<int>(std::max(o.min, -2e9)), static_cast<int>(std::min(o.max, 2e9)));
        s->setValue(static_cast<int>(o.defaultValue));
        s->setSpecialValueText(QString::fromStdString(o.minimumMeans));   // "auto" at the minimum
        s->setGroupSeparatorShown(true);
        w = s;
        break;
    }
    case OptionSpec::Kind::Double: {
        auto* s = new QDoubleSpinBox(parent);
        s->setDecimals(4);
        s->setRange(o.min, o.max);
        s->setValue(o.defaultValue);
        s->setSingleStep(std::max(0.0001, std::abs(o.defaultValue) / 10));
        w = s;
        break;
    }
    case OptionSpec::Kind::Bool: {
        auto* c = new QCheckBox(parent);
        c->setChecked(o.defaultValue != 0);
        w = c;
        break;
    }
    case OptionSpec::Kind::Choice: {
        auto* c = new QComboBox(parent);
        for (const auto& ch : o.choices) c->addItem(QString::fromStdString(ch));
        c->setCurrentIndex(static_cast<int>(o.defaultValue));
        w = c;
        break;
    }
    }
    w->setToolTip(QString::fromStdString(o.help));
    w->setObjectName(QString::fromStdString(o.key));
    return w;
}

}   // namespace

RunPanel::RunPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    m_method = new QComboBox(this);
    m_method->setObjectName(QStringLiteral("methodCombo"));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("runSummary"));
    m_summary->setWordWrap(true);
    m_summary->setStyleSheet(QStringLiteral("color: palette(dark)"));
    m_formHost = new QWidget(this);
    m_form = new QFormLayout(m_formHost);
    m_form->setContentsMargins(0, 0, 0, 0);
    m_form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setDefault(true);
    m_run->setToolTip(tr("Start a run with these options (F5); several runs may go at once"));
    m_cancel = new QPushButton(tr("Cancel all"), this);
    m_cancel->setObjectName(QStringLiteral("cancelButton"));
    m_cancel->setToolTip(tr("Stop every active run; each keeps its best schedule so far (Esc)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run, 1);
    buttons->addWidget(m_cancel);
    m_jobs = new QVBoxLayout;
    m_jobs->setSpacing(4);
    m_idle = new QLabel(tr("No active runs"), this);
    m_idle->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_jobs->addWidget(m_idle);

    // Run and the active runs stay at the top, visible however long the option list is
    layout->addWidget(m_method);
    layout->addWidget(m_summary);
    layout->addLayout(buttons);
    layout->addLayout(m_jobs);
    auto* line = new QFrame(this);
    line->setFrameShape(QFrame::HLine);
    line->setFrameShadow(QFrame::Sunken);
    layout->addWidget(line);
    layout->addWidget(m_formHost);
    layout->addStretch(1);

    connect(m_method, &QComboBox::currentIndexChanged, this, &RunPanel::rebuildOptions);
    connect(m_run, &QPushButton::clicked, this, &RunPanel::runRequested);
    connect(m_cancel, &QPushButton::clicked, this, &RunPanel::cancelRequested);
    reloadMethods();
    updateButtons();
}

void RunPanel::reloadMethods() {
    const QString keep = method();
    QSignalBlocker block(m_method);
    m_method->clear();
    for (const auto& info : OptimizerRegistry::instance().list())
        m_method->addItem(
            QStringLiteral("%1  —  %2").arg(QString::fromStdString(info.name), QString::fromStdString(info.family)),
            QString::fromStdString(info.name));
    if (!m_pendingMethod.isEmpty() && setMethod(m_pendingMethod))
        m_pendingMethod.clear();
    else if (!keep.isEmpty())
        setMethod(keep);
    rebuildOptions();
}

QString RunPanel::method() const { return m_method->currentData().toString(); }

bool RunPanel::setMethod(const QString& name) {
    const int i = m_method->findData(name);
    if (i < 0) return false;
    m_method->setCurrentIndex(i);
    return true;
}

void RunPanel::setObjective(Objective objective) {
    m_objective = objective;
    updateAvailability();
}

void RunPanel::setDeviceCount(int devices) {
    m_deviceCount = devices;
    updateAvailability();
}

void RunPanel::setGraphOpen(bool open) {
    m_graphOpen = open;
    updateAvailability();
}

QString RunPanel::unavailableReason(const QString& name) const {
    const OptimizerInfo* info = OptimizerRegistry::instance().find(name.toStdString());
    if (!info) return tr("unknown method '%1'").arg(name);
    const bool ownWeights =
        name == method() && m_weights && !m_weights->text().isEmpty();   // they may fit another count
    if (info->devices > 0 && m_deviceCount > 0 && info->devices != m_deviceCount && !ownWeights)
        return tr("%1's shipped weights place ops on %2 devices and the platform has %3: set Devices to %2 in the Platform panel, "
                  "or give weights trained for %3 devices")
            .arg(name)
            .arg(info->devices)
            .arg(m_deviceCount);
    if (std::find(info->objectives.begin(), info->objectives.end(), m_objective) != info->objectives.end()) return {};
    QStringList names;
    for (const Objective o : info->objectives) names << QString::fromStdString(toString(o));
    return tr("%1 is built for %2, not %3: choose another method, or the objective in the Platform panel")
        .arg(name, names.join(QStringLiteral(", ")), QString::fromStdString(toString(m_objective)));
}

void RunPanel::updateAvailability() {
    auto* items = qobject_cast<QStandardItemModel*>(m_method->model());
    for (int i = 0; i < m_method->count(); ++i) {
        const QString why = unavailableReason(m_method->itemData(i).toString());
        items->item(i)->setEnabled(why.isEmpty());
        items->item(i)->setToolTip(why);
    }
    const QString why = unavailableReason(method());
    m_run->setEnabled(why.isEmpty() && m_graphOpen);
    m_run->setToolTip(!m_graphOpen        ? tr("Open a graph first (File ▸ Open, or File ▸ Open Example)")
                          : why.isEmpty() ? tr("Start a run with these options (F5); several runs may go at once")
                                          : why);
    if (const OptimizerInfo* info = OptimizerRegistry::instance().find(method().toStdString()))
        m_summary->setText(why.isEmpty() ? QString::fromStdString(info->summary) : why);
}

void RunPanel::rebuildOptions() {
    // the generic options carry over from one method to the next
    std::map<std::string, double> keep;
    const RunOptions before = m_fields.empty() ? RunOptions{} : options();
    if (m_fields.count("seed")) keep["seed"] = static_cast<double>(before.seed);
    if (m_fields.count("budget")) keep["budget"] = static_cast<double>(before.budget);
    if (m_fields.count("time-limit")) keep["time-limit"] = before.timeLimit;
    if (m_fields.count("threads")) keep["threads"] = before.threads;
    const QString keptWeights = m_weights ? m_weights->text() : QString();
    while (m_form->rowCount() > 0) m_form->removeRow(0);
    m_fields.clear();
    m_weights = nullptr;   // removeRow deleted it
    const OptimizerInfo* info = OptimizerRegistry::instance().find(method().toStdString());
    m_run->setEnabled(info != nullptr && m_graphOpen);
    if (!info) {
        m_summary->setText(tr("No optimizer is registered"));
        return;
    }
    m_summary->setText(QString::fromStdString(info->summary));
    std::vector<OptionSpec> specs;
    if (info->usesSeed)
        specs.push_back({.key = "seed",
                         .label = "Seed",
                         .defaultValue = 1,
                         .min = 0,
                         .max = 2e9,
                         .help = "Random seed: same seed, same schedule"});
    if (info->usesBudget)
        specs.push_back({.key = "budget",
                         .label = "Budget",
                         .defaultValue = 0,
                         .min = 0,
                         .max = 2e9,
                         .help = "Evaluations; 0 = the method's default"});
    specs.push_back({.key = "time-limit",
                     .label = "Time limit",
                     .kind = OptionSpec::Kind::Double,
                     .defaultValue = 0,
                     .min = 0,
                     .max = 86400,
                     .help = "Seconds; 0 = none"});
    specs.push_back({.key = "threads",
                     .label = "Threads",
                     .defaultValue = 1,
                     .min = 1,
                     .max = 64,
                     .help = "Worker threads of this run"});
    specs.insert(specs.end(), info->options.begin(), info->options.end());
    for (const auto& o : specs) {
        QWidget* w = makeField(o, m_formHost);
        if (o.key == "time-limit") {
            static_cast<QDoubleSpinBox*>(w)->setSpecialValueText(tr("none"));
            static_cast<QDoubleSpinBox*>(w)->setDecimals(1);
            static_cast<QDoubleSpinBox*>(w)->setSuffix(tr(" s"));
        }
        if (o.key == "budget") static_cast<QSpinBox*>(w)->setSpecialValueText(tr("default"));
        m_form->addRow(QString::fromStdString(o.label.empty() ? o.key : o.label), w);
        m_fields[o.key] = w;
    }
    if (info->family == "neural") addWeightsRow(keptWeights);
    for (const auto& [key, value] : keep) setOption(QString::fromStdString(key), QString::number(value, 'g', 17));
    updateAvailability();
}

void RunPanel::addWeightsRow(const QString& kept) {
    auto* row = new QWidget(m_formHost);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    m_weights = new QLineEdit(kept, row);
    m_weights->setObjectName(QStringLiteral("weightsField"));
    m_weights->setPlaceholderText(tr("shipped weights"));
    m_weights->setToolTip(
        tr("A weight file (.slw) trained with 'schedlab-cli train'; empty: the weights shipped in models/weights"));
    m_weights->setClearButtonEnabled(true);
    connect(m_weights, &QLineEdit::textChanged, this,
            &RunPanel::updateAvailability);   // own weights may fit another device count
    auto* browse = new QToolButton(row);
    browse->setText(tr("…"));
    browse->setToolTip(tr("Choose a weight file"));
    layout->addWidget(m_weights, 1);
    layout->addWidget(browse);
    connect(browse, &QToolButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Weight file"), m_weights->text(),
                                                          tr("SchedLab weights (*.slw);;All files (*)"));
        if (!path.isEmpty()) m_weights->setText(path);
    });
    m_form->addRow(tr("Weights"), row);
}

RunOptions RunPanel::options() const {
    RunOptions r;
    for (const auto& [key, w] : m_fields) {
        double v = 0;
        if (auto* s = qobject_cast<QSpinBox*>(w))
            v = s->value();
        else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
            v = d->value();
        else if (auto* c = qobject_cast<QCheckBox*>(w))
            v = c->isChecked() ? 1 : 0;
        else if (auto* cb = qobject_cast<QComboBox*>(w)) {
            v = cb->currentIndex();
            r.strings[key] = cb->currentText().toStdString();
        }
        if (key == "seed")
            r.seed = static_cast<std::uint64_t>(v);
        else if (key == "budget")
            r.budget = static_cast<std::int64_t>(v);
        else if (key == "time-limit")
            r.timeLimit = v;
        else if (key == "threads")
            r.threads = static_cast<int>(v);
        else
            r.values[key] = v;
    }
    if (m_weights && !m_weights->text().trimmed().isEmpty())
        r.strings["weights"] = m_weights->text().trimmed().toStdString();
    return r;
}

bool RunPanel::setOption(const QString& key, const QString& value) {
    auto it = m_fields.find(key.toStdString());
    if (it == m_fields.end()) return false;
    QWidget* w = it->second;
    bool ok = true;
    if (auto* s = qobject_cast<QSpinBox*>(w))
        s->setValue(value.toInt(&ok));
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(w))
        d->setValue(value.toDouble(&ok));
    else if (auto* c = qobject_cast<QCheckBox*>(w))
        c->setChecked(value != QLatin1String("0") && value != QLatin1String("false"));
    else if (auto* cb = qobject_cast<QComboBox*>(w)) {
        const int i = cb->findText(value);
        ok = i >= 0;
        if (ok) cb->setCurrentIndex(i);
    }
    return ok;
}

void RunPanel::addJob(RunJob* job) {
    // a label over a thin bar: the status text never competes with the bar for room
    auto* row = new QWidget(this);
    auto* grid = new QGridLayout(row);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->setVerticalSpacing(1);
    auto* text = new QLabel(tr("%1 #%2 starting…").arg(job->method()).arg(job->id()), row);
    text->setObjectName(QStringLiteral("jobText"));
    auto* bar = new QProgressBar(row);
    bar->setRange(0, 0);   // busy until the first report
    bar->setTextVisible(false);
    bar->setMaximumHeight(8);
    bar->setObjectName(QStringLiteral("jobProgress"));
    auto* stop = new QToolButton(row);
    stop->setText(QStringLiteral("✕"));
    stop->setToolTip(tr("Stop this run"));
    stop->setAutoRaise(true);
    grid->addWidget(text, 0, 0);
    grid->addWidget(bar, 1, 0);
    grid->addWidget(stop, 0, 1, 2, 1);
    m_jobs->addWidget(row);
    connect(stop, &QToolButton::clicked, job, &RunJob::cancel);
    const Objective objective = job->problem().objective.kind;   // the "best" reads in its unit
    const TimeUnit unit = job->problem().g().timeUnit();
    connect(job, &RunJob::progressed, bar, [bar, text, job, objective, unit](const Progress& p) {
        bar->setRange(0, 1000);
        bar->setValue(static_cast<int>(std::clamp(p.fraction, 0.0, 1.0) * 1000));
        const double elapsed = job->elapsedSeconds();
        QString left = QStringLiteral("…");
        if (p.fraction > 0.01)
            left = QStringLiteral("%1 s left").arg(std::max(0.0, elapsed * (1 - p.fraction) / p.fraction), 0, 'f', 1);
        text->setText(QStringLiteral("%1 #%2   best %3   %4")
                          .arg(job->method())
                          .arg(job->id())
                          .arg(formatCost(p.best, objective, unit), left));
    });
    auto done = [this, row] {
        m_jobs->removeWidget(row);
        row->deleteLater();
        updateButtons();
    };
    connect(job, &RunJob::finished, row, done);
    connect(job, &RunJob::failed, row, done);
    updateButtons();
}

int RunPanel::activeJobs() const {
    return m_jobs->count() - 1;   // minus the idle label
}

void RunPanel::updateButtons() {
    m_idle->setVisible(activeJobs() == 0);
    m_cancel->setEnabled(activeJobs() > 0);
}

void RunPanel::saveSettings() const {
    QSettings s;
    s.setValue(QStringLiteral("run/method"), method());
}

void RunPanel::restoreSettings() {
    QSettings s;
    const QString remembered = s.value(QStringLiteral("run/method")).toString();
    if (!setMethod(remembered)) m_pendingMethod = remembered;   // a neural method, registered once the module loads
}

void RunPanel::observe(const Document* doc) {
    connect(doc, &Document::graphChanged, this, [this] { setGraphOpen(true); });
    connect(doc, &Document::machineChanged, this, [this, doc] {
        m_deviceCount = doc->machine().platform.deviceCount();
        setObjective(doc->machine().objective.kind);
    });
}

}   // namespace sl::gui

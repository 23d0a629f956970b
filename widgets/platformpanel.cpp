// SPDX-License-Identifier: MIT
#include "widgets/platformpanel.h"

#include "widgets/document.h"
#include "widgets/platformfile.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QPushButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace sl::gui {

PlatformPanel::PlatformPanel(QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_useFile = new QCheckBox(tr("Use the file's machine"), this);
    m_useFile->setToolTip(tr("Job-shop files and generated families define their own devices and machine types"));
    m_fileSummary = new QLabel(this);
    m_fileSummary->setStyleSheet(QStringLiteral("color: palette(mid)"));
    m_devices = new QSpinBox(this);
    m_devices->setRange(1, 256);
    m_devices->setValue(4);
    m_devices->setToolTip(tr("Identical devices of machine type 0"));
    m_memoryGiB = new QDoubleSpinBox(this);
    m_memoryGiB->setRange(0, 1e6);
    m_memoryGiB->setDecimals(3);
    m_memoryGiB->setSuffix(tr(" GiB"));
    m_memoryGiB->setSpecialValueText(tr("unlimited"));
    m_memoryGiB->setToolTip(tr("Memory capacity of each device; 0 = unlimited"));
    m_latency = new QDoubleSpinBox(this);
    m_latency->setRange(0, 1e9);
    m_latency->setDecimals(3);
    m_latency->setToolTip(tr("Fixed cost of a transfer between two devices, in time units"));
    m_bandwidth = new QDoubleSpinBox(this);
    m_bandwidth->setRange(0, 1e15);
    m_bandwidth->setDecimals(0);
    m_bandwidth->setSpecialValueText(tr("infinite"));
    m_bandwidth->setSuffix(tr(" B/unit"));
    m_bandwidth->setToolTip(tr("Bytes moved per time unit; 0 = infinite (free transfers)"));
    m_objective = new QComboBox(this);
    m_objective->addItem(tr("Makespan"), static_cast<int>(Objective::Makespan));
    m_objective->addItem(tr("Peak memory"), static_cast<int>(Objective::Memory));
    m_objective->addItem(tr("Both (weighted)"), static_cast<int>(Objective::Weighted));
    m_weight = new QDoubleSpinBox(this);
    m_weight->setRange(0, 1);
    m_weight->setSingleStep(0.1);
    m_weight->setValue(0.5);
    m_weight->setToolTip(tr("Share of peak memory in the weighted objective"));
    m_clock = new QComboBox(this);
    m_clock->addItem(tr("Step (papers)"), static_cast<int>(MemoryClock::Step));
    m_clock->addItem(tr("Time (memory view)"), static_cast<int>(MemoryClock::Time));
    m_clock->setToolTip(tr("The peak memory the cost reads: step = one op or transfer per step of the order, as "
                           "REGAL and Topoformer define it; time = memory over time of the timed schedule. "
                           "The results table shows both."));

    m_target = new QComboBox(this);
    m_target->setObjectName(QStringLiteral("targetCombo"));
    for (TargetModel t : {TargetModel::Proxy, TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency})
        m_target->addItem(QString::fromStdString(toString(t)), static_cast<int>(t));
    m_target->setItemData(0, tr("Free transfers, durations as profiled: the clock optimizers see"), Qt::ToolTipRole);
    m_target->setItemData(1, tr("Every duration × exp(N(0, 0.5²)), drawn once per graph: a profiling error"), Qt::ToolTipRole);
    m_target->setItemData(2, tr("Cross-device edges pay 8 ρ̄ per memory unit + 0.1 ρ̄ (ρ̄ = mean duration)"), Qt::ToolTipRole);
    m_target->setItemData(3, tr("Cross-device edges pay 0.1 ρ̄ per memory unit + 2 ρ̄"), Qt::ToolTipRole);
    m_target->setToolTip(tr("Target model finished runs are also scored on: the results' Speedup column and the "
                            "Temperature panel's best-of-k (docs/costmodel.md)"));

    auto* loadButton = new QPushButton(tr("Platform file…"), this);
    loadButton->setToolTip(tr("Load devices, memory and interconnect from a platform JSON file"));
    connect(loadButton, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open platform"), {}, tr("Platform JSON (*.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !loadPlatformFile(path, &error)) Q_EMIT loadFailed(error);
    });
    form->addRow(m_useFile);
    form->addRow(m_fileSummary);
    form->addRow(loadButton);
    form->addRow(tr("Devices"), m_devices);
    form->addRow(tr("Memory / device"), m_memoryGiB);
    form->addRow(tr("Latency"), m_latency);
    form->addRow(tr("Bandwidth"), m_bandwidth);
    form->addRow(tr("Objective"), m_objective);
    form->addRow(tr("Memory weight"), m_weight);
    form->addRow(tr("Memory clock"), m_clock);
    form->addRow(tr("Score on"), m_target);

    for (auto* s : {m_memoryGiB, m_latency, m_bandwidth, m_weight})
        connect(s, &QDoubleSpinBox::valueChanged, this, &PlatformPanel::changed);
    connect(m_devices, &QSpinBox::valueChanged, this, &PlatformPanel::changed);
    connect(m_objective, &QComboBox::currentIndexChanged, this, [this] { updateEnabled(); Q_EMIT changed(); });
    connect(m_clock, &QComboBox::currentIndexChanged, this, &PlatformPanel::changed);
    connect(m_target, &QComboBox::currentIndexChanged, this, &PlatformPanel::changed);
    connect(m_useFile, &QCheckBox::toggled, this, [this] { updateEnabled(); Q_EMIT changed(); });
    setFilePlatform(std::nullopt);
}

void PlatformPanel::setFilePlatform(const std::optional<Platform>& p) {
    m_filePlatform = p;
    m_useFile->setEnabled(p.has_value());
    m_useFile->setChecked(p.has_value());
    if (p) {
        std::vector<int> types;
        for (const auto& d : p->devices) types.push_back(d.machineType);
        std::sort(types.begin(), types.end());
        const auto distinct = std::unique(types.begin(), types.end()) - types.begin();
        m_fileSummary->setText(tr("%n device(s), %1 machine type(s)", nullptr, p->deviceCount()).arg(distinct));
    } else {
        m_fileSummary->setText(tr("The graph file defines no machine"));
    }
    updateEnabled();
}

bool PlatformPanel::loadPlatformFile(const QString& path, QString* error) {
    try {
        const Platform p = readPlatformFile(path);
        setFilePlatform(p);
        m_latency->setValue(p.link.latency);   // the panel shows (and may edit) the file's link
        m_bandwidth->setValue(std::isfinite(p.link.bandwidth) ? p.link.bandwidth : 0);
        m_fileSummary->setText(QFileInfo(path).fileName() + QStringLiteral(": ") + m_fileSummary->text());
        Q_EMIT changed();
        return true;
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
}

void PlatformPanel::adoptPlatform(const Platform& p, const QString& origin) {
    if (p.devices.empty()) return;
    const Platform same = Platform::identical(p.deviceCount(), p.devices.front().memoryCapacity);
    const bool identical = std::equal(p.devices.begin(), p.devices.end(), same.devices.begin(), [](const Device& a, const Device& b) {
        return a.name == b.name && a.machineType == b.machineType && a.memoryCapacity == b.memoryCapacity && a.resourceCapacity == b.resourceCapacity;
    });
    if (identical) {
        setDeviceCount(p.deviceCount());
        const double memory = p.devices.front().memoryCapacity;
        m_memoryGiB->setValue(std::isfinite(memory) ? memory / (1024.0 * 1024.0 * 1024.0) : 0);
    } else {
        setFilePlatform(p);
        m_memoryGiB->setValue(0);   // "as in the file": the schedule's own capacities
        m_fileSummary->setText(origin + QStringLiteral(": ") + m_fileSummary->text());
    }
    m_latency->setValue(p.link.latency);
    m_bandwidth->setValue(std::isfinite(p.link.bandwidth) ? p.link.bandwidth : 0);
    Q_EMIT changed();
}

void PlatformPanel::updateEnabled() {
    const bool file = m_useFile->isChecked() && m_filePlatform;
    m_devices->setEnabled(!file);
    m_memoryGiB->setSpecialValueText(file ? tr("as in the file") : tr("unlimited"));
    m_weight->setEnabled(m_objective->currentData().toInt() == static_cast<int>(Objective::Weighted));
}

Platform PlatformPanel::platform() const {
    Platform p = (m_useFile->isChecked() && m_filePlatform) ? *m_filePlatform : Platform::identical(m_devices->value());
    if (m_memoryGiB->value() > 0)
        for (auto& d : p.devices) d.memoryCapacity = m_memoryGiB->value() * 1024.0 * 1024.0 * 1024.0;
    p.link.latency = m_latency->value();
    p.link.bandwidth = m_bandwidth->value() > 0 ? m_bandwidth->value() : kInfinity;
    return p;
}

ObjectiveSpec PlatformPanel::objective() const {
    ObjectiveSpec o;
    o.kind = static_cast<Objective>(m_objective->currentData().toInt());
    o.memoryWeight = m_weight->value();
    o.memoryClock = static_cast<MemoryClock>(m_clock->currentData().toInt());
    return o;
}

TargetModel PlatformPanel::target() const {
    return static_cast<TargetModel>(m_target->currentData().toInt());
}

void PlatformPanel::setTarget(TargetModel t) {
    m_target->setCurrentIndex(m_target->findData(static_cast<int>(t)));
}

void PlatformPanel::setDeviceCount(int n) {
    m_useFile->setChecked(false);
    m_devices->setValue(n);
}

void PlatformPanel::setObjective(Objective o) {
    m_objective->setCurrentIndex(m_objective->findData(static_cast<int>(o)));
}

void PlatformPanel::saveSettings() const {
    QSettings s;
    s.beginGroup(QStringLiteral("platform"));
    s.setValue(QStringLiteral("devices"), m_devices->value());
    s.setValue(QStringLiteral("memoryGiB"), m_memoryGiB->value());
    s.setValue(QStringLiteral("latency"), m_latency->value());
    s.setValue(QStringLiteral("bandwidth"), m_bandwidth->value());
    s.setValue(QStringLiteral("objective"), m_objective->currentIndex());
    s.setValue(QStringLiteral("weight"), m_weight->value());
    s.setValue(QStringLiteral("memoryClock"), m_clock->currentIndex());
    s.setValue(QStringLiteral("target"), m_target->currentIndex());
}

void PlatformPanel::restoreSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("platform"));
    m_devices->setValue(s.value(QStringLiteral("devices"), 4).toInt());
    m_memoryGiB->setValue(s.value(QStringLiteral("memoryGiB"), 0.0).toDouble());
    m_latency->setValue(s.value(QStringLiteral("latency"), 0.0).toDouble());
    m_bandwidth->setValue(s.value(QStringLiteral("bandwidth"), 0.0).toDouble());
    m_objective->setCurrentIndex(s.value(QStringLiteral("objective"), 0).toInt());
    m_weight->setValue(s.value(QStringLiteral("weight"), 0.5).toDouble());
    m_clock->setCurrentIndex(s.value(QStringLiteral("memoryClock"), 0).toInt());
    m_target->setCurrentIndex(s.value(QStringLiteral("target"), 0).toInt());
}

void PlatformPanel::observe(const Document* doc) {
    connect(doc, &Document::graphChanged, this, [this, doc] { setFilePlatform(doc->graph()->platform); });
}

} // namespace sl::gui

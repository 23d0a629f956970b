// SPDX-License-Identifier: MIT
#include "widgets/panels/platformpanel.h"

#include "widgets/panels/learnmachinedialog.h"

#include "widgets/session/document.h"
#include "widgets/session/platformfile.h"

#include "core/timing/machine.h"

#include <QBoxLayout>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace sl::gui {
namespace {

const QString kAbstractMachine = QStringLiteral("abstract");
const QString kDevicePrefix = QStringLiteral("device:");
const QString kPresetPrefix = QStringLiteral("preset:");

}   // namespace

PlatformPanel::PlatformPanel(QWidget* parent) : QWidget(parent) {
    connect(this, &PlatformPanel::changed, this, &PlatformPanel::announceMachine);
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    buildMachineCombo();
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
    m_sharedLinks = new QCheckBox(tr("Shared links"), this);
    m_sharedLinks->setObjectName(QStringLiteral("sharedLinks"));
    m_sharedLinks->setChecked(true);
    m_sharedLinks->setToolTip(
        tr("A link carries one transfer at a time, as real NVLink and PCIe ports and NICs do; every "
           "method plans with it (docs/time.md, \"Shared links\"). Off: each transfer has its route to "
           "itself. Only a machine with routes (a preset, a platform file's topology) has links to share."));
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
    for (TargetModel t : {TargetModel::Proxy, TargetModel::Noisy, TargetModel::Bandwidth, TargetModel::Latency,
                          TargetModel::SharedLinks, TargetModel::Measured})
        m_target->addItem(QString::fromStdString(toString(t)), static_cast<int>(t));
    m_target->setItemData(0, tr("Free transfers, durations as profiled: the clock optimizers see"), Qt::ToolTipRole);
    m_target->setItemData(1, tr("Every duration × exp(N(0, 0.5²)), drawn once per graph: a profiling error"),
                          Qt::ToolTipRole);
    m_target->setItemData(2, tr("Cross-device edges pay 8 ρ̄ per memory unit + 0.1 ρ̄ (ρ̄ = mean duration)"),
                          Qt::ToolTipRole);
    m_target->setItemData(3, tr("Cross-device edges pay 0.1 ρ̄ per memory unit + 2 ρ̄"), Qt::ToolTipRole);
    m_target->setItemData(4,
                          tr("This machine with its links shared: one transfer at a time per link (a preset's routes); "
                             "samples drawn on the free proxy, judged where their transfers queue"),
                          Qt::ToolTipRole);
    m_target->setItemData(5,
                          tr("The profile applied below, as a real machine: the graph keeps this machine's estimated "
                             "times, runs and samples are made on them and judged on the measured ones (docs/time.md, "
                             "\"A real target\")"),
                          Qt::ToolTipRole);
    m_target->setToolTip(tr("Target model finished runs are also scored on: the results' Speedup column and the "
                            "Temperature panel's best-of-k (docs/costmodel.md)"));

    auto* loadButton = new QPushButton(tr("Platform file…"), this);
    loadButton->setToolTip(tr("Load devices, memory and interconnect from a platform JSON file"));
    connect(loadButton, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Open platform"), {}, tr("Platform JSON (*.json);;All files (*)"));
        QString error;
        if (!path.isEmpty() && !loadPlatformFile(path, &error)) Q_EMIT loadFailed(error);
    });
    form->addRow(tr("Machine"), m_machine);
    form->addRow(m_useFile);
    form->addRow(m_fileSummary);
    form->addRow(loadButton);
    form->addRow(buildLearnButton());
    form->addRow(tr("Devices"), m_devices);
    form->addRow(tr("Memory / device"), m_memoryGiB);
    form->addRow(tr("Latency"), m_latency);
    form->addRow(tr("Bandwidth"), m_bandwidth);
    form->addRow(m_sharedLinks);
    form->addRow(tr("Profile"), buildProfileRow());
    form->addRow(tr("Objective"), m_objective);
    form->addRow(tr("Memory weight"), m_weight);
    form->addRow(tr("Memory clock"), m_clock);
    form->addRow(tr("Score on"), m_target);

    for (auto* s : {m_memoryGiB, m_latency, m_bandwidth, m_weight})
        connect(s, &QDoubleSpinBox::valueChanged, this, &PlatformPanel::changed);
    connect(m_devices, &QSpinBox::valueChanged, this, &PlatformPanel::changed);
    connect(m_objective, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    connect(m_clock, &QComboBox::currentIndexChanged, this, &PlatformPanel::changed);
    connect(m_target, &QComboBox::currentIndexChanged, this, &PlatformPanel::changed);
    connect(m_useFile, &QCheckBox::toggled, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    connect(m_sharedLinks, &QCheckBox::toggled, this, &PlatformPanel::changed);
    connect(m_machine, &QComboBox::currentIndexChanged, this, [this] {
        onMachineChosen();
        Q_EMIT changed();
    });
    setFilePlatform(std::nullopt);
}

void PlatformPanel::buildMachineCombo() {
    m_machine = new QComboBox(this);
    m_machine->setObjectName(QStringLiteral("machineCombo"));
    m_machine->setSizeAdjustPolicy(
        QComboBox::AdjustToMinimumContentsLengthWithIcon);   // long preset names do not widen the dock
    m_machine->setMinimumContentsLength(18);
    fillMachineCombo();
    m_machine->setToolTip(tr("The machine: abstract devices keep the file's op times; a catalogue device or a preset "
                             "times every op whose work is known by its roofline (docs/time.md)"));
}

void PlatformPanel::fillMachineCombo() {
    m_machine->addItem(tr("Abstract devices"), kAbstractMachine);
    m_machine->setItemData(
        0, tr("N identical devices joined by one link (latency, bandwidth); op times as the file gives them"),
        Qt::ToolTipRole);
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    m_machine->insertSeparator(m_machine->count());
    for (const DeviceSpec& d : catalog.devices()) {
        m_machine->addItem(QString::fromStdString(d.name), kDevicePrefix + QString::fromStdString(d.id));
        m_machine->setItemData(m_machine->count() - 1,
                               tr("N of this device (%1), joined by the link below; every op timed by its roofline")
                                   .arg(QString::fromStdString(d.id)),
                               Qt::ToolTipRole);
    }
    m_machine->insertSeparator(m_machine->count());
    for (const PlatformPreset& p : catalog.presets()) {   // "DGX A100": the rest of its name in the tooltip
        m_machine->addItem(QString::fromStdString(p.name).section(QLatin1Char(':'), 0, 0),
                           kPresetPrefix + QString::fromStdString(p.id));
        m_machine->setItemData(m_machine->count() - 1,
                               tr("%1 (%2): its devices and links, or its first N devices")
                                   .arg(QString::fromStdString(p.name), QString::fromStdString(p.id)),
                               Qt::ToolTipRole);
    }
}

QWidget* PlatformPanel::buildProfileRow() {
    auto* row = new QWidget(this);   // the file's name on a line of its own, the buttons under it
    auto* column = new QVBoxLayout(row);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    auto* layout = new QHBoxLayout;
    layout->setContentsMargins(0, 0, 0, 0);
    m_profile = new QLineEdit(row);   // a field: a long file name scrolls in it instead of widening the dock
    m_profile->setObjectName(QStringLiteral("profileName"));
    m_profile->setReadOnly(true);
    m_profile->setPlaceholderText(tr("none"));
    m_profile->setMinimumWidth(40);
    auto* choose = new QPushButton(tr("Profile…"), row);
    choose->setObjectName(QStringLiteral("profileButton"));
    choose->setToolTip(
        tr("Apply measured op times: a profile of schedlab-cli profile, or ONNX Runtime's profiling JSON"));
    m_clearProfile = new QPushButton(tr("Clear"), row);
    m_clearProfile->setObjectName(QStringLiteral("clearProfileButton"));
    m_clearProfile->setToolTip(tr("Back to the times of the file or the machine's devices"));
    m_clearProfile->setEnabled(false);
    column->addWidget(m_profile);
    layout->addWidget(choose, 1);
    layout->addWidget(m_clearProfile);
    column->addLayout(layout);
    connect(choose, &QPushButton::clicked, this, [this] {
        QSettings s;
        const QString path = QFileDialog::getOpenFileName(this, tr("Apply a measured profile"),
                                                          s.value(QStringLiteral("lastProfileDir")).toString(),
                                                          tr("Profiles (*.json);;All files (*)"));
        if (path.isEmpty()) return;
        s.setValue(QStringLiteral("lastProfileDir"), QFileInfo(path).absolutePath());
        Q_EMIT profileRequested(path);
    });
    connect(m_clearProfile, &QPushButton::clicked, this, &PlatformPanel::profileClearRequested);
    return row;
}

QWidget* PlatformPanel::buildLearnButton() {
    auto* learn = new QPushButton(tr("Learn from profiles…"), this);
    learn->setObjectName(QStringLiteral("learnMachineButton"));
    learn->setToolTip(
        tr("A catalogue device fitted to your runtime's measured profiles of some models, to time the others "
           "(schedlab-cli calibrate --from)"));
    connect(learn, &QPushButton::clicked, this, [this] { openLearnDialog()->open(); });
    return learn;
}

LearnMachineDialog* PlatformPanel::openLearnDialog() {
    auto* dialog = new LearnMachineDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const OpenGraph* open = m_document ? m_document->graph() : nullptr;
    if (open && open->timing.profile && !open->path.isEmpty()) dialog->addPair(open->path, open->timing.profile->path);
    connect(dialog, &LearnMachineDialog::learned, this, &PlatformPanel::adoptLearnedDevice);
    return dialog;
}

void PlatformPanel::adoptLearnedDevice(const QString& id) {
    const QString key = machineKey();
    const int count = m_devices->value();
    {
        const QSignalBlocker quiet(m_machine);
        m_machine->clear();
        fillMachineCombo();
        const int kept = m_machine->findData(key);
        m_machine->setCurrentIndex(kept < 0 ? 0 : kept);
    }
    selectMachine(kDevicePrefix + id, count);
}

QString PlatformPanel::machineKey() const {
    const QString key = m_machine->currentData().toString();
    return key.isEmpty() ? kAbstractMachine : key;
}

bool PlatformPanel::selectMachine(const QString& key, int count) {
    if (key != kAbstractMachine) {   // core's one rule and its words, as the CLI and studies refuse
        const bool device = key.startsWith(kDevicePrefix);
        const std::string id = key.mid(device ? kDevicePrefix.size() : kPresetPrefix.size()).toStdString();
        (void)resolveMachine({.preset = device ? "" : id, .device = device ? id : "", .devices = count},
                             DeviceCatalog::instance(), m_timeUnit);
    }
    const int index = m_machine->findData(key);
    if (index < 0) return false;
    {
        const QSignalBlocker quiet(m_machine);   // one changed() below, for the machine and its count
        m_machine->setCurrentIndex(index);
    }
    onMachineChosen();
    if (count > 0) {
        const QSignalBlocker quiet(m_devices), quietFile(m_useFile);
        m_devices->setValue(count);
        if (key == kAbstractMachine) m_useFile->setChecked(false);   // N identical devices, as setDeviceCount()
        updateEnabled();
    }
    Q_EMIT changed();
    return true;
}

void PlatformPanel::onMachineChosen() {
    const QSignalBlocker quiet(m_devices);   // the caller says changed() once
    const QString key = machineKey();
    if (key.startsWith(kPresetPrefix)) {   // all of the preset's devices, or its first N
        const PlatformPreset* preset =
            DeviceCatalog::instance().findPreset(key.mid(kPresetPrefix.size()).toStdString());
        const int n = preset ? preset->deviceCount() : 1;
        m_devices->setRange(1, n);
        m_devices->setValue(n);
    } else {
        m_devices->setRange(1, 256);
    }
    updateEnabled();
}

Platform PlatformPanel::catalogueMachine() const {
    const DeviceCatalog& catalog = DeviceCatalog::instance();
    const QString key = machineKey();
    const int n = m_devices->value();
    MachineName name{.devices = n};   // core's one rule (the spin box's range is the preset's count)
    if (key.startsWith(kDevicePrefix)) {
        name.device = key.mid(kDevicePrefix.size()).toStdString();
        name.link = {m_latency->value(), m_bandwidth->value() > 0 ? m_bandwidth->value() : kInfinity};
    } else {
        name.preset = key.mid(kPresetPrefix.size()).toStdString();
    }
    return resolveMachine(name, catalog, m_timeUnit);
}

bool PlatformPanel::adoptCatalogueMachine(const Platform& p) {
    if (p.devices.empty() || p.devices.front().model.empty()) return false;
    const QString name = QString::fromStdString(p.name);
    for (const PlatformPreset& preset : DeviceCatalog::instance().presets()) {
        const QString presetName = QString::fromStdString(preset.name);
        if (name == presetName ||
            name.endsWith(QStringLiteral(" of ") + presetName))   // firstDevices() names "4 of ..."
            return selectMachine(kPresetPrefix + QString::fromStdString(preset.id),
                                 p.deviceCount());   // fits: p has them
    }
    const DeviceSpec* spec = DeviceCatalog::instance().findDevice(p.devices.front().model);
    if (!spec || p.name != std::to_string(p.deviceCount()) + " x " + spec->name)
        return false;   // catalogPlatform()'s name, else a machine of its own
    {
        const QSignalBlocker quietLatency(m_latency), quietBandwidth(m_bandwidth);   // selectMachine says changed()
        m_latency->setValue(p.link.latency);
        m_bandwidth->setValue(std::isfinite(p.link.bandwidth) ? p.link.bandwidth : 0);
    }
    return selectMachine(kDevicePrefix + QString::fromStdString(spec->id), p.deviceCount());
}

void PlatformPanel::chooseAbstractQuietly() {
    if (machineKey() == kAbstractMachine) return;
    const QSignalBlocker quiet(m_machine);   // the caller says changed()
    m_machine->setCurrentIndex(m_machine->findData(kAbstractMachine));
    onMachineChosen();
}

void PlatformPanel::showProfileOf(const Document* doc) {
    const OpenGraph* open = doc->graph();
    const GraphProfile* profile = open ? open->timing.profile.get() : nullptr;
    m_profile->setText(profile ? QFileInfo(profile->path).fileName() : QString());
    m_profile->setCursorPosition(0);
    m_profile->setToolTip(profile ? profileSummary(*profile)
                                  : tr("No measured profile: the times of the file or of the machine's devices"));
    m_clearProfile->setEnabled(profile != nullptr);
}

void PlatformPanel::setFilePlatform(const std::optional<Platform>& p) {
    m_filePlatform = p;
    if (p && !p->topology.empty()) {
        const QSignalBlocker quiet(m_sharedLinks);
        m_sharedLinks->setChecked(p->topology.shared);   // as the file says (shared unless "shared": false)
    }
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
        chooseAbstractQuietly();   // the file's machine is one of abstract devices
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
    if (!p.topology.empty()) {
        const QSignalBlocker quiet(m_sharedLinks);   // the machine's change below says changed()
        m_sharedLinks->setChecked(p.topology.shared);
    }
    if (p.devices.empty() || adoptCatalogueMachine(p)) return;
    chooseAbstractQuietly();
    const Platform same = Platform::identical(p.deviceCount(), p.devices.front().memoryCapacity);
    const bool identical =
        std::equal(p.devices.begin(), p.devices.end(), same.devices.begin(), [](const Device& a, const Device& b) {
            return a.name == b.name && a.machineType == b.machineType && a.memoryCapacity == b.memoryCapacity &&
                a.resourceCapacity == b.resourceCapacity;
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

void PlatformPanel::setSharedLinks(bool shared) { m_sharedLinks->setChecked(shared); }

void PlatformPanel::updateEnabled() {
    const QString key = machineKey();
    const bool abstract = key == kAbstractMachine;
    const bool file = abstract && m_useFile->isChecked() && m_filePlatform;
    m_useFile->setEnabled(abstract && m_filePlatform);   // a catalogue machine has its own devices
    m_devices->setEnabled(!file);
    m_devices->setToolTip(abstract                            ? tr("Identical devices of machine type 0")
                              : key.startsWith(kPresetPrefix) ? tr("The preset's first N devices")
                                                              : tr("How many of this device"));
    const bool ownLinks = key.startsWith(kPresetPrefix);   // a preset's topology replaces the one link
    m_latency->setEnabled(!ownLinks);
    m_bandwidth->setEnabled(!ownLinks);
    m_sharedLinks->setEnabled(ownLinks || (file && !m_filePlatform->topology.empty()));
    m_memoryGiB->setSpecialValueText(file ? tr("as in the file") : abstract ? tr("unlimited") : tr("as catalogued"));
    m_weight->setEnabled(m_objective->currentData().toInt() == static_cast<int>(Objective::Weighted));
}

Platform PlatformPanel::platform() const {
    const bool abstract = machineKey() == kAbstractMachine;
    Platform p = !abstract                           ? catalogueMachine()
        : (m_useFile->isChecked() && m_filePlatform) ? *m_filePlatform
                                                     : Platform::identical(m_devices->value());
    if (m_memoryGiB->value() > 0)
        for (auto& d : p.devices) d.memoryCapacity = m_memoryGiB->value() * 1024.0 * 1024.0 * 1024.0;
    if (!p.topology.empty()) p.topology.shared = m_sharedLinks->isChecked();
    if (!abstract) return p;   // the device's link is catalogPlatform's, a preset's are its topology
    p.link.latency = m_latency->value();
    p.link.bandwidth = m_bandwidth->value() > 0 ? m_bandwidth->value() : kInfinity;
    return p;
}

Machine PlatformPanel::machine() const { return {platform(), objective(), target()}; }

void PlatformPanel::announceMachine() {
    std::optional<Machine> m;
    try {
        m = machine();
    } catch (const std::exception& e) {
        return Q_EMIT machineRefused(QString::fromUtf8(e.what()));
    }
    Q_EMIT machineChosen(*m);
}

ObjectiveSpec PlatformPanel::objective() const {
    ObjectiveSpec o;
    o.kind = static_cast<Objective>(m_objective->currentData().toInt());
    o.memoryWeight = m_weight->value();
    o.memoryClock = static_cast<MemoryClock>(m_clock->currentData().toInt());
    return o;
}

TargetModel PlatformPanel::target() const { return static_cast<TargetModel>(m_target->currentData().toInt()); }

void PlatformPanel::setTarget(TargetModel t) { m_target->setCurrentIndex(m_target->findData(static_cast<int>(t))); }

void PlatformPanel::setDeviceCount(int n) {
    m_useFile->setChecked(false);
    m_devices->setValue(n);   // a preset's first N at most
}

void PlatformPanel::setObjective(Objective o) {
    m_objective->setCurrentIndex(m_objective->findData(static_cast<int>(o)));
}

void PlatformPanel::saveSettings() const {
    QSettings s;
    s.beginGroup(QStringLiteral("platform"));
    s.setValue(QStringLiteral("machine"), machineKey());
    s.setValue(QStringLiteral("devices"), m_devices->value());
    s.setValue(QStringLiteral("memoryGiB"), m_memoryGiB->value());
    s.setValue(QStringLiteral("latency"), m_latency->value());
    s.setValue(QStringLiteral("bandwidth"), m_bandwidth->value());
    s.setValue(QStringLiteral("sharedLinks"), m_sharedLinks->isChecked());
    s.setValue(QStringLiteral("objective"), m_objective->currentIndex());
    s.setValue(QStringLiteral("weight"), m_weight->value());
    s.setValue(QStringLiteral("memoryClock"), m_clock->currentIndex());
    s.setValue(QStringLiteral("target"), m_target->currentIndex());
}

void PlatformPanel::restoreSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("platform"));
    if (const int machine = m_machine->findData(s.value(QStringLiteral("machine"), kAbstractMachine)); machine >= 0) {
        const QSignalBlocker quiet(m_machine);   // the window reads the machine once restored
        m_machine->setCurrentIndex(machine);
        onMachineChosen();
    }
    m_devices->setValue(s.value(QStringLiteral("devices"), 4).toInt());
    m_memoryGiB->setValue(s.value(QStringLiteral("memoryGiB"), 0.0).toDouble());
    m_latency->setValue(s.value(QStringLiteral("latency"), 0.0).toDouble());
    m_bandwidth->setValue(s.value(QStringLiteral("bandwidth"), 0.0).toDouble());
    m_sharedLinks->setChecked(s.value(QStringLiteral("sharedLinks"), true).toBool());
    m_objective->setCurrentIndex(s.value(QStringLiteral("objective"), 0).toInt());
    m_weight->setValue(s.value(QStringLiteral("weight"), 0.5).toDouble());
    m_clock->setCurrentIndex(s.value(QStringLiteral("memoryClock"), 0).toInt());
    m_target->setCurrentIndex(s.value(QStringLiteral("target"), 0).toInt());
}

void PlatformPanel::observe(const Document* doc) {
    m_document = doc;
    connect(doc, &Document::graphChanged, this, [this, doc] {
        const TimeUnit unit = doc->graph()->graph->timeUnit();
        const bool relink = unit != m_timeUnit && machineKey().startsWith(kPresetPrefix);
        m_timeUnit = unit;   // a preset's links in the graph's unit
        setFilePlatform(doc->graph()->platform);
        showProfileOf(doc);
        if (relink) Q_EMIT changed();
    });
    connect(doc, &Document::timesChanged, this, [this, doc] { showProfileOf(doc); });
}

}   // namespace sl::gui

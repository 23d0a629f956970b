// SPDX-License-Identifier: MIT
#include "widgets/panels/learnmachinedialog.h"

#include "widgets/session/background.h"

#include "core/profile/learnedmachine.h"
#include "core/timing/catalog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

#include <utility>
#include <vector>

namespace sl::gui {
namespace {

enum Column { ModelColumn, ProfileColumn };

struct LearnRequest {
    std::vector<std::pair<std::string, std::string>> pairs;   // model, profile
    std::string baseId, id;
};

/// Off the GUI thread: reads every model and profile, fits, writes the entry; returns its path.
std::string learnAndWrite(const LearnRequest& r) {
    std::vector<ProfiledModel> models;
    for (const auto& [model, profile] : r.pairs) models.push_back(loadProfiledModel(model, profile));
    const DeviceSpec learned = learnedDevice(DeviceCatalog::instance().device(r.baseId), models, r.id);
    const std::string path = DeviceCatalog::userEntryPath(r.id);
    saveDeviceSpec(learned, path);
    return path;
}

QTableWidgetItem* fileItem(const QString& path) {
    auto* item = new QTableWidgetItem(QFileInfo(path).fileName());
    item->setData(Qt::UserRole, path);
    item->setToolTip(path);
    item->setFlags(item->flags() & ~Qt::ItemIsEditable);
    return item;
}

}   // namespace

LearnMachineDialog::LearnMachineDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Learn a machine from profiles"));
    auto* intro = new QLabel(tr("Fits how your runtime departs from a catalogue device's roofline, per op type (else "
                                "class), from models you profiled: ONNX Runtime's profiling JSON or schedlab-cli "
                                "profile's output, all of one runtime on one machine. The result is a new catalogue "
                                "device that times every model, also those you did not profile (docs/time.md)."),
                             this);
    intro->setWordWrap(true);
    m_pairs = new QTableWidget(0, 2, this);
    m_pairs->setObjectName(QStringLiteral("learnPairs"));
    m_pairs->setHorizontalHeaderLabels({tr("Model"), tr("Profile")});
    m_pairs->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_pairs->verticalHeader()->hide();
    m_pairs->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* add = new QPushButton(tr("Add model and profile…"), this);
    m_remove = new QPushButton(tr("Remove"), this);
    auto* pairButtons = new QHBoxLayout;
    pairButtons->addWidget(add);
    pairButtons->addWidget(m_remove);
    pairButtons->addStretch(1);

    m_base = new QComboBox(this);
    m_base->setObjectName(QStringLiteral("learnBase"));
    for (const DeviceSpec& d : DeviceCatalog::instance().devices())
        m_base->addItem(QString::fromStdString(d.name), QString::fromStdString(d.id));
    m_base->setToolTip(tr("The device whose roofline (peaks, bandwidth, launch) the fit corrects: the machine the "
                          "profiles ran on, e.g. this machine after schedlab-cli calibrate"));
    m_id = new QLineEdit(this);
    m_id->setObjectName(QStringLiteral("learnId"));
    m_id->setToolTip(tr("The new device's id in the catalogue (--device ID in schedlab-cli); an entry of yours with "
                        "this id is replaced"));
    auto* form = new QFormLayout;
    form->addRow(tr("Starting from"), m_base);
    form->addRow(tr("New device id"), m_id);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("learnStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_learn = buttons->addButton(tr("Learn"), QDialogButtonBox::AcceptRole);
    m_learn->setObjectName(QStringLiteral("learnButton"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_pairs, 1);
    layout->addLayout(pairButtons);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(buttons);
    resize(640, 420);

    setBaseDevice(QStringLiteral("this-machine"));
    setEntryId(QStringLiteral("fitted-") + m_base->currentData().toString());
    connect(m_base, &QComboBox::currentIndexChanged, this, [this] {
        if (m_id->text().startsWith(QLatin1String("fitted-")))
            setEntryId(QStringLiteral("fitted-") + m_base->currentData().toString());
    });
    connect(add, &QPushButton::clicked, this, &LearnMachineDialog::chooseModelAndProfile);
    connect(m_remove, &QPushButton::clicked, this, [this] {
        m_pairs->removeRow(m_pairs->currentRow());
        updateEnabled();
    });
    connect(m_pairs, &QTableWidget::itemSelectionChanged, this, &LearnMachineDialog::updateEnabled);
    connect(m_id, &QLineEdit::textChanged, this, &LearnMachineDialog::updateEnabled);
    connect(buttons, &QDialogButtonBox::accepted, this, &LearnMachineDialog::learn);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateEnabled();
}

void LearnMachineDialog::addPair(const QString& modelPath, const QString& profilePath) {
    int row = 0;
    while (row < m_pairs->rowCount() && m_pairs->item(row, ModelColumn)->data(Qt::UserRole).toString() != modelPath)
        ++row;
    if (row == m_pairs->rowCount()) m_pairs->insertRow(row);
    m_pairs->setItem(row, ModelColumn, fileItem(modelPath));
    m_pairs->setItem(row, ProfileColumn, fileItem(profilePath));
    updateEnabled();
}

int LearnMachineDialog::pairCount() const { return m_pairs->rowCount(); }

bool LearnMachineDialog::setBaseDevice(const QString& id) {
    const int i = m_base->findData(id);
    if (i < 0) return false;
    m_base->setCurrentIndex(i);
    return true;
}

void LearnMachineDialog::setEntryId(const QString& id) { m_id->setText(id); }

QString LearnMachineDialog::errorText() const { return m_status->property("error").toString(); }

void LearnMachineDialog::chooseModelAndProfile() {
    QSettings s;
    const QString model = QFileDialog::getOpenFileName(this, tr("A model you profiled"),
                                                       s.value(QStringLiteral("lastOpenDir")).toString(),
                                                       tr("Models (*.onnx *.hlo *.txt *.json *.et);;All files (*)"));
    if (model.isEmpty()) return;
    const QString profile = QFileDialog::getOpenFileName(
        this, tr("Its measured profile (%1)").arg(QFileInfo(model).fileName()),
        s.value(QStringLiteral("lastProfileDir"), QFileInfo(model).absolutePath()).toString(),
        tr("Profiles (*.json);;All files (*)"));
    if (profile.isEmpty()) return;
    s.setValue(QStringLiteral("lastProfileDir"), QFileInfo(profile).absolutePath());
    addPair(model, profile);
}

void LearnMachineDialog::learn() {
    if (m_running || !m_learn->isEnabled()) return;
    LearnRequest request{.baseId = m_base->currentData().toString().toStdString(),
                         .id = m_id->text().trimmed().toStdString()};
    for (int row = 0; row < m_pairs->rowCount(); ++row)
        request.pairs.emplace_back(m_pairs->item(row, ModelColumn)->data(Qt::UserRole).toString().toStdString(),
                                   m_pairs->item(row, ProfileColumn)->data(Qt::UserRole).toString().toStdString());
    m_running = true;
    m_status->setProperty("error", QString());
    m_status->setStyleSheet({});
    m_status->setText(tr("Reading %n model(s) and fitting…", nullptr, static_cast<int>(request.pairs.size())));
    updateEnabled();
    runInBackground(
        this, [request] { return learnAndWrite(request); },
        [this, id = QString::fromStdString(request.id)](Outcome<std::string> out) {
            m_running = false;
            if (!out.value) return fail(out.error);
            finish(id, QString::fromStdString(*out.value));
        });
}

void LearnMachineDialog::finish(const QString& deviceId, const QString& path) {
    DeviceCatalog::reload();
    m_status->setText(tr("Wrote %1").arg(path));
    updateEnabled();
    Q_EMIT learned(deviceId);
    accept();
}

void LearnMachineDialog::fail(const QString& message) {
    m_status->setProperty("error", message);
    m_status->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; padding: 4px; border-radius: 3px; }"));
    m_status->setText(message);
    updateEnabled();
}

void LearnMachineDialog::updateEnabled() {
    m_learn->setEnabled(!m_running && m_pairs->rowCount() > 0 && !m_id->text().trimmed().isEmpty() &&
                        m_base->count() > 0);
    m_remove->setEnabled(!m_running && m_pairs->currentRow() >= 0);
}

}   // namespace sl::gui

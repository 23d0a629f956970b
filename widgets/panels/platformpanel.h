// SPDX-License-Identifier: MIT
#pragma once
// The machine and the objective: abstract devices (a count, or the file's own platform, and a
// link's latency and bandwidth), N of a catalogue device, or a preset's devices (all, or its first
// N); memory per device; the measured profile on the graph; the objective.
#include "widgets/session/document.h"

#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sl::gui {

class Document;
class LearnMachineDialog;

class PlatformPanel : public QWidget {
    Q_OBJECT
public:
    explicit PlatformPanel(QWidget* parent = nullptr);
    /// Offers the machine `doc`'s open graph names (setFilePlatform) whenever a graph opens.
    void observe(const Document* doc);
    /// The platform a file brought along (job-shop machines, generated families); empty: none.
    void setFilePlatform(const std::optional<Platform>& p);
    Platform platform() const;
    ObjectiveSpec objective() const;
    /// The target model runs are also scored on (Zhang et al. 2023, §5.1 and App. E.3; docs/costmodel.md, 'Fixed device chains and target models'): proxy, noisy, bandwidth, latency.
    TargetModel target() const;
    void setTarget(TargetModel t);
    /// Identical devices (abstract), the count of a catalogue device, or a preset's first N.
    void setDeviceCount(int n);
    void setObjective(Objective o);
    /// Shared links (the default) or free ones, on a machine with a topology.
    void setSharedLinks(bool shared);
    /// The machine kind: "abstract", "device:ID" (catalogue device ID) or "preset:ID"; false for a
    /// key the combo does not list. `count` > 0 also sets the count (a preset's first N). Throws
    /// std::exception with core's message (resolveMachine: the CLI's and studies' one rule) for a
    /// machine it refuses: an unknown id, more devices than the preset has, a count below 0.
    bool selectMachine(const QString& key, int count = 0);
    QString machineKey() const;
    /// Loads a platform JSON file as the machine; false (and `error` set) on bad input.
    bool loadPlatformFile(const QString& path, QString* error = nullptr);
    /// Shows `p` as the machine (a schedule's own platform): a preset's or catalogue device's
    /// machine (by its name) selects it, identical devices set the device count and memory, any
    /// other machine is used like a platform file named `origin`.
    void adoptPlatform(const Platform& p, const QString& origin);
    /// The "Learn from profiles…" dialog, the open graph and its profile as its first pair; when
    /// it has learned, the new device is listed and chosen (N of it, the count kept).
    LearnMachineDialog* openLearnDialog();
    void saveSettings() const;
    void restoreSettings();

    /// The machine the panel describes (its platform, objective and scoring target). Throws
    /// std::exception when it cannot be built (a catalogue entry gone, a preset's device unknown).
    Machine machine() const;
    /// Emits machineChosen() with machine(), or machineRefused() with why it cannot be built.
    void announceMachine();

Q_SIGNALS:
    /// Any of the panel's settings changed; machineChosen() or machineRefused() follows.
    void changed();
    /// The machine after a change, built here, so that the window hands it on without asking back.
    void machineChosen(const sl::gui::Machine& machine);
    void machineRefused(const QString& why);
    void loadFailed(const QString& message);
    /// "Profile…" chose a file: the window applies it to the open graph.
    void profileRequested(const QString& path);
    void profileClearRequested();

private:
    void buildMachineCombo();
    /// The catalogue's devices and presets (it may have been read again since).
    void fillMachineCombo();
    QWidget* buildProfileRow();
    QWidget* buildLearnButton();
    void adoptLearnedDevice(const QString& id);
    void onMachineChosen();
    /// The catalogue machine of the combo (a preset's first N, N of a device); throws IoError.
    Platform catalogueMachine() const;
    /// Selects the preset or catalogue device `p` was made of (by its name); false if none.
    bool adoptCatalogueMachine(const Platform& p);
    /// Abstract devices in the combo, without changed(): the caller emits it.
    void chooseAbstractQuietly();
    void showProfileOf(const Document* doc);
    void updateEnabled();
    const Document* m_document = nullptr;   // the observed one: the learn dialog's first pair
    std::optional<Platform> m_filePlatform;
    TimeUnit m_timeUnit = TimeUnit::Microseconds;   // the open graph's: a preset's links are in it
    QComboBox* m_machine;
    QLineEdit* m_profile;
    QPushButton* m_clearProfile;
    QCheckBox* m_useFile;
    QLabel* m_fileSummary;
    QSpinBox* m_devices;
    QDoubleSpinBox* m_memoryGiB;
    QDoubleSpinBox* m_latency;
    QDoubleSpinBox* m_bandwidth;
    QCheckBox* m_sharedLinks;   ///< a topology's links carry one transfer at a time (on by default)
    QComboBox* m_objective;
    QDoubleSpinBox* m_weight;
    QComboBox* m_clock;
    QComboBox* m_target;
};

}   // namespace sl::gui

// SPDX-License-Identifier: MIT
#pragma once
// The machine and the objective: device count (or the file's own platform), memory per device,
// link latency and bandwidth, objective.
#include "core/costmodel/problem.h"
#include "core/costmodel/target.h"

#include <QWidget>

#include <optional>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace sl::gui {

class Document;

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
    void setDeviceCount(int n);
    void setObjective(Objective o);
    /// Loads a platform JSON file as the machine; false (and `error` set) on bad input.
    bool loadPlatformFile(const QString& path, QString* error = nullptr);
    /// Shows `p` as the machine (a schedule's own platform): identical devices set the device
    /// count and memory, any other machine is used like a platform file named `origin`.
    void adoptPlatform(const Platform& p, const QString& origin);
    void saveSettings() const;
    void restoreSettings();

Q_SIGNALS:
    void changed();
    void loadFailed(const QString& message);

private:
    void updateEnabled();
    std::optional<Platform> m_filePlatform;
    QCheckBox* m_useFile;
    QLabel* m_fileSummary;
    QSpinBox* m_devices;
    QDoubleSpinBox* m_memoryGiB;
    QDoubleSpinBox* m_latency;
    QDoubleSpinBox* m_bandwidth;
    QComboBox* m_objective;
    QDoubleSpinBox* m_weight;
    QComboBox* m_clock;
    QComboBox* m_target;
};

} // namespace sl::gui

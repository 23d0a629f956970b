// SPDX-License-Identifier: MIT
#pragma once
// "Learn a machine from profiles": the explorer's `schedlab-cli calibrate --from`. Models the user
// profiled (each with its ONNX Runtime trace or `schedlab-cli profile` output), a catalogue entry
// whose roofline the fit starts from, and the new entry's id. The fit (core/profile/
// learnedmachine.h) runs off the GUI thread; the entry is written to the user's catalogue
// directory and the catalogue read again, so every machine combo lists it.
#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace sl::gui {

class LearnMachineDialog : public QDialog {
    Q_OBJECT
public:
    explicit LearnMachineDialog(QWidget* parent = nullptr);
    /// A model and its measured profile; the same model twice replaces its profile.
    void addPair(const QString& modelPath, const QString& profilePath);
    int pairCount() const;
    /// The catalogue entry the fit departs from; false for an id the catalogue lacks.
    bool setBaseDevice(const QString& id);
    void setEntryId(const QString& id);
    /// Starts the fit (the Learn button). The dialog accepts when the entry is written, with
    /// learned(id); on failure it stays open with the error shown (errorText()).
    void learn();
    QString errorText() const;

Q_SIGNALS:
    void learned(const QString& deviceId);

private:
    void chooseModelAndProfile();
    void finish(const QString& deviceId, const QString& path);
    void fail(const QString& message);
    void updateEnabled();
    QTableWidget* m_pairs;
    QComboBox* m_base;
    QLineEdit* m_id;
    QLabel* m_status;
    QPushButton* m_learn;
    QPushButton* m_remove;
    bool m_running = false;
};

}   // namespace sl::gui

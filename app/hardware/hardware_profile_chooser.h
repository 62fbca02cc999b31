// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The app's hardware profile (chosen_hardware_profile.h) where a page predicts from it: "Hardware
// profile…" to open a file, "Calibrate this CPU" to measure one in the background (napkin-cli calibrate's
// run, written to the app's data folder and chosen), "None", and a note saying what is predicted from
// what. Every chooser shows the same choice; a file the reader refuses changes nothing but this chooser's
// note, which says why.
#include "engine/steptime/hardware_profile.h"

#include <QString>
#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;
class TaskRunner;

class HardwareProfileChooser : public QWidget {
    Q_OBJECT
public:
    /// The QSettings key of the file chosen (ChosenHardwareProfile's).
    static constexpr const char* kSettingsKey = "hardwareProfile";

    explicit HardwareProfileChooser(QWidget* parent = nullptr);

    /// Reads `path` (the file dialog's choice; tests call it directly). Read: it is the app's profile from
    /// now on, remembered. Refused: the message next to the button, the profile before kept; returns it.
    QString chooseFile(const QString& path);
    /// No profile: a CPU run is then not predicted, a GPU's step from its published profile.
    void clear();
    /// Measures this CPU into AppDataLocation/hardware-profiles/this-cpu.json in the background, then
    /// chooses it; the note shows the progress. (The button's action.)
    void calibrate();
    bool isCalibrating() const;

    const std::optional<napkin::HardwareProfile>& profile() const;
    /// The chosen file ("" when none): the prediction's origin.
    const QString& path() const;

signals:
    void profileChanged();

private:
    void showState(const QString& error);

    QPushButton* m_choose;
    QPushButton* m_calibrate;
    QPushButton* m_clear;
    QLabel* m_note;
    TaskRunner* m_runner = nullptr; ///< made on the first calibration
};

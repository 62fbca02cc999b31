#pragma once
// "Hardware profile…" beside the Cruncher's Train button: the profile file (napkin-cli calibrate --out
// FILE) the page predicts each run's step from, remembered in QSettings. A file the reader refuses changes
// nothing but the note beside the button, which says why: the profile chosen before stays.
#include "engine/steptime/hardware_profile.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPushButton;

class HardwareProfileChooser : public QWidget {
    Q_OBJECT
public:
    /// The QSettings key of the file last chosen.
    static constexpr const char* kSettingsKey = "benchmarks/hardwareProfile";

    /// Reads the file last chosen (QSettings), if any: a file gone bad since shows its error and no profile.
    explicit HardwareProfileChooser(QWidget* parent = nullptr);

    /// Reads `path` (the file dialog's choice; tests call it directly). Read: it is the profile from now on,
    /// remembered. Refused: the message next to the button, the profile before kept; returns the message.
    QString chooseFile(const QString& path);
    /// No profile: a CPU run is then not predicted, a GPU run from its published profile.
    void clear();

    const std::optional<napkin::HardwareProfile>& profile() const { return m_profile; }
    /// The chosen file ("" when none): the prediction's origin.
    const QString& path() const { return m_path; }

signals:
    void profileChanged();

private:
    void showState(const QString& error);

    QPushButton* m_choose;
    QPushButton* m_clear;
    QLabel* m_note;
    std::optional<napkin::HardwareProfile> m_profile;
    QString m_path;
};

#include "app/benchmarks/hardware_profile_chooser.h"

#include "app/export/file_dialogs.h"
#include "widgets/controls/text_tone.h"
#include "widgets/text/engine_text.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

using namespace napkin;

HardwareProfileChooser::HardwareProfileChooser(QWidget* parent)
    : QWidget(parent)
    , m_choose(new QPushButton(tr("Hardware profile…"), this))
    , m_clear(new QPushButton(tr("None"), this))
    , m_note(new QLabel(this)) {
    m_choose->setObjectName(QStringLiteral("hardwareProfile"));
    m_choose->setToolTip(
        tr("The profile each run's step is predicted from: a file napkin-cli calibrate --out "
           "FILE wrote on this machine"));
    m_clear->setObjectName(QStringLiteral("noHardwareProfile"));
    m_clear->setToolTip(tr("Predict from no file: a GPU's published profile, nothing on the CPU"));
    m_note->setObjectName(QStringLiteral("hardwareProfileNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_choose);
    buttons->addWidget(m_clear);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(buttons);
    column->addWidget(m_note);
    connect(m_choose, &QPushButton::clicked, this, [this] {
        const QString path =
            chooseOpenFile(this, tr("Hardware profile"), tr("Hardware profiles (*.json);;All files (*)"));
        if (!path.isEmpty())
            chooseFile(path);
    });
    connect(m_clear, &QPushButton::clicked, this, &HardwareProfileChooser::clear);
    const QString remembered = QSettings().value(QLatin1String(kSettingsKey)).toString();
    if (remembered.isEmpty()) {
        showState({});
        return;
    }
    // A remembered file that no longer reads: said, and nothing predicted from it.
    const HardwareProfileRead read = readHardwareProfile(remembered.toStdString());
    m_profile = read.profile;
    m_path = read.profile ? remembered : QString();
    showState(read.profile ? QString() : toQString(read.error));
}

QString HardwareProfileChooser::chooseFile(const QString& path) {
    const HardwareProfileRead read = readHardwareProfile(path.toStdString());
    if (!read.profile) {
        QString error = toQString(read.error);
        showState(error);
        return error;
    }
    m_profile = read.profile;
    m_path = path;
    QSettings().setValue(QLatin1String(kSettingsKey), path);
    showState({});
    emit profileChanged();
    return {};
}

void HardwareProfileChooser::clear() {
    m_profile.reset();
    m_path.clear();
    QSettings().remove(QLatin1String(kSettingsKey));
    showState({});
    emit profileChanged();
}

void HardwareProfileChooser::showState(const QString& error) {
    QString text;
    if (m_profile)
        text = tr("Step predicted from %1 (%2, measured on %3).")
                   .arg(QFileInfo(m_path).fileName(), toQString(m_profile->source),
                        toQString(m_profile->device));
    else
        text = tr("No profile: a CPU run's step is measured, not predicted (napkin-cli calibrate --out FILE "
                  "writes one); a GPU's from its published profile.");
    if (!error.isEmpty())
        text = tr("Not read: %1").arg(error) + QLatin1Char('\n') +
               (m_profile ? tr("Still predicting from %1.").arg(QFileInfo(m_path).fileName())
                          : tr("No profile chosen."));
    m_note->setText(text);
    setTextTone(m_note, error.isEmpty() ? TextTone::note : TextTone::alert);
    m_clear->setEnabled(m_profile.has_value());
}

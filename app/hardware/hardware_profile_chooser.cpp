// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/hardware_profile_chooser.h"

#include "app/export/file_dialogs.h"
#include "app/hardware/chosen_hardware_profile.h"
#include "app/jobs/task_runner.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/calibration_run.h"
#include "engine/io/atomic_file.h"
#include "widgets/controls/text_tone.h"
#include "widgets/text/engine_text.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <stdexcept>

using namespace napkin;

namespace {

// Where "Calibrate this CPU" writes its profile: beside the user's GPU catalog files.
QString calibratedProfilePath() {
    const QString folder =
        QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/hardware-profiles");
    return folder + QStringLiteral("/this-cpu.json");
}

} // namespace

HardwareProfileChooser::HardwareProfileChooser(QWidget* parent)
    : QWidget(parent)
    , m_choose(new QPushButton(tr("Hardware profile…"), this))
    , m_calibrate(new QPushButton(tr("Calibrate this CPU"), this))
    , m_clear(new QPushButton(tr("None"), this))
    , m_note(new QLabel(this)) {
    m_choose->setObjectName(QStringLiteral("hardwareProfile"));
    m_choose->setToolTip(tr("The profile steps are predicted from: a file napkin-cli calibrate --out FILE "
                            "wrote (on this machine, or on a GPU elsewhere)"));
    m_calibrate->setObjectName(QStringLiteral("calibrateHardwareProfile"));
    m_calibrate->setToolTip(tr("Measure this CPU's GEMM rates, bandwidth and per-op overhead (napkin-cli "
                               "calibrate, about a minute, in the background) and predict from them: the "
                               "Accounting page's GPU \"this-cpu\" is then this machine"));
    m_clear->setObjectName(QStringLiteral("noHardwareProfile"));
    m_clear->setToolTip(tr("Predict from no file: a GPU's published profile, nothing on the CPU"));
    m_note->setObjectName(QStringLiteral("hardwareProfileNote"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QHBoxLayout;
    buttons->setContentsMargins(0, 0, 0, 0);
    buttons->addWidget(m_choose);
    buttons->addWidget(m_clear);
    auto* calibrateRow = new QHBoxLayout; // its own row: three buttons in one cut each other's text in a
    calibrateRow->setContentsMargins(0, 0, 0, 0); // narrow panel (tst_layout)
    calibrateRow->addWidget(m_calibrate);
    calibrateRow->addStretch(1);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addLayout(buttons);
    column->addLayout(calibrateRow);
    column->addWidget(m_note);
    connect(m_choose, &QPushButton::clicked, this, [this] {
        const QString path =
            chooseOpenFile(this, tr("Hardware profile"), tr("Hardware profiles (*.json);;All files (*)"));
        if (!path.isEmpty())
            chooseFile(path);
    });
    connect(m_calibrate, &QPushButton::clicked, this, &HardwareProfileChooser::calibrate);
    connect(m_clear, &QPushButton::clicked, this, &HardwareProfileChooser::clear);
    ChosenHardwareProfile& chosen = ChosenHardwareProfile::instance();
    connect(&chosen, &ChosenHardwareProfile::changed, this, [this] {
        showState({});
        emit profileChanged();
    });
    showState(chosen.rememberedError());
}

const std::optional<HardwareProfile>& HardwareProfileChooser::profile() const {
    return ChosenHardwareProfile::instance().profile();
}

const QString& HardwareProfileChooser::path() const {
    return ChosenHardwareProfile::instance().path();
}

QString HardwareProfileChooser::chooseFile(const QString& path) {
    QString error = ChosenHardwareProfile::instance().choose(path);
    if (!error.isEmpty())
        showState(error);
    return error;
}

void HardwareProfileChooser::clear() {
    ChosenHardwareProfile::instance().clear();
}

bool HardwareProfileChooser::isCalibrating() const {
    return m_runner && m_runner->isBusy();
}

void HardwareProfileChooser::calibrate() {
    if (!m_runner) {
        m_runner = new TaskRunner(this);
        connect(m_runner, &TaskRunner::progress, this, [this](const TaskProgress& p) {
            m_note->setText(tr("Calibrating this CPU: %1 (%2 %)…").arg(p.phase).arg(qRound(p.fraction * 100)));
            setTextTone(m_note, TextTone::note);
        });
        connect(m_runner, &TaskRunner::failed, this, [this](const QString& message) {
            m_note->setText(tr("Calibration failed: %1").arg(message));
            setTextTone(m_note, TextTone::alert);
        });
        connect(m_runner, &TaskRunner::busyChanged, this, [this](bool busy) { m_calibrate->setEnabled(!busy); });
    }
    const QString path = calibratedProfilePath();
    m_runner->start([this, path](const TaskContext& task) -> TaskRunner::Deliver {
        std::string whyNot;
        const std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu", &whyNot);
        if (!backend)
            throw std::runtime_error(whyNot);
        const ProgressCallback progress = [&task](const BenchmarkProgress& p) {
            task.progress(p.fraction, toQString(p.detail.empty() ? p.phase : p.detail));
            return task.keepGoing();
        };
        const std::optional<CalibrationRun> run = runCalibration(*backend, CalibrationOptions{}, &whyNot, progress);
        if (!run)
            throw std::runtime_error(whyNot);
        if (!task.keepGoing())
            return {};
        QDir().mkpath(QFileInfo(path).absolutePath());
        writeFileAtomically(path.toStdString(), hardwareProfileToJson(run->profile)); // throws: failed()
        return [this, path] { chooseFile(path); };
    });
}

void HardwareProfileChooser::showState(const QString& error) {
    const ChosenHardwareProfile& chosen = ChosenHardwareProfile::instance();
    const std::optional<HardwareProfile>& profile = chosen.profile();
    QString text;
    if (profile) {
        text = tr("Steps on %3 predicted from %1 (%2).")
                   .arg(QFileInfo(chosen.path()).fileName(), toQString(profile->source),
                        toQString(profile->device));
        if (profile->device == "this-cpu")
            text += QLatin1Char(' ') + tr("The GPU list's \"this-cpu\" is this machine.");
    } else {
        text = tr("No profile: each GPU's step from its published figures; a CPU's is not predicted until "
                  "Calibrate this CPU (or napkin-cli calibrate --out FILE) writes a profile.");
    }
    if (!error.isEmpty())
        text = tr("Not read: %1").arg(error) + QLatin1Char('\n') +
               (profile ? tr("Still predicting from %1.").arg(QFileInfo(chosen.path()).fileName())
                        : tr("No profile chosen."));
    m_note->setText(text);
    setTextTone(m_note, error.isEmpty() ? TextTone::note : TextTone::alert);
    m_clear->setEnabled(profile.has_value());
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/hardware/chosen_hardware_profile.h"

#include "app/hardware/session_gpu_catalog.h"
#include "engine/benchmarks/calibration_run.h"
#include "engine/report/cli_command_line.h"
#include "engine/steptime/step_time.h"
#include "widgets/text/engine_text.h"

#include <QSettings>

#include <utility>

using namespace napkin;

namespace {

/// The key the Benchmarks page kept its choice under before the choice was the app's.
constexpr const char* kEarlierKey = "benchmarks/hardwareProfile";

} // namespace

ChosenHardwareProfile& ChosenHardwareProfile::instance() {
    static ChosenHardwareProfile chosen; // lives until the app exits; no parent, no thread of its own
    return chosen;
}

ChosenHardwareProfile::ChosenHardwareProfile() {
    QSettings settings;
    QString remembered = settings.value(QLatin1String(kSettingsKey)).toString();
    if (remembered.isEmpty())
        remembered = settings.value(QLatin1String(kEarlierKey)).toString();
    if (remembered.isEmpty())
        return;
    // A remembered file that no longer reads: said where the choice is shown, nothing predicted from it.
    HardwareProfileRead read = readHardwareProfile(remembered.toStdString());
    if (!read.profile) {
        m_rememberedError = toQString(read.error);
        return;
    }
    adopt(std::move(*read.profile), remembered);
}

QString ChosenHardwareProfile::choose(const QString& path) {
    HardwareProfileRead read = readHardwareProfile(path.toStdString());
    if (!read.profile)
        return toQString(read.error);
    adopt(std::move(*read.profile), path);
    QSettings settings;
    settings.setValue(QLatin1String(kSettingsKey), path);
    settings.remove(QLatin1String(kEarlierKey));
    m_rememberedError.clear();
    emit changed();
    return {};
}

void ChosenHardwareProfile::clear() {
    m_profile.reset();
    m_path.clear();
    m_rememberedError.clear();
    QSettings settings;
    settings.remove(QLatin1String(kSettingsKey));
    settings.remove(QLatin1String(kEarlierKey));
    emit changed();
}

const HardwareProfile* ChosenHardwareProfile::profileFor(const GpuSpec& gpu) const {
    return m_profile && profileDeviceMismatch(*m_profile, gpu).empty() ? &*m_profile : nullptr;
}

void ChosenHardwareProfile::adopt(HardwareProfile profile, const QString& path) {
    // This CPU is no catalog part: its entry, from the profile, joins the session's GPUs (unless a part of
    // that id is there already, as a scenario's own "this-cpu" would be).
    if (profile.device == "this-cpu" && !sessionGpuCatalog().find(profile.device))
        SessionGpuCatalog::instance().add(cpuCatalogEntry(profile));
    m_profile = std::move(profile);
    m_path = path;
}

std::string withChosenProfileOption(const std::string& line, const std::string& gpuId) {
    const ChosenHardwareProfile& chosen = ChosenHardwareProfile::instance();
    const GpuSpec* gpu = sessionGpuCatalog().find(gpuId);
    if (!gpu || !chosen.profileFor(*gpu))
        return line;
    return line + " --hardware-profile " + shellQuoted(chosen.path().toStdString());
}

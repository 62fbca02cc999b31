// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The hardware profile the app predicts step times from (napkin-cli calibrate --out FILE, a profile made
// on a GPU elsewhere, or this machine calibrated from the app): one choice for the whole app, remembered
// in QSettings. The Accounting page predicts its step from it where the profile was measured on the page's
// GPU (else from that GPU's published profile), and Copy as command and the page's JSON name the file; the
// Inference page predicts its prefill and decode from it the same way; the Benchmarks page predicts each
// Cruncher run from it. A profile of this CPU ("this-cpu") brings its
// catalog entry (cpuCatalogEntry) into the session's GPUs, so the Accounting page can choose the CPU.
#include "engine/hardware/gpu_catalog.h"
#include "engine/steptime/hardware_profile.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

class ChosenHardwareProfile : public QObject {
    Q_OBJECT
public:
    /// The QSettings key of the file chosen.
    static constexpr const char* kSettingsKey = "hardwareProfile";

    /// The app's one choice (created on first use, on the GUI thread, from the file remembered).
    static ChosenHardwareProfile& instance();

    const std::optional<napkin::HardwareProfile>& profile() const { return m_profile; }
    const QString& path() const { return m_path; } ///< the chosen file; "" when none
    /// Why the file remembered from the last session no longer reads ("" when it did, or none was).
    const QString& rememberedError() const { return m_rememberedError; }

    /// Reads `path`: read, it is the profile from now on (remembered, changed() emitted); refused, nothing
    /// changes and the reader's message is returned.
    QString choose(const QString& path);
    /// No profile: every step from its GPU's published profile (a CPU run's is not predicted).
    void clear();

    /// The profile when it was measured on `gpu`: what that GPU's step is predicted from; null otherwise.
    const napkin::HardwareProfile* profileFor(const napkin::GpuSpec& gpu) const;

signals:
    void changed();

private:
    ChosenHardwareProfile();
    void adopt(napkin::HardwareProfile profile, const QString& path);

    std::optional<napkin::HardwareProfile> m_profile;
    QString m_path;
    QString m_rememberedError;
};

/// `line` (an `account` or `infer` command) naming the app's profile with `--hardware-profile FILE` where the
/// step (or the serving times) of `gpuId` is predicted from it, as napkin-cli's own document names it (at the
/// end); else `line`.
std::string withChosenProfileOption(const std::string& line, const std::string& gpuId);

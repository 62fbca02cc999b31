// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli account`'s step time: --hardware-profile FILE (or the GPU's published profile), --mfu
// predicted, --no-dp-overlap; the JSON's `step_time` and the text's "predicted MFU" line.
#include "cli/account_options.h"
#include "engine/steptime/step_time.h"

#include <optional>
#include <string>

namespace napkin::cli {

/// The profile in --hardware-profile's file. Throws UsageError naming --hardware-profile (exit 2) with the
/// reader's one line for a damaged, foreign or unreadable file.
HardwareProfile readHardwareProfileOption(const std::string& path);

/// The profile the step time is costed from: --hardware-profile's file, or `gpu`'s published one (unset,
/// with the reason in `whyNot`, when nothing is published for it). Throws UsageError naming
/// --hardware-profile (exit 2) for a damaged, foreign or unreadable file and for a profile measured on
/// another device than `gpu`.
std::optional<HardwareProfile> hardwareProfileFor(const AccountOptions& options, const GpuSpec& gpu,
                                                  std::string& whyNot);

/// The step time of `input` on `gpu` from --hardware-profile's file, or the GPU's published profile.
/// Throws UsageError naming --hardware-profile (exit 2) for a damaged, foreign or unreadable file and for a
/// profile measured on another device than `gpu`.
StepTime stepTimeFor(const AccountOptions& options, const AccountingInput& input,
                     const AccountingResult& result, const GpuSpec& gpu);

/// True when --mfu is "predicted": training_seconds and training_days then use the step time's MFU.
bool mfuPredicted(const AccountOptions& options);

/// `input` with the predicted MFU; throws UsageError naming --mfu when the step is not predicted or its MFU
/// is outside (0, 1].
AccountingInput withPredictedMfu(const AccountingInput& input, const StepTime& stepTime);

/// "step time: 0.52 s (predicted MFU 0.41, assumed 0.5)" with its basis, or why it is not predicted.
std::string stepTimeText(const StepTime& stepTime, double assumedMfu);

} // namespace napkin::cli

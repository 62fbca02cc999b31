// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/step_time_option.h"

#include "cli/number_option.h"
#include "engine/numerics/quantity_format.h"

#include <sstream>
#include <utility>

namespace napkin::cli {

HardwareProfile readHardwareProfileOption(const std::string& path) {
    HardwareProfileRead read = readHardwareProfile(path);
    if (!read.profile)
        throw UsageError("--hardware-profile: " + read.error);
    return std::move(*read.profile);
}

std::optional<HardwareProfile> hardwareProfileFor(const AccountOptions& o, const GpuSpec& gpu,
                                                  std::string& whyNot) {
    if (o.hardwareProfile.empty())
        return defaultProfile(gpu, whyNot);
    HardwareProfile profile = readHardwareProfileOption(o.hardwareProfile);
    if (const std::string mismatch = profileDeviceMismatch(profile, gpu); !mismatch.empty())
        throw UsageError("--hardware-profile: device: " + mismatch);
    return profile;
}

StepTime stepTimeFor(const AccountOptions& o, const AccountingInput& input, const AccountingResult& result,
                     const GpuSpec& gpu) {
    StepTimeOptions options;
    options.overlapDataParallel = !o.noDataParallelOverlap;
    std::optional<HardwareProfile> profile;
    if (!o.hardwareProfile.empty()) {
        profile = readHardwareProfileOption(o.hardwareProfile);
        if (const std::string mismatch = profileDeviceMismatch(*profile, gpu); !mismatch.empty())
            throw UsageError("--hardware-profile: device: " + mismatch);
    }
    return stepTimeFromProfile(input, result, gpu, profile ? &*profile : nullptr, options);
}

bool mfuPredicted(const AccountOptions& options) {
    return options.mfu == "predicted";
}

AccountingInput withPredictedMfu(const AccountingInput& input, const StepTime& t) {
    if (!t.predicted)
        throw UsageError("--mfu: predicted, but the step time is not predicted: " + t.whyNot);
    if (!(t.mfu > 0 && t.mfu <= 1))
        throw UsageError("--mfu: the predicted MFU " + formatNumber(t.mfu) +
                         " is outside (0, 1]: the profile's rates exceed the GPU's dense peak");
    AccountingInput in = input;
    in.mfu = t.mfu;
    return in;
}

std::string stepTimeText(const StepTime& t, double assumedMfu) {
    std::ostringstream s;
    if (!t.predicted) {
        s << "step time: not predicted: " << t.whyNot << "\n";
        return s.str();
    }
    s << "step time: " << formatDuration(t.seconds) << " per optimizer step, "
      << formatNumber(t.tokensPerSecond) << " tokens/s; predicted MFU " << formatNumber(t.mfu) << " (assumed "
      << formatNumber(assumedMfu) << "), HFU " << formatNumber(t.hfu) << "\n    " << t.mfuFormula
      << "\n    from " << t.basis << "\n";
    return s.str();
}

} // namespace napkin::cli

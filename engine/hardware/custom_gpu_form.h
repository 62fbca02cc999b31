// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A GPU the user defines by hand (the app's "Custom GPU…" dialog): the fields as typed, checked one by one
// so that each message can stand next to its field, and the part they make.
#include "engine/hardware/gpu_catalog.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// The form as typed. Figures are in the units a datasheet prints: GB (1e9 bytes), GB/s, TFLOP/s, W.
/// A peak left empty is "not given" (unknown); "none" means the part has no such path.
struct CustomGpuForm {
    std::string name;
    std::string memoryGb;
    std::string bandwidthGbPerSecond;
    /// Dense peaks in TFLOP/s, in the order of customGpuPeakNames(): fp32, tf32, fp16, bf16, fp8.
    std::array<std::string, 5> peaksTflops;
    std::string tdpWatts; ///< empty: not given
};

/// The form's peak fields in order: "fp32", "tf32", "fp16", "bf16", "fp8" (ComputeType's order).
const std::array<const char*, 5>& customGpuPeakNames();

/// One field's problem: `field` is "name", "memory", "bandwidth", "tdp" or a peak's name ("bf16").
struct CustomGpuFieldError {
    std::string field;
    std::string message;
};

struct CustomGpuCheck {
    std::optional<GpuSpec> gpu; ///< set when every field is valid
    std::vector<CustomGpuFieldError> errors;
    /// The message for `field`, empty when it is valid.
    std::string errorFor(const std::string& field) const;
};

/// Checks every field and builds the part: id = the name with spaces as '-', source "user defined",
/// kind "gpu". Refused: an empty name or one whose id a built-in GPU has; memory or bandwidth that
/// is not a positive number; a peak or TDP that is neither empty, "none" (peaks only) nor positive; a
/// figure outside the catalog's range (1 to 1e21 in base units); no peak given at all.
CustomGpuCheck checkCustomGpu(const CustomGpuForm& form);

} // namespace napkin

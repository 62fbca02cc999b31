// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The copy benchmark and the allocation check by device name, as the backend registry hands out
// backends: "cuda" runs them where this build has the CUDA backend and a device; everything else
// gives the reason why not.
#include "engine/compute/copy_benchmark.h"

#include <optional>
#include <string>

namespace napkin {

/// nullopt with `whyNot` set when `device` cannot copy (cpu, unknown, not built, no device). Throws
/// std::runtime_error when the device fails to start.
std::optional<CopySweep> runCopyBenchmark(const std::string& device, const std::vector<CopyCase>& cases,
                                          const CopyRunOptions& options, std::string* whyNot);
/// As above, for the two-tensor allocation check.
std::optional<AllocCheck> runAllocCheck(const std::string& device, std::string* whyNot);

} // namespace napkin

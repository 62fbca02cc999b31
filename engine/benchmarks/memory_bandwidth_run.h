// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory bandwidth by device name, as copy_sweep.h does for copies: "cpu" runs the STREAM-style triad,
// "cuda" device-to-device copies where this build has the CUDA backend and a device.
#include "engine/compute/memory_bandwidth.h"

#include <optional>
#include <string>

namespace napkin {

/// nullopt with `whyNot` set when `device` cannot be measured (unknown, CUDA not built, no device) or the
/// arrays cannot be allocated. Throws std::runtime_error when the device fails while running.
std::optional<MemoryBandwidthResult>
runMemoryBandwidth(const std::string& device, const MemoryBandwidthOptions& options, std::string* whyNot);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A roofline as JSON: the document of `napkin-cli roofline --json` (fields in docs/cli.md).
#include "engine/compute/memory_bandwidth.h"
#include "engine/hardware/roofline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin {

/// "ridge = peak / bandwidth = 9.894e+14 FLOP/s / 3.35e+12 B/s = 295.3 FLOP/B"
std::string ridgeFormula(const Roofline& roof);
/// {device, dtype, peak_flops_per_second, peak_source, bandwidth_bytes_per_second, bandwidth_source,
/// ridge_flops_per_byte, formula}; `measuredBandwidth`, when given (the CPU), adds it as "bandwidth".
nlohmann::json rooflineJson(const Roofline& roof, const MemoryBandwidthResult* measuredBandwidth = nullptr);

} // namespace napkin

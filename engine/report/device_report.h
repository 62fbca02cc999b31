// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every benchmark document says about where it ran: the device and its promise, and the machine's
// load (timings mean little without it).
#include "engine/compute/benchmark_result.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// device{backend, name, cores, threads, simd, clock_hz, promised_flops_per_second{...}, promised_basis,
/// spec_fp32_flops_per_second, spec_fp32_formula, measured_fma_fp32_flops_per_second, cpu_backend,
/// cpu_backend_version, isa} (the last three null on a GPU).
nlohmann::json deviceJson(const DeviceInfo& device);
/// The 1-minute load average of this machine (/proc/loadavg), or null.
nlohmann::json loadAverageJson();

} // namespace napkin

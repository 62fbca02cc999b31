#pragma once
// JSON for what both compute benchmarks share: the device and its promise, the backend by name.
#include "engine/compute/benchmark_backend.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace napkin::cli {

/// device{backend, name, cores, simd, clock_hz, promised_flops_per_second{...}, promised_basis, ...}.
nlohmann::json deviceJson(const DeviceInfo& device);
/// The backend for --device; throws UsageError naming --device (with the reason) when unavailable.
/// `threads` > 0 pins the CPU backend's thread count (--threads); 0 means one per physical core.
std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads = 0);
/// The 1-minute load average of this machine (/proc/loadavg), or null: timings mean little without it.
nlohmann::json loadAverageJson();

} // namespace napkin::cli

#pragma once
// --device for the bench commands: the registry's backend, or a usage error naming --device and why.
#include "engine/compute/benchmark_backend.h"

#include <memory>
#include <string>

namespace napkin::cli {

/// The backend for --device; throws UsageError naming --device (with the reason) when unavailable.
/// `threads` > 0 pins the CPU backend's thread count (--threads); 0 means one per physical core.
std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads = 0);

} // namespace napkin::cli

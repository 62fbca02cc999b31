// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// --device and --backend for the bench commands: the registry's backend, or a usage error naming the
// option and why.
#include "engine/compute/benchmark_backend.h"

#include <memory>
#include <string>

namespace napkin::cli {

/// The backend for --device; throws UsageError naming --device (with the reason) when unavailable.
/// `threads` > 0 pins the CPU backend's thread count (--threads); 0 means one per physical core.
/// `cpuBackend` is --backend: "" for the default (the faster library present), "onednn" or "eigen"; an
/// unknown name, one this build lacks, or any with a device other than cpu is a UsageError naming --backend.
std::unique_ptr<BenchmarkBackend> backendForDevice(const std::string& device, int threads = 0,
                                                   const std::string& cpuBackend = "");

/// The help text of --backend: the names, and which is the default in this build.
std::string cpuBackendHelp();

} // namespace napkin::cli

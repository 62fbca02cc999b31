// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA backend as the registry sees it: plain C++ types only, so that engine/backend_registry.cpp
// can ask for it without CUDA headers (and is compiled the same way with or without CUDA).
#include "engine/compute/benchmark_backend.h"
#include "engine/hardware/device_match.h"

#include <memory>
#include <string>
#include <vector>

namespace napkin {

/// The CUDA runtime this build was compiled against ("12.4"), device or not.
std::string cudaRuntimeVersion();

/// Empty when a CUDA device is usable, else "no CUDA device: <the CUDA runtime's reason>". Never throws.
std::string cudaBackendUnavailableReason();

/// Every CUDA device's name, memory, SMs, clocks and compute capability; empty when there is none (ask
/// cudaBackendUnavailableReason() why). Throws std::runtime_error on driver errors.
std::vector<LocalGpu> cudaLocalGpus();

/// The backend on device 0; throws std::runtime_error (no device, out of memory, driver errors).
std::unique_ptr<BenchmarkBackend> makeCudaBackend();

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The oneDNN backend as the registry sees it: made, or the reason it is missing from this build. Two
// implementations, one chosen by CMake (onednn_backend_factory.cpp with oneDNN, onednn_backend_missing.cpp
// without), so that nothing outside this folder is compiled differently.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cpu/cpu_backend.h"

#include <memory>
#include <string>

namespace napkin {

/// Empty when this build has the oneDNN backend, else why not.
std::string onednnBackendUnavailableReason();
/// The linked oneDNN's version ("2.6.3"); empty when this build has none.
std::string onednnLibraryVersion();
/// The oneDNN backend; `eigenFallback`: run the types oneDNN lacks on Eigen (the default backend does).
/// Throws std::runtime_error when this build has none (the reason above).
std::unique_ptr<BenchmarkBackend> makeOnednnBackend(const CpuBackendOptions& cpu, bool eigenFallback);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which compute backends this build has, and why a missing one is missing.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cpu_backend_kind.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct BackendEntry {
    std::string name; ///< "cpu", "cuda"; for listCpuBackends(): "onednn", "eigen"
    bool available = false;
    std::string unavailableReason; ///< empty when available
    std::string version;           ///< the library's version where it says one ("2.6.3" for onednn)
};

/// Every backend napkin knows about, available or not: the CPU backend is always there.
std::vector<BackendEntry> listBackends();
/// The CPU's GEMM libraries (--backend), available or not: Eigen is always there, oneDNN where the build
/// found libdnnl-dev.
std::vector<BackendEntry> listCpuBackends();
/// The faster one present: oneDNN where this build has it, else Eigen.
CpuBackendKind defaultCpuBackend();

/// How to make a backend; the defaults are what a user gets without asking.
struct BackendOptions {
    int cpuThreads = 0; ///< CPU GEMM and FMA-loop threads; 0: one per physical core
    /// The CPU's GEMM library. Unset: defaultCpuBackend(), which runs the types oneDNN lacks (fp64, fp16)
    /// on Eigen and says so in each result; set: that library only (it refuses what it cannot run).
    std::optional<CpuBackendKind> cpuBackend;
    /// Measure the CPU's FMA peak (about a second, the first time the device is asked for) for MFU; off
    /// where a run needs no MFU (the Training tab's measured mixed-precision row).
    bool cpuMeasurePeak = true;
    bool operator==(const BackendOptions&) const = default;
};

/// The backend called `name`, or nullptr with `whyNot` set (unknown name, not built, no device).
std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, std::string* whyNot = nullptr);
std::unique_ptr<BenchmarkBackend> makeBackend(const std::string& name, const BackendOptions& options,
                                              std::string* whyNot = nullptr);

} // namespace napkin

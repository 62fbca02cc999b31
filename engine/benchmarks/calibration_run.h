// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli calibrate`: this machine's hardware profile (engine/steptime/hardware_profile.h) from
// Napkin's own benchmarks: the matmul sweep at a few shapes per dtype, the memory-bandwidth run, and a
// 1×1×1 GEMM's time as the per-op overhead of the backend's dispatch. What Napkin's own trainer calls;
// to predict a PyTorch run, scripts/calibrate_torch.py times torch's kernels into the same format.
#include "engine/benchmarks/benchmark_progress.h"
#include "engine/compute/benchmark_backend.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/steptime/hardware_profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct CalibrationOptions {
    std::string device = "cpu"; ///< "cpu" or "cuda": the bandwidth run's device
    std::vector<BenchDtype> dtypes = {BenchDtype::fp32, BenchDtype::bf16};
    /// GEMM shapes per dtype; empty: calibrationShapes(device).
    std::vector<MatmulCase> shapes;
    int repeats = 7; ///< timed samples per GEMM and bandwidth run
    std::uint64_t bandwidthBytesPerArray = 0; ///< the bandwidth run's arrays; 0: past the last-level cache
};

struct CalibrationRun {
    HardwareProfile profile;
    std::vector<std::string> skipped; ///< "bf16: not supported by this backend", failed cases
};

/// The default shapes: squares 128–1024 and a transformer-like 2048×768×768 on the CPU; squares 1024–8192
/// and 8192×3072×768 on a GPU (dtype left fp32; the run sets each dtype).
std::vector<MatmulCase> calibrationShapes(const std::string& device);

/// Runs the calibration on `backend`. The profile's device is the catalog id of the GPU (or "this-cpu"
/// on the CPU; the scripts' catalog entry uses the same id). Unset with `whyNot` when no GEMM dtype ran
/// or the bandwidth cannot be measured.
std::optional<CalibrationRun> runCalibration(BenchmarkBackend& backend, const CalibrationOptions& options,
                                             std::string* whyNot, const ProgressCallback& progress = {});

/// The catalog entry a CPU profile is accounted against (`--gpu-catalog FILE --gpu this-cpu`): the
/// profile's bandwidth, the machine's RAM as its memory (sysconf), and as dense peaks the best GEMM rate
/// the profile measured per dtype, so that MFU reads "of the best GEMM this CPU ran".
GpuSpec cpuCatalogEntry(const HardwareProfile& profile);

} // namespace napkin

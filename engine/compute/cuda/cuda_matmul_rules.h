// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Host-side rules of the CUDA backend, with no CUDA headers so that they are tested on any machine:
// which dtypes a compute capability can run, which shapes cuBLASLt's fp8 path accepts, how a GPU is
// matched to the catalog, how DeviceInfo is assembled, and the per-shape algorithm cache.
#include "engine/compute/benchmark_result.h"
#include "engine/hardware/gpu_catalog.h"

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>

namespace napkin::cuda {

struct ComputeCapability {
    int major = 0, minor = 0;
    int number() const { return 10 * major + minor; } ///< 9.0 → 90
};

/// What the device query found (cudaGetDeviceProperties / cudaDeviceGetAttribute), in base units.
struct CudaDeviceFacts {
    int index = 0;
    std::string name; ///< "NVIDIA H100 80GB HBM3"
    ComputeCapability cc;
    int smCount = 0;
    double memoryBytes = 0;   ///< total global memory
    double clockHz = 0;       ///< peak SM clock
    double memoryClockHz = 0; ///< peak memory clock
    int memoryBusBits = 0;
    double l2CacheBytes = 0;
};

/// Empty when `dtype` runs on `cc`, else why not: tf32 and bf16 need 8.0 (Ampere), fp8 E4M3 needs 8.9
/// (Ada) or 9.0 (Hopper); fp32, fp64, fp16 run everywhere the toolkit does.
std::string dtypeUnsupportedReason(BenchDtype dtype, ComputeCapability cc);

/// Empty when cuBLAS can take the shape, else why not: sizes positive and within int (cuBLAS's
/// dimension type); fp8 E4M3 through cuBLASLt needs m, n and k multiples of 16.
std::string shapeProblem(const MatmulCase& shape);

/// FP32 FMA lanes per SM for a compute capability (CUDA C Programming Guide, "Arithmetic
/// Instructions" throughput table): 64 on 7.x and 8.0, 128 on 8.6, 8.9, 9.0 and later; nullopt before 7.0.
std::optional<int> fp32LanesPerSm(ComputeCapability cc);

/// The catalog id for a CUDA device name ("NVIDIA H100 80GB HBM3" → "H100-SXM"), or empty when unknown.
std::string catalogIdForDevice(std::string_view deviceName);

/// DeviceInfo for the CUDA backend: cores = SMs, spec fp32 = SMs·lanes·2·clock, promised peaks from the
/// catalog entry the name matches (dense, per dtype; a 0 peak means no such path and is left out).
DeviceInfo assembleDeviceInfo(const CudaDeviceFacts& facts, const GpuCatalog& catalog);

/// Index of the smallest positive finite time, or nullopt when none is (every candidate failed).
std::optional<std::size_t> fastestIndex(std::span<const double> seconds);

/// The algorithm that timed fastest for each (m, n, k, dtype), so a sweep times the candidates once per
/// shape.
template <typename Algorithm> class AlgorithmCache {
public:
    const Algorithm* find(const MatmulCase& shape) const {
        const auto it = map_.find(key(shape));
        return it == map_.end() ? nullptr : &it->second;
    }
    void store(const MatmulCase& shape, const Algorithm& algorithm) { map_[key(shape)] = algorithm; }
    std::size_t size() const { return map_.size(); }

private:
    using Key = std::tuple<long, long, long, int>;
    static Key key(const MatmulCase& s) { return {s.m, s.n, s.k, static_cast<int>(s.dtype)}; }
    std::map<Key, Algorithm> map_;
};

} // namespace napkin::cuda

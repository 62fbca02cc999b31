// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Plain result structs of the compute benchmarks (nvbench style: a failing case keeps its message).
#include "engine/compute/bench_dtype.h"
#include "engine/numerics/timing_summary.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

/// What a backend runs on and what it promises.
struct DeviceInfo {
    std::string backend;           ///< "cpu", "cuda"
    std::string name;              ///< CPU model name or GPU name
    int cores = 0;                 ///< physical cores (CPU) or SMs (GPU)
    int threads = 0;               ///< CPU threads the benchmark runs on (GEMM and FMA loop alike)
    std::string simd;              ///< "avx512f", "avx2+fma", "sse2", ... (CPU)
    std::optional<double> clockHz; ///< maximum clock, when the system says
    /// Peak FLOP/s per dtype name that MFU divides by; a dtype missing here has no promise.
    std::map<std::string, double> promisedFlopsPerSecond;
    std::string promisedBasis;                        ///< which peak that is and how it was obtained
    std::optional<double> specFp32FlopsPerSecond;     ///< cores·lanes·FMA units·2·clock; unset: unknown
    std::string specFp32Formula;                      ///< the formula with numbers, or why unknown
    std::optional<double> measuredFp32FlopsPerSecond; ///< tight FMA loop on all cores
    /// The CPU's GEMM library (`--backend`): "onednn" or "eigen"; empty for a GPU.
    std::string cpuBackend;
    std::string cpuBackendVersion; ///< "2.6.3" (oneDNN), "3.4.0" (Eigen); empty for a GPU
    /// The instruction set the library dispatches to: oneDNN's effective ISA ("avx512_core_bf16"), or the
    /// SIMD sets Eigen was compiled for ("AVX512, FMA, AVX2, ..."); empty for a GPU.
    std::string isa;
};

/// One matmul case C[m×n] = A[m×k]·B[k×n].
struct MatmulCase {
    long m = 0, n = 0, k = 0;
    BenchDtype dtype = BenchDtype::fp32;
};

struct MatmulResult {
    MatmulCase shape;
    bool ok = false;
    std::string error;    ///< why it failed (unsupported dtype, out of memory, beyond its error bound, ...)
    TimingSummary timing; ///< seconds per GEMM
    int warmupRuns = 0;
    int callsPerSample = 1;
    double flops = 0;          ///< 2·m·n·k
    double flopsPerSecond = 0; ///< flops / median seconds
    std::optional<double> promisedFlopsPerSecond;
    std::optional<double> mfu; ///< flopsPerSecond / promised
    double maxRelError = 0;    ///< max over sampled entries of |c − ref| / Σ_k|a·b| (ref in long double)
    int verifiedEntries = 0;
    /// What maxRelError must stay within for the case to be ok (engine/benchmarks/matmul_error_bound.h);
    /// nullopt before verification, or where the worst case is ≥ 1 (then only a finite error is required).
    std::optional<double> maxRelErrorBound;
    std::string maxRelErrorBoundFormula; ///< the bound in words, empty before verification
    /// Which library ran the case ("onednn", "eigen"): the default CPU backend runs the types oneDNN lacks
    /// on Eigen. Empty where the device says it all (a GPU).
    std::string cpuBackend;
    std::string implementation; ///< the kernel chosen: oneDNN's "brg:avx512_core_bf16", "eigen:float", ...
};

/// How a sweep measures (engine/benchmarks/matmul_sweep.h).
struct MatmulRunOptions {
    int repeats = 11;              ///< timed samples per case
    int maxWarmupRuns = 20;        ///< warm-up stops here even if timings still move
    double warmupTolerance = 0.05; ///< warm-up ends when two consecutive runs agree within this fraction
    /// On a GPU, the sweep's first case first runs back-to-back GEMMs for at least this long (their own
    /// device time): a fresh process finds the SM clock idle, and it ramps up over the first ~0.1 s.
    double gpuSpinUpSeconds = 0.2;
    double minSampleSeconds = 0.002; ///< small GEMMs are repeated within one sample to reach this
    int verifySamples = 64;          ///< random output entries checked against the reference
    std::uint64_t seed = 42;
};

struct MatmulSweep {
    DeviceInfo device;
    MatmulRunOptions options; ///< the method the results were measured with
    std::vector<MatmulResult> results;
    bool cancelled = false;
};

} // namespace napkin

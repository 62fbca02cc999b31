// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cpu/cpu_backend.h"

#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cpu/eigen_matmul_problem.h"
#include "engine/compute/cpu/fma_peak.h"
#include "engine/compute/cpu/matmul_memory_check.h"

#include <Eigen/Core>

#include <sstream>
#include <stdexcept>

namespace napkin {

CpuBackend::CpuBackend(CpuBackendOptions options)
    : facts_(readCpuFacts())
    , options_(options)
    , threads_(options.threads > 0 ? options.threads : facts_.physicalCores) {
    // One GEMM thread per physical core: hyper-threads share the FMA units and only add contention.
    // (Eigen parallelises its GEMM with OpenMP; without -fopenmp this call is a no-op.)
    Eigen::setNbThreads(threads_);
}

DeviceInfo CpuBackend::deviceInfo() const {
    if (info_)
        return *info_;
    DeviceInfo d;
    d.backend = "cpu";
    d.cpuBackend = "eigen";
    d.cpuBackendVersion = std::to_string(EIGEN_WORLD_VERSION) + "." + std::to_string(EIGEN_MAJOR_VERSION) +
                          "." + std::to_string(EIGEN_MINOR_VERSION);
    d.isa =
        Eigen::SimdInstructionSetsInUse(); // what this file was compiled for (NAPKIN_NATIVE: -march=native)
    d.name = facts_.modelName;
    d.cores = facts_.physicalCores;
    d.threads = threads_;
    d.simd = simdName(facts_);
    d.clockHz = facts_.maxClockHz;
    const SpecPeak spec = specFp32Peak(facts_);
    d.specFp32FlopsPerSecond = spec.flopsPerSecond;
    d.specFp32Formula = spec.formula;
    if (options_.measurePeak) {
        const FmaPeak measured = measureFp32FmaPeak(threads_, options_.peakSecondsPerTrial);
        d.measuredFp32FlopsPerSecond = measured.flopsPerSecond;
    }
    std::optional<double> fp32;
    if (spec.flopsPerSecond) {
        fp32 = spec.flopsPerSecond;
        d.promisedBasis = "spec peak: " + spec.formula;
    } else if (d.measuredFp32FlopsPerSecond) {
        fp32 = d.measuredFp32FlopsPerSecond;
        std::ostringstream s;
        s << "measured FMA-loop peak (" << threads_ << " threads of independent " << simdName(facts_)
          << " FMAs, the fastest 2 ms sample), because the spec peak is " << spec.formula;
        d.promisedBasis = s.str();
    } else {
        d.promisedBasis = "none: the spec peak is " + spec.formula + " and the FMA loop was not run";
    }
    if (fp32) {
        d.promisedFlopsPerSecond["fp32"] = *fp32;
        d.promisedFlopsPerSecond["fp64"] = *fp32 / 2; // half the lanes per vector
        // Eigen::bfloat16/half products run as fp32 arithmetic with 16-bit rounding per operation, so
        // the fp32 units are the hardware doing the work (AVX-512 BF16 dot products are not used).
        d.promisedFlopsPerSecond["bf16"] = *fp32;
        d.promisedFlopsPerSecond["fp16"] = *fp32;
    }
    info_ = d;
    return d;
}

std::string CpuBackend::unsupportedReason(BenchDtype dtype) const {
    switch (dtype) {
    case BenchDtype::fp32:
    case BenchDtype::fp64:
    case BenchDtype::bf16:
    case BenchDtype::fp16:
        return {};
    case BenchDtype::tf32:
        return "--dtype tf32 is a tensor-core format; the cpu backend has no tf32 (use fp32)";
    case BenchDtype::fp8e4m3:
        return "--dtype fp8-e4m3 is not supported on the cpu backend (Eigen has no fp8 type)";
    }
    return "--dtype: unknown";
}

std::unique_ptr<MatmulProblem> CpuBackend::prepareMatmul(const MatmulCase& shape, std::uint64_t seed) {
    requireMatmulFitsInMemory(shape); // a case too big fails with its reason and the sweep goes on
    return makeEigenMatmulProblem(shape, seed);
}

std::unique_ptr<CruncherTrainer> CpuBackend::makeCruncherTrainer(const CruncherConfig& config) {
    if (std::string why = unsupportedPrecisionReason(config.precision); !why.empty())
        throw std::invalid_argument(why);
    return std::make_unique<CpuCruncherTrainer>(config);
}

std::string CpuBackend::unsupportedPrecisionReason(PrecisionRecipe recipe) const {
    if (recipe == PrecisionRecipe::fp32)
        return {};
    return "--precision " + std::string(precisionRecipeName(recipe)) +
           ": the eigen Cruncher trainer runs fp32 only (mixed-bf16 runs on --backend onednn)";
}

} // namespace napkin

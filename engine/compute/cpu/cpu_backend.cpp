#include "engine/compute/cpu/cpu_backend.h"

#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cpu/eigen_matmul_problem.h"
#include "engine/compute/cpu/fma_peak.h"

#include "engine/numerics/quantity_format.h"

#include <Eigen/Core>
#include <unistd.h>

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
          << " FMAs, best of 3), because the spec peak is " << spec.formula;
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
    // A, B and C at once; past half the machine's memory the sweep would swap (or be killed) rather than
    // measure, so such a case fails with its reason and the sweep goes on.
    const double elements = static_cast<double>(shape.m) * static_cast<double>(shape.k) +
                            static_cast<double>(shape.k) * static_cast<double>(shape.n) +
                            static_cast<double>(shape.m) * static_cast<double>(shape.n);
    const double bytes = elements * benchDtypeBytes(shape.dtype);
    const double physical =
        static_cast<double>(::sysconf(_SC_PHYS_PAGES)) * static_cast<double>(::sysconf(_SC_PAGE_SIZE));
    if (physical > 0 && bytes > physical / 2)
        throw std::runtime_error("A, B and C need " + formatBytes(bytes, ByteUnits::binary) +
                                 ", more than half of this machine's " +
                                 formatBytes(physical, ByteUnits::binary) + " of memory");
    return makeEigenMatmulProblem(shape, seed);
}

std::unique_ptr<CruncherTrainer> CpuBackend::makeCruncherTrainer(const CruncherConfig& config) {
    return std::make_unique<CpuCruncherTrainer>(config);
}

} // namespace napkin

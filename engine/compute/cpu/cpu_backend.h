// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Eigen CPU backend: fp32/fp64 GEMM on Eigen's own threads (one per physical core), bf16/fp16
// through Eigen's emulated 16-bit scalars, and the Cruncher trainer.
#include "engine/compute/benchmark_backend.h"
#include "engine/hardware/cpu_facts.h"

#include <optional>

namespace napkin {

struct CpuBackendOptions {
    bool measurePeak = true; ///< run the FMA loop (about a second) the first time deviceInfo() is asked
    double peakSecondsPerTrial = 0.1;
    int threads = 0; ///< GEMM and FMA-loop threads; 0: one per physical core
};

class CpuBackend final : public BenchmarkBackend {
public:
    explicit CpuBackend(CpuBackendOptions options = {});

    /// fp32 promise: the spec peak when the clock is known, else the measured FMA peak (promisedBasis
    /// says which); fp64 half of fp32; bf16/fp16 the fp32 figure (Eigen computes them on the fp32 units).
    DeviceInfo deviceInfo() const override;
    std::string unsupportedReason(BenchDtype dtype) const override;
    std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase& shape, std::uint64_t seed) override;
    /// Throws std::invalid_argument for a precision other than fp32.
    std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig& config) override;
    std::string unsupportedPrecisionReason(PrecisionRecipe recipe) const override;

    const CpuFacts& facts() const { return facts_; }
    int threads() const { return threads_; }

private:
    CpuFacts facts_;
    CpuBackendOptions options_;
    int threads_ = 1;
    mutable std::optional<DeviceInfo> info_;
};

} // namespace napkin

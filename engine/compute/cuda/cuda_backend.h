// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CUDA backend: cuBLAS/cuBLASLt GEMMs timed with CUDA events, and the Cruncher trained on the GPU.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cuda/cuda_matmul_rules.h"

#include <memory>

namespace napkin::cuda {

struct CudaContext;

class CudaBackend final : public BenchmarkBackend {
public:
    /// Selects device `deviceIndex` and creates its stream and handles; throws CudaError.
    explicit CudaBackend(int deviceIndex);
    ~CudaBackend() override;

    /// Name, SMs, clock; promised peaks from the GPU catalog entry the name matches.
    DeviceInfo deviceInfo() const override;
    /// Per compute capability (tf32/bf16 need 8.0, fp8 8.9).
    std::string unsupportedReason(BenchDtype dtype) const override;
    std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase& shape, std::uint64_t seed) override;
    std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig& config) override;
    /// fp32, mixed-bf16 (compute capability 8.0 and later) and mixed-fp16.
    std::string unsupportedPrecisionReason(PrecisionRecipe recipe) const override;
    /// TF32 tensor cores: compute capability 8.0 and later.
    std::string unsupportedTf32Reason() const override;

    const CudaDeviceFacts& facts() const { return facts_; }

private:
    CudaDeviceFacts facts_;
    std::shared_ptr<CudaContext> context_;
};

} // namespace napkin::cuda

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_backend.h"

#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "engine/compute/cuda/cuda_matmul_problem.h"

#include <stdexcept>

namespace napkin::cuda {

CudaBackend::CudaBackend(int deviceIndex)
    : facts_(queryDevice(deviceIndex)) {
    NAPKIN_CUDA_CHECK(cudaSetDevice(deviceIndex));
    context_ = std::make_shared<CudaContext>(facts_);
}

CudaBackend::~CudaBackend() = default;

DeviceInfo CudaBackend::deviceInfo() const {
    return assembleDeviceInfo(facts_, GpuCatalog::builtIn());
}

std::string CudaBackend::unsupportedReason(BenchDtype dtype) const {
    return dtypeUnsupportedReason(dtype, facts_.cc);
}

std::unique_ptr<MatmulProblem> CudaBackend::prepareMatmul(const MatmulCase& shape, std::uint64_t seed) {
    NAPKIN_CUDA_CHECK(cudaSetDevice(facts_.index)); // the runner may call from a worker thread
    return makeCudaMatmulProblem(context_, shape, seed);
}

std::unique_ptr<CruncherTrainer> CudaBackend::makeCruncherTrainer(const CruncherConfig& config) {
    if (std::string why = unsupportedRecipeReason(config); !why.empty())
        throw std::invalid_argument("--precision " + trainingRecipeName(config) + ": " + why);
    NAPKIN_CUDA_CHECK(cudaSetDevice(facts_.index));
    return std::make_unique<CudaCruncherTrainer>(context_, config);
}

std::string CudaBackend::unsupportedPrecisionReason(PrecisionRecipe recipe) const {
    switch (recipe) {
    case PrecisionRecipe::fp32:
    case PrecisionRecipe::mixedFp16:
        return {};
    case PrecisionRecipe::mixedBf16:
        return dtypeUnsupportedReason(BenchDtype::bf16, facts_.cc);
    case PrecisionRecipe::fp16:
    case PrecisionRecipe::bf16:
    case PrecisionRecipe::fp8Mixed:
        break;
    }
    return "the cuda Cruncher trainer runs fp32, tf32, mixed-bf16 and mixed-fp16";
}

std::string CudaBackend::unsupportedTf32Reason() const {
    return dtypeUnsupportedReason(BenchDtype::tf32, facts_.cc);
}

} // namespace napkin::cuda

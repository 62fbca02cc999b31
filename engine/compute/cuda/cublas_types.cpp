// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cublas_types.h"

namespace napkin::cuda {

GemmTypes gemmTypes(BenchDtype dtype) {
    switch (dtype) {
    case BenchDtype::fp32:
        return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, 4, false};
    case BenchDtype::tf32:
        return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F, 4, 4, false};
    case BenchDtype::fp16:
        return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, false};
    case BenchDtype::bf16:
        return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 2, 2, false};
    case BenchDtype::fp64:
        return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, 8, 8, false};
    case BenchDtype::fp8e4m3:
        return {CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, 1, 2, true};
    }
    return {CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, 4, 4, false};
}

} // namespace napkin::cuda

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How each benchmark dtype maps onto cuBLAS / cuBLASLt data and compute types.
#include "engine/compute/bench_dtype.h"

#include <cublas_api.h>
#include <library_types.h>

#include <cstddef>

namespace napkin::cuda {

struct GemmTypes {
    cudaDataType_t ab;           ///< A and B storage
    cudaDataType_t c;            ///< C (= D) storage
    cublasComputeType_t compute; ///< accumulation
    cudaDataType_t scale;        ///< alpha and beta
    std::size_t abBytes = 0, cBytes = 0;
    bool lt = false; ///< through cuBLASLt (fp8) rather than cublasGemmEx
};

/// fp32: 32F, CUBLAS_COMPUTE_32F (TF32 off: no FAST_TF32 and the handle keeps CUBLAS_DEFAULT_MATH);
/// tf32: fp32 storage, CUBLAS_COMPUTE_32F_FAST_TF32; fp16/bf16: 16-bit A, B, C with fp32 accumulation
/// (what torch.mm does); fp64: 64F; fp8-e4m3: E4M3 A and B, bf16 C, fp32 accumulation via cuBLASLt.
GemmTypes gemmTypes(BenchDtype dtype);

} // namespace napkin::cuda

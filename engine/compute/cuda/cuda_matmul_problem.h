// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GEMM problems on the GPU: cublasGemmEx for fp32 (TF32 off), tf32, fp16, bf16 and fp64; cuBLASLt
// for fp8 E4M3 with per-tensor scales, timing its top heuristics once per shape. Inputs are drawn on
// the device; A is stored k×m (the "TN" layout cuBLASLt's fp8 path requires), B k×n, C m×n, all
// column-major, for every dtype alike.
#include "engine/compute/benchmark_backend.h"
#include "engine/compute/cuda/cuda_handles.h"
#include "engine/compute/cuda/cuda_matmul_rules.h"

#include <memory>

namespace napkin::cuda {

/// What every problem on one device shares: stream, handles, the fp8 workspace and algorithm cache,
/// and the buffer written between timed runs to flush L2.
struct CudaContext {
    explicit CudaContext(const CudaDeviceFacts& deviceFacts);
    CudaDeviceFacts facts;
    Stream stream;
    CublasHandle blas;
    CublasLtHandle lt;
    DeviceBuffer ltWorkspace; ///< 32 MiB, as cuBLASLt's Hopper kernels want
    DeviceBuffer l2Flush;     ///< twice the L2 size
    AlgorithmCache<cublasLtMatmulAlgo_t> fp8Algorithms;
    static constexpr std::size_t kLtWorkspaceBytes = std::size_t{32} << 20;
    /// Overwrite the L2 cache with unrelated data (a memset of twice its size) on the stream.
    void flushL2() const;
};

/// Seeded uniform [−1, 1] inputs of `shape` on the device; throws CudaError (out of memory among
/// others) or std::invalid_argument for a shape cuBLAS cannot take.
std::unique_ptr<MatmulProblem> makeCudaMatmulProblem(std::shared_ptr<CudaContext> context,
                                                     const MatmulCase& shape, std::uint64_t seed);

} // namespace napkin::cuda

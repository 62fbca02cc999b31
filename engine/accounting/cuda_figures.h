// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Cited per-GPU CUDA figures the overhead ledger (memory_overheads.h) reads: the CUDA contexts someone
// measured, and PyTorch's cuBLAS and cuBLASLt workspace sizes with their sources. computeCapability()
// (memory_overheads.h) is defined beside them, in cuda_figures.cpp, with its table.
#include <string_view>

namespace napkin {

/// A CUDA context with a cited measurement: what nvidia-smi showed for a process that had only created
/// its context through PyTorch (lazy module loading, PyTorch's default since 1.13), and where.
struct CudaContextFigure {
    std::string_view id; ///< the catalog's GPU id
    int cudaMajor;
    double bytes;
    std::string_view source;
};

/// The measured context of `gpuId` (case-insensitive) on CUDA `cudaMajor`, or null: "not measured",
/// Napkin does not guess one.
const CudaContextFigure* measuredCudaContext(std::string_view gpuId, int cudaMajor);

namespace cuda_figures {

// PyTorch's cuBLAS workspace (aten/src/ATen/cuda/CublasHandlePool.cpp, parseChosenWorkspaceSize(), as at
// pytorch/pytorch 26a3905, 2025): CUBLAS_WORKSPACE_CONFIG's default ":4096:2:16:8" = 4096 KiB·2 +
// 16 KiB·8 = 8,519,680 B, and 4096 KiB·8 = 32 MiB on compute capability 9.0; allocated from the caching
// allocator once per (handle, stream). The cuBLASLt workspace (parseCUDABlasLtWorkspaceSize()):
// CUBLASLT_WORKSPACE_SIZE's default 1024 KiB, its own allocation per (handle, stream).
inline constexpr double kCublasDefaultWorkspace = 4096.0 * 1024 * 2 + 16.0 * 1024 * 8;
inline constexpr double kCublasSm90Workspace = 4096.0 * 8 * 1024;
inline constexpr double kCublasLtWorkspace = 1024.0 * 1024;
inline constexpr std::string_view kCublasSource =
    "PyTorch aten/src/ATen/cuda/CublasHandlePool.cpp (pytorch/pytorch 26a3905, 2025): "
    "parseChosenWorkspaceSize(), CUBLAS_WORKSPACE_CONFIG default :4096:2:16:8, 32 MiB on sm 9.0; one "
    "workspace per cuBLAS handle and stream, from the caching allocator";
inline constexpr std::string_view kCublasLtSource =
    "PyTorch aten/src/ATen/cuda/CublasHandlePool.cpp (pytorch/pytorch 26a3905, 2025): "
    "parseCUDABlasLtWorkspaceSize(), CUBLASLT_WORKSPACE_SIZE default 1024 KiB (PyTorch PR #73328), one "
    "per handle and stream";

} // namespace cuda_figures
} // namespace napkin

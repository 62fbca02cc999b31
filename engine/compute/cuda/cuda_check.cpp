// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_check.h"

#include <cstring>

namespace napkin::cuda {
namespace {

// "engine/compute/cuda/x.cpp" rather than the build machine's absolute path.
const char* shortFile(const char* file) {
    const char* p = std::strstr(file, "engine/compute/cuda/");
    return p ? p : file;
}

} // namespace

std::string cublasStatusText(cublasStatus_t status) {
    return "cuBLAS status " + std::to_string(static_cast<int>(status)) + " (" + cublasGetStatusName(status) +
           ": " + cublasGetStatusString(status) + ")";
}

void throwCudaError(cudaError_t status, const char* call, const char* file, int line) {
    // Clear the sticky "last error" of non-fatal failures (out of memory) so later calls start clean.
    (void)cudaGetLastError();
    const bool oom = status == cudaErrorMemoryAllocation;
    std::string message = oom ? "out of GPU memory: " : "CUDA error: ";
    message += std::string(cudaGetErrorName(status)) + " (" + cudaGetErrorString(status) + ") in " + call +
               " at " + shortFile(file) + ":" + std::to_string(line);
    throw CudaError(message, oom);
}

void throwCublasError(cublasStatus_t status, const char* call, const char* file, int line) {
    const bool oom = status == CUBLAS_STATUS_ALLOC_FAILED;
    std::string message = oom ? "out of GPU memory: " : "";
    message +=
        cublasStatusText(status) + " in " + call + " at " + shortFile(file) + ":" + std::to_string(line);
    throw CudaError(message, oom);
}

} // namespace napkin::cuda

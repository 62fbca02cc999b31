// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every CUDA runtime, cuBLAS and cuBLASLt status goes through these macros: a failure becomes a
// CudaError (a std::runtime_error naming the call and the library's own message), never an abort, so
// a failing benchmark case is recorded with its message and the sweep goes on.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace napkin::cuda {

class CudaError : public std::runtime_error {
public:
    CudaError(const std::string& message, bool outOfMemory)
        : std::runtime_error(message)
        , outOfMemory_(outOfMemory) {}
    bool outOfMemory() const { return outOfMemory_; }

private:
    bool outOfMemory_;
};

/// "cuBLAS status 3 (CUBLAS_STATUS_ALLOC_FAILED)" and friends; also used by the tests.
std::string cublasStatusText(cublasStatus_t status);

[[noreturn]] void throwCudaError(cudaError_t status, const char* call, const char* file, int line);
[[noreturn]] void throwCublasError(cublasStatus_t status, const char* call, const char* file, int line);

} // namespace napkin::cuda

#define NAPKIN_CUDA_CHECK(call)                                                                              \
    do {                                                                                                     \
        const cudaError_t napkinStatus_ = (call);                                                            \
        if (napkinStatus_ != cudaSuccess)                                                                    \
            ::napkin::cuda::throwCudaError(napkinStatus_, #call, __FILE__, __LINE__);                        \
    } while (0)

#define NAPKIN_CUBLAS_CHECK(call)                                                                            \
    do {                                                                                                     \
        const cublasStatus_t napkinStatus_ = (call);                                                         \
        if (napkinStatus_ != CUBLAS_STATUS_SUCCESS)                                                          \
            ::napkin::cuda::throwCublasError(napkinStatus_, #call, __FILE__, __LINE__);                      \
    } while (0)

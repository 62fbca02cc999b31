// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_handles.h"

#include "engine/compute/cuda/cuda_check.h"

namespace napkin::cuda {

// Destructors ignore the status: there is nothing useful to do about a failed free during unwinding,
// and a destructor must not throw.

DeviceBuffer::DeviceBuffer(std::size_t bytes)
    : bytes_(bytes) {
    if (bytes > 0)
        NAPKIN_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
        if (ptr_)
            (void)cudaFree(ptr_);
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

DeviceBuffer::~DeviceBuffer() {
    if (ptr_)
        (void)cudaFree(ptr_);
}

PinnedHostBuffer::PinnedHostBuffer(std::size_t bytes)
    : bytes_(bytes) {
    if (bytes > 0)
        NAPKIN_CUDA_CHECK(cudaMallocHost(&ptr_, bytes));
}

PinnedHostBuffer& PinnedHostBuffer::operator=(PinnedHostBuffer&& other) noexcept {
    if (this != &other) {
        if (ptr_)
            (void)cudaFreeHost(ptr_);
        ptr_ = std::exchange(other.ptr_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

PinnedHostBuffer::~PinnedHostBuffer() {
    if (ptr_)
        (void)cudaFreeHost(ptr_);
}

Stream::Stream() {
    NAPKIN_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
}

Stream& Stream::operator=(Stream&& other) noexcept {
    if (this != &other) {
        if (s_)
            (void)cudaStreamDestroy(s_);
        s_ = std::exchange(other.s_, nullptr);
    }
    return *this;
}

Stream::~Stream() {
    if (s_)
        (void)cudaStreamDestroy(s_);
}

void Stream::synchronize() const {
    NAPKIN_CUDA_CHECK(cudaStreamSynchronize(s_));
}

Event::Event() {
    NAPKIN_CUDA_CHECK(cudaEventCreate(&e_));
}

Event& Event::operator=(Event&& other) noexcept {
    if (this != &other) {
        if (e_)
            (void)cudaEventDestroy(e_);
        e_ = std::exchange(other.e_, nullptr);
    }
    return *this;
}

Event::~Event() {
    if (e_)
        (void)cudaEventDestroy(e_);
}

void Event::record(cudaStream_t stream) const {
    NAPKIN_CUDA_CHECK(cudaEventRecord(e_, stream));
}

double Event::secondsSince(const Event& start) const {
    NAPKIN_CUDA_CHECK(cudaEventSynchronize(e_));
    float ms = 0;
    NAPKIN_CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return static_cast<double>(ms) * 1e-3;
}

CublasHandle::CublasHandle(cudaStream_t stream) {
    NAPKIN_CUBLAS_CHECK(cublasCreate(&h_));
    try {
        NAPKIN_CUBLAS_CHECK(cublasSetStream(h_, stream));
    } catch (...) {
        (void)cublasDestroy(h_);
        throw;
    }
}

CublasHandle& CublasHandle::operator=(CublasHandle&& other) noexcept {
    if (this != &other) {
        if (h_)
            (void)cublasDestroy(h_);
        h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
}

CublasHandle::~CublasHandle() {
    if (h_)
        (void)cublasDestroy(h_);
}

CublasLtHandle::CublasLtHandle() {
    NAPKIN_CUBLAS_CHECK(cublasLtCreate(&h_));
}

CublasLtHandle& CublasLtHandle::operator=(CublasLtHandle&& other) noexcept {
    if (this != &other) {
        if (h_)
            (void)cublasLtDestroy(h_);
        h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
}

CublasLtHandle::~CublasLtHandle() {
    if (h_)
        (void)cublasLtDestroy(h_);
}

} // namespace napkin::cuda

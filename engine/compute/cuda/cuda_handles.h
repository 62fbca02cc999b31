// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Move-only owners of CUDA resources (nvbench style): each frees what it holds exactly once, in its
// destructor, and never throws from there. Construction failures throw CudaError.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

namespace napkin::cuda {

/// Device memory of a fixed size in bytes (cudaMalloc).
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(std::size_t bytes);
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr))
        , bytes_(std::exchange(other.bytes_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer();

    void* get() const { return ptr_; }
    template <typename T> T* as() const { return static_cast<T*>(ptr_); }
    std::size_t bytes() const { return bytes_; }

private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

/// Page-locked host memory (cudaMallocHost): what the DMA engines copy from without a staging copy.
class PinnedHostBuffer {
public:
    PinnedHostBuffer() = default;
    explicit PinnedHostBuffer(std::size_t bytes);
    PinnedHostBuffer(PinnedHostBuffer&& other) noexcept
        : ptr_(std::exchange(other.ptr_, nullptr))
        , bytes_(std::exchange(other.bytes_, 0)) {}
    PinnedHostBuffer& operator=(PinnedHostBuffer&& other) noexcept;
    PinnedHostBuffer(const PinnedHostBuffer&) = delete;
    PinnedHostBuffer& operator=(const PinnedHostBuffer&) = delete;
    ~PinnedHostBuffer();

    void* get() const { return ptr_; }
    std::size_t bytes() const { return bytes_; }

private:
    void* ptr_ = nullptr;
    std::size_t bytes_ = 0;
};

class Stream {
public:
    Stream();
    Stream(Stream&& other) noexcept
        : s_(std::exchange(other.s_, nullptr)) {}
    Stream& operator=(Stream&& other) noexcept;
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream();
    cudaStream_t get() const { return s_; }
    void synchronize() const;

private:
    cudaStream_t s_ = nullptr;
};

class Event {
public:
    Event();
    Event(Event&& other) noexcept
        : e_(std::exchange(other.e_, nullptr)) {}
    Event& operator=(Event&& other) noexcept;
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event();
    cudaEvent_t get() const { return e_; }
    void record(cudaStream_t stream) const;
    /// Seconds from `start` to this event (both recorded and completed).
    double secondsSince(const Event& start) const;

private:
    cudaEvent_t e_ = nullptr;
};

class CublasHandle {
public:
    explicit CublasHandle(cudaStream_t stream);
    CublasHandle(CublasHandle&& other) noexcept
        : h_(std::exchange(other.h_, nullptr)) {}
    CublasHandle& operator=(CublasHandle&& other) noexcept;
    CublasHandle(const CublasHandle&) = delete;
    CublasHandle& operator=(const CublasHandle&) = delete;
    ~CublasHandle();
    cublasHandle_t get() const { return h_; }

private:
    cublasHandle_t h_ = nullptr;
};

class CublasLtHandle {
public:
    CublasLtHandle();
    CublasLtHandle(CublasLtHandle&& other) noexcept
        : h_(std::exchange(other.h_, nullptr)) {}
    CublasLtHandle& operator=(CublasLtHandle&& other) noexcept;
    CublasLtHandle(const CublasLtHandle&) = delete;
    CublasLtHandle& operator=(const CublasLtHandle&) = delete;
    ~CublasLtHandle();
    cublasLtHandle_t get() const { return h_; }

private:
    cublasLtHandle_t h_ = nullptr;
};

} // namespace napkin::cuda

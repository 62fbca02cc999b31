// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_device_query.h"

#include "engine/compute/cuda/cuda_check.h"

namespace napkin::cuda {

namespace {

std::string cudaVersionText(int version) {
    return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

} // namespace

std::string missingDeviceText(int driverVersion, int runtimeVersion, bool driverHasNoDevice) {
    if (driverVersion <= 0)
        return "no NVIDIA GPU or driver found (this machine has no NVIDIA driver; the benchmarks run on the "
               "CPU)";
    if (driverHasNoDevice)
        return "no NVIDIA GPU found: the NVIDIA driver (CUDA " + cudaVersionText(driverVersion) +
               ") reports none";
    return "the NVIDIA driver supports CUDA " + cudaVersionText(driverVersion) +
           ", older than this build's CUDA runtime " + cudaVersionText(runtimeVersion) +
           ": update the driver";
}

std::string noDeviceReason() {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) {
        (void)cudaGetLastError();
        if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice) {
            int driver = 0;
            if (cudaDriverGetVersion(&driver) != cudaSuccess)
                driver = 0;
            (void)cudaGetLastError();
            return "no CUDA device: " +
                   missingDeviceText(driver, CUDART_VERSION, status == cudaErrorNoDevice);
        }
        return std::string("no CUDA device: ") + cudaGetErrorString(status);
    }
    if (count <= 0)
        return "no CUDA device: the CUDA runtime reports 0 devices";
    return {};
}

CudaDeviceFacts queryDevice(int index) {
    cudaDeviceProp prop{};
    NAPKIN_CUDA_CHECK(cudaGetDeviceProperties(&prop, index));
    // CUDA 13 removed the clock fields from cudaDeviceProp; the attributes remain (kHz).
    int clockKhz = 0, memoryClockKhz = 0;
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&clockKhz, cudaDevAttrClockRate, index));
    NAPKIN_CUDA_CHECK(cudaDeviceGetAttribute(&memoryClockKhz, cudaDevAttrMemoryClockRate, index));
    CudaDeviceFacts f;
    f.index = index;
    f.name = prop.name;
    f.cc = {prop.major, prop.minor};
    f.smCount = prop.multiProcessorCount;
    f.memoryBytes = static_cast<double>(prop.totalGlobalMem);
    f.clockHz = clockKhz * 1e3;
    f.memoryClockHz = memoryClockKhz * 1e3;
    f.memoryBusBits = prop.memoryBusWidth;
    f.l2CacheBytes = prop.l2CacheSize;
    return f;
}

} // namespace napkin::cuda

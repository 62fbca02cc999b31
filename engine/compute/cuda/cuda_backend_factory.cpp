// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/compute/cuda/cuda_backend_factory.h"

#include "engine/compute/cuda/cuda_backend.h"
#include "engine/compute/cuda/cuda_device_query.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace napkin {

std::string cudaRuntimeVersion() {
    return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

std::string cudaBackendUnavailableReason() {
    return cuda::noDeviceReason();
}

std::vector<LocalGpu> cudaLocalGpus() {
    std::vector<LocalGpu> gpus;
    if (!cuda::noDeviceReason().empty())
        return gpus;
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess)
        return gpus;
    for (int i = 0; i < count; ++i) {
        const cuda::CudaDeviceFacts f = cuda::queryDevice(i);
        LocalGpu gpu;
        gpu.index = f.index;
        gpu.name = f.name;
        gpu.memoryBytes = f.memoryBytes;
        gpu.smCount = f.smCount;
        gpu.clockHz = f.clockHz;
        gpu.memoryClockHz = f.memoryClockHz;
        gpu.memoryBusBits = f.memoryBusBits;
        gpu.computeCapability = std::to_string(f.cc.major) + "." + std::to_string(f.cc.minor);
        gpus.push_back(std::move(gpu));
    }
    return gpus;
}

std::unique_ptr<BenchmarkBackend> makeCudaBackend() {
    if (std::string why = cuda::noDeviceReason(); !why.empty())
        throw std::runtime_error(why);
    return std::make_unique<cuda::CudaBackend>(0);
}

} // namespace napkin

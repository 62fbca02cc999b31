#include "engine/compute/cuda/cuda_backend_factory.h"

#include "engine/compute/cuda/cuda_backend.h"
#include "engine/compute/cuda/cuda_device_query.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace napkin {

std::string cudaRuntimeVersion() {
    return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

std::string cudaBackendUnavailableReason() {
    return cuda::noDeviceReason();
}

std::unique_ptr<BenchmarkBackend> makeCudaBackend() {
    if (std::string why = cuda::noDeviceReason(); !why.empty())
        throw std::runtime_error(why);
    return std::make_unique<cuda::CudaBackend>(0);
}

} // namespace napkin

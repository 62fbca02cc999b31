#pragma once
// Asks the CUDA runtime which GPUs there are and what they are.
#include "engine/compute/cuda/cuda_matmul_rules.h"

#include <string>

namespace napkin::cuda {

/// Empty when at least one CUDA device is usable, else "no CUDA device: <the runtime's reason>".
/// Never throws (a machine without a driver is an ordinary answer).
std::string noDeviceReason();

/// Name, SMs, memory, clocks and L2 of device `index`; throws CudaError.
CudaDeviceFacts queryDevice(int index);

} // namespace napkin::cuda

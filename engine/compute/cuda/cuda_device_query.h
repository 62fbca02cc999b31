// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Asks the CUDA runtime which GPUs there are and what they are.
#include "engine/compute/cuda/cuda_matmul_rules.h"

#include <string>

namespace napkin::cuda {

/// Empty when at least one CUDA device is usable, else "no CUDA device: <why>": missingDeviceText() where
/// there is no driver, an old one or no GPU, else the runtime's own reason. Never throws (a machine without
/// a driver is an ordinary answer).
std::string noDeviceReason();

/// Why there is no device, in a user's words, from what the runtime says: `driverVersion` as
/// cudaDriverGetVersion gives it (0: no NVIDIA driver is installed, 12020: CUDA 12.2), `runtimeVersion` as
/// CUDART_VERSION (13000), `driverHasNoDevice` when the driver is there and reports no GPU. The runtime's
/// own "CUDA driver version is insufficient for CUDA runtime version" on a machine with no driver at all
/// read as though a driver were there to update.
std::string missingDeviceText(int driverVersion, int runtimeVersion, bool driverHasNoDevice);

/// Name, SMs, memory, clocks and L2 of device `index`; throws CudaError.
CudaDeviceFacts queryDevice(int index);

} // namespace napkin::cuda

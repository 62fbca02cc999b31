// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "This machine's GPU": what the CUDA runtime says about a device, and which catalog part it is.
#include "engine/hardware/gpu_catalog.h"

#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// One device as the driver reports it (cudaGetDeviceProperties), in base units.
struct LocalGpu {
    int index = 0;
    std::string name;              ///< "NVIDIA H100 80GB HBM3", as nvidia-smi prints it
    double memoryBytes = 0;        ///< totalGlobalMem
    int smCount = 0;               ///< multiProcessorCount
    double clockHz = 0;            ///< peak SM clock
    double memoryClockHz = 0;      ///< peak memory clock
    int memoryBusBits = 0;         ///< memory bus width
    std::string computeCapability; ///< "9.0"
};

/// What the runtime found: the devices, or why there are none ("no CUDA device found: …").
struct LocalGpuReport {
    std::vector<LocalGpu> devices;
    std::string noDeviceReason; ///< empty when at least one device was found
};

/// A device matched to the catalog.
struct DeviceMatch {
    std::string catalogId; ///< empty when no part matches
    std::string reason;    ///< how it matched, or why it did not
};

/// The catalog part for a device: its name gives the part (catalogIdForDeviceName), and its memory, where
/// known (> 0), must agree: within 1% of the part's driver-reported memory where the catalog has it, else
/// within a factor 1.1 of the datasheet figure (the driver's bytes exceed the datasheet's decimal GB by up
/// to 7.4%: 81,920 MiB on an "80 GB" A100). A MIG slice or a variant the catalog lacks (the 40 GB A100
/// PCIe) is then no match, said so, rather than the wrong part.
DeviceMatch matchDevice(std::string_view deviceName, double memoryBytes, const GpuCatalog& catalog);

} // namespace napkin

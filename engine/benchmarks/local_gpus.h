// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "This machine's GPU": the CUDA devices this process can see, each matched to the catalog. Asked by the
// CLI (`napkin-cli gpus --this-machine`) and the app's GPU chooser; a machine without a device, or a
// build without CUDA, is an ordinary answer with its reason.
#include "engine/hardware/device_match.h"
#include "engine/hardware/gpu_catalog.h"

#include <string>
#include <vector>

namespace napkin {

/// One device and the catalog part it is (matchDevice).
struct LocalGpuAnswer {
    LocalGpu device;
    DeviceMatch match;
};

struct ThisMachineGpus {
    std::vector<LocalGpuAnswer> gpus;
    /// "no CUDA device found: <why>" when there is none (no driver, no device, a build without CUDA, a
    /// driver error); empty when at least one was found.
    std::string noDeviceReason;
};

/// Asks the CUDA runtime (where this build has the CUDA backend) for its devices; never throws.
ThisMachineGpus thisMachineGpus(const GpuCatalog& catalog = GpuCatalog::builtIn());

/// As thisMachineGpus, from devices already found (tests, and the query itself).
ThisMachineGpus matchLocalGpus(const LocalGpuReport& report, const GpuCatalog& catalog);

} // namespace napkin

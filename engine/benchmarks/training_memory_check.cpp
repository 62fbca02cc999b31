// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/benchmarks/training_memory_check.h"

#include "engine/benchmarks/training_run.h"
#include "engine/numerics/quantity_format.h"

#include <unistd.h>

namespace napkin {

double physicalMemoryBytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && pageSize > 0 ? static_cast<double>(pages) * static_cast<double>(pageSize) : 0;
}

std::string cpuTrainingMemoryRefusal(const CruncherConfig& config, double physicalBytes) {
    if (physicalBytes <= 0)
        return {};
    const double needed = predictedCruncherAccounting(config).memory.total.value;
    if (needed <= physicalBytes / 2)
        return {};
    return "needs " + formatBytes(needed, ByteUnits::binary) +
           " (parameters, gradients, optimizer state and activations, as the accounting counts them); "
           "this machine has " +
           formatBytes(physicalBytes, ByteUnits::binary) + ", and a run may take at most half";
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/device_match.h"

#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {
namespace {

constexpr double kDriverTolerance = 0.01;   // the same card reports the same bytes
constexpr double kDatasheetTolerance = 1.1; // decimal GB against the driver's bytes

} // namespace

DeviceMatch matchDevice(std::string_view deviceName, double memoryBytes, const GpuCatalog& catalog) {
    const std::string name(deviceName);
    const std::string id = catalogIdForDeviceName(deviceName);
    const GpuSpec* part = id.empty() ? nullptr : catalog.find(id);
    if (!part)
        return {{}, "'" + name + "' is not in the GPU catalog; define it as a custom GPU"};
    if (!(memoryBytes > 0))
        return {part->id, "by name ('" + name + "'); the device's memory is not known"};
    const std::string memory = formatBytes(memoryBytes, ByteUnits::binary);
    if (part->driverMemoryBytes) {
        if (std::abs(memoryBytes - *part->driverMemoryBytes) <= kDriverTolerance * *part->driverMemoryBytes)
            return {part->id,
                    "by name and memory: " + memory + " is what the driver reports for the " + part->id};
        return {{},
                "'" + name + "' reports " + memory + ", not the " +
                    formatBytes(*part->driverMemoryBytes, ByteUnits::binary) +
                    " the driver reports for the " + part->id +
                    " (a MIG slice, or a variant the catalog lacks)"};
    }
    const double ratio = memoryBytes / part->memoryBytes;
    if (ratio >= 1 / kDatasheetTolerance && ratio <= kDatasheetTolerance)
        return {part->id, "by name and memory: " + memory + " agrees with the datasheet's " +
                              formatBytes(part->memoryBytes) + " of the " + part->id};
    return {{},
            "'" + name + "' reports " + memory + ", far from the " + formatBytes(part->memoryBytes) +
                " of the " + part->id + " (a MIG slice, or a variant the catalog lacks)"};
}

} // namespace napkin

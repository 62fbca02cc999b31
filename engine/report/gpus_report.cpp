// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/gpus_report.h"

#include "engine/report/json_values.h"

namespace napkin {

nlohmann::json catalogPartsJson(const GpuCatalog& catalog) {
    nlohmann::json parts = nlohmann::json::array();
    for (const GpuSpec& gpu : catalog.gpus()) {
        nlohmann::json bf16 = nullptr;
        if (densePeakGiven(gpu, ComputeType::bf16))
            bf16 = jsonNumber(gpu.densePeakBf16);
        parts.push_back({{"id", gpu.id},
                         {"name", gpu.name},
                         {"vendor", gpu.vendor},
                         {"kind", gpu.kind},
                         {"memory_bytes", jsonNumber(gpu.memoryBytes)},
                         {"memory_bandwidth_bytes_per_second", jsonNumber(gpu.memoryBandwidthBytesPerSecond)},
                         {"dense_peak_bf16", bf16},
                         {"source", gpu.source}});
    }
    return parts;
}

nlohmann::json thisMachineGpusJson(const ThisMachineGpus& machine) {
    nlohmann::json devices = nlohmann::json::array();
    for (const LocalGpuAnswer& answer : machine.gpus) {
        const LocalGpu& d = answer.device;
        nlohmann::json id = nullptr;
        if (!answer.match.catalogId.empty())
            id = answer.match.catalogId;
        devices.push_back({{"index", d.index},
                           {"name", d.name},
                           {"memory_bytes", jsonNumber(d.memoryBytes)},
                           {"sm_count", d.smCount},
                           {"clock_hz", jsonNumber(d.clockHz)},
                           {"memory_clock_hz", jsonNumber(d.memoryClockHz)},
                           {"memory_bus_bits", d.memoryBusBits},
                           {"compute_capability", d.computeCapability},
                           {"catalog_id", id},
                           {"match", answer.match.reason}});
    }
    nlohmann::json reason = nullptr;
    if (!machine.noDeviceReason.empty())
        reason = machine.noDeviceReason;
    return {{"devices", devices}, {"no_device_reason", reason}};
}

} // namespace napkin

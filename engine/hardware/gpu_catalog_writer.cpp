// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/gpu_catalog_writer.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <utility>

namespace napkin {
namespace {

void putText(nlohmann::json& entry, const char* key, const std::string& value) {
    if (!value.empty())
        entry[key] = value;
}

// A given peak of 0 is written "none" (no such path); one not given is left out (unknown).
void putPeak(nlohmann::json& peaks, const char* key, const std::optional<double>& value) {
    if (!value)
        return;
    if (*value == 0)
        peaks[key] = "none";
    else
        peaks[key] = *value;
}

nlohmann::json gpuJson(const GpuSpec& gpu) {
    nlohmann::json entry = nlohmann::json::object();
    entry["id"] = gpu.id;
    entry["name"] = gpu.name;
    entry["source"] = gpu.source;
    putText(entry, "vendor", gpu.vendor);
    entry["kind"] = gpu.kind;
    putText(entry, "architecture", gpu.architecture);
    putText(entry, "compute_capability", gpu.computeCapability);
    putText(entry, "vendor_arch", gpu.vendorArch);
    putText(entry, "architecture_source", gpu.architectureSource);
    entry["memory_bytes"] = gpu.memoryBytes;
    entry["memory_bandwidth_bytes_per_second"] = gpu.memoryBandwidthBytesPerSecond;
    putText(entry, "memory_note", gpu.memoryNote);
    if (gpu.unifiedMemoryBytes) {
        entry["unified_memory_bytes"] = *gpu.unifiedMemoryBytes;
        entry["unified_memory_source"] = gpu.unifiedMemorySource;
    }
    if (gpu.driverMemoryBytes) {
        entry["driver_memory_bytes"] = *gpu.driverMemoryBytes;
        entry["driver_memory_source"] = gpu.driverMemorySource;
    }
    if (gpu.tdpWatts) {
        entry["tdp_watts"] = *gpu.tdpWatts;
        entry["tdp_source"] = gpu.tdpSource;
    }
    putText(entry, "host_link_name", gpu.hostLinkName);
    if (gpu.hostLinkBytesPerSecondPerDirection) {
        entry["host_link_bytes_per_second_per_direction"] = *gpu.hostLinkBytesPerSecondPerDirection;
        entry["host_link_source"] = gpu.hostLinkSource;
    }
    if (gpu.gpuLinkBytesPerSecondPerDirection) {
        entry["gpu_link_bytes_per_second_per_direction"] = *gpu.gpuLinkBytesPerSecondPerDirection;
        entry["gpu_link_gpus"] = gpu.gpuLinkGpus;
        entry["gpu_link_name"] = gpu.gpuLinkName;
        entry["gpu_link_source"] = gpu.gpuLinkSource;
    }
    if (gpu.networkBytesPerSecondPerDirection) {
        entry["network_bytes_per_second_per_direction"] = *gpu.networkBytesPerSecondPerDirection;
        entry["network_source"] = gpu.networkSource;
    }
    putText(entry, "interconnect", gpu.interconnect);
    putText(entry, "interconnect_source", gpu.interconnectSource);
    nlohmann::json peaks = nlohmann::json::object();
    const std::pair<const char*, ComputeType> fivePeaks[] = {{"fp32", ComputeType::fp32},
                                                             {"tf32", ComputeType::tf32},
                                                             {"fp16", ComputeType::fp16},
                                                             {"bf16", ComputeType::bf16},
                                                             {"fp8", ComputeType::fp8}};
    for (const auto& [key, compute] : fivePeaks)
        if (densePeakGiven(gpu, compute))
            putPeak(peaks, key, densePeakFlopsPerSecond(gpu, compute));
    putPeak(peaks, "fp64", gpu.densePeakFp64);
    putPeak(peaks, "int8", gpu.densePeakInt8);
    putPeak(peaks, "fp4", gpu.densePeakFp4);
    entry["dense_peak_flops_per_second"] = std::move(peaks);
    putText(entry, "extra_peaks_source", gpu.extraPeaksSource);
    return entry;
}

} // namespace

std::string addGpu(GpuCatalog& catalog, const GpuSpec& gpu) {
    return catalog.addFromJson(gpuCatalogJson({gpu}));
}

std::string gpuCatalogJson(const std::vector<GpuSpec>& gpus) {
    nlohmann::json list = nlohmann::json::array();
    for (const GpuSpec& gpu : gpus)
        list.push_back(gpuJson(gpu));
    nlohmann::json document = {{"version", 1}, {"gpus", std::move(list)}};
    return document.dump(2) + "\n";
}

} // namespace napkin

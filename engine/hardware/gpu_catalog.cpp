// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/gpu_catalog.h"

#include "engine/io/bounded_file_read.h"
#include "engine/text/ascii_case.h"
#include "engine/numerics/quantity_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace napkin {

extern const char* const kBuiltInGpuCatalogJson;

namespace {

// Every figure lies in [1, 1e21] (or is 0 where that means "none"). Real GPUs' figures lie far inside,
// and every answer computed from them (a time, a capacity × GPUs, bytes / bandwidth) stays a finite
// double: a user's catalog with 1e-300 FLOP/s or 1e308 bytes is refused here, not answered with inf.
constexpr double kSmallestFigure = 1, kLargestFigure = 1e21;

double nonNegative(const nlohmann::json& object, const char* key, const std::string& where, bool positive) {
    if (!object.contains(key) || !object.at(key).is_number())
        throw std::runtime_error(where + ": '" + key + "' must be a number");
    const double value = object.at(key).get<double>();
    const bool inRange = value >= kSmallestFigure && value <= kLargestFigure;
    if (!(inRange || (!positive && value == 0)))
        throw std::runtime_error(where + ": '" + key + "' must be " + (positive ? "" : "0 or ") +
                                 "from 1 to 1e21, got " + formatNumber(value));
    return value;
}

// A dense peak: a figure, 0 or "none" (the part has no such path), or absent (no source gives it).
// fp32 is `positive`: every part has an fp32 path, so where it is given it is a figure.
std::optional<double> peakValue(const nlohmann::json& peaks, const char* key, const std::string& where,
                                bool positive = false) {
    if (!peaks.contains(key))
        return std::nullopt;
    if (!positive && peaks.at(key).is_string() && peaks.at(key).get<std::string>() == "none")
        return 0.0;
    return nonNegative(peaks, key, where, positive);
}

std::optional<double> optionalFigure(const nlohmann::json& entry, const char* key, const std::string& where) {
    if (!entry.contains(key))
        return std::nullopt;
    return nonNegative(entry, key, where, true);
}

std::string text(const nlohmann::json& entry, const char* key) {
    return entry.contains(key) && entry.at(key).is_string() ? entry.at(key).get<std::string>()
                                                            : std::string();
}

GpuSpec parseGpu(const nlohmann::json& entry, std::size_t index) {
    std::string where = "gpus[" + std::to_string(index) + "]";
    if (!entry.is_object())
        throw std::runtime_error(where + ": must be an object");
    if (!entry.contains("id") || !entry.at("id").is_string() || entry.at("id").get<std::string>().empty())
        throw std::runtime_error(where + ": 'id' must be a non-empty string");
    GpuSpec gpu;
    gpu.id = entry.at("id").get<std::string>();
    where += " (" + gpu.id + ")";
    gpu.name = entry.value("name", gpu.id);
    gpu.source = entry.value("source", std::string("user supplied"));
    gpu.memoryBytes = nonNegative(entry, "memory_bytes", where, true);
    gpu.memoryBandwidthBytesPerSecond = nonNegative(entry, "memory_bandwidth_bytes_per_second", where, false);
    if (!entry.contains("dense_peak_flops_per_second") ||
        !entry.at("dense_peak_flops_per_second").is_object())
        throw std::runtime_error(where + ": 'dense_peak_flops_per_second' must be an object");
    const auto& peaks = entry.at("dense_peak_flops_per_second");
    const std::string peakWhere = where + ".dense_peak_flops_per_second";
    // A dtype left out is "not given" (reads 0, flagged in peaksNotGiven); "none" or 0 is "no such path".
    const std::pair<const char*, double*> fivePeaks[] = {{"fp32", &gpu.densePeakFp32},
                                                         {"tf32", &gpu.densePeakTf32},
                                                         {"fp16", &gpu.densePeakFp16},
                                                         {"bf16", &gpu.densePeakBf16},
                                                         {"fp8", &gpu.densePeakFp8}};
    for (unsigned i = 0; i < 5; ++i) {
        const std::optional<double> peak = peakValue(peaks, fivePeaks[i].first, peakWhere, i == 0);
        *fivePeaks[i].second = peak.value_or(0.0);
        if (!peak)
            gpu.peaksNotGiven |= 1u << i; // the order of ComputeType
    }
    gpu.densePeakFp64 = peakValue(peaks, "fp64", peakWhere);
    gpu.densePeakInt8 = peakValue(peaks, "int8", peakWhere);
    gpu.densePeakFp4 = peakValue(peaks, "fp4", peakWhere);
    gpu.extraPeaksSource = text(entry, "extra_peaks_source");
    gpu.vendor = text(entry, "vendor");
    if (entry.contains("kind")) {
        gpu.kind = text(entry, "kind");
        if (gpu.kind != "gpu" && gpu.kind != "tpu" && gpu.kind != "unified")
            throw std::runtime_error(where + ": 'kind' must be \"gpu\", \"tpu\" or \"unified\"");
    }
    gpu.architecture = text(entry, "architecture");
    gpu.computeCapability = text(entry, "compute_capability");
    gpu.vendorArch = text(entry, "vendor_arch");
    gpu.architectureSource = text(entry, "architecture_source");
    gpu.tdpWatts = optionalFigure(entry, "tdp_watts", where);
    if (gpu.tdpWatts)
        gpu.tdpSource = entry.value("tdp_source", std::string("user supplied"));
    gpu.hostLinkName = text(entry, "host_link_name");
    gpu.interconnect = text(entry, "interconnect");
    gpu.interconnectSource = text(entry, "interconnect_source");
    gpu.unifiedMemoryBytes = optionalFigure(entry, "unified_memory_bytes", where);
    if (gpu.unifiedMemoryBytes)
        gpu.unifiedMemorySource = entry.value("unified_memory_source", std::string("user supplied"));
    gpu.memoryNote = text(entry, "memory_note");
    // Optional: only GPUs whose datasheet states the host link get a copy-bandwidth promise.
    if (entry.contains("host_link_bytes_per_second_per_direction"))
        gpu.hostLinkBytesPerSecondPerDirection =
            nonNegative(entry, "host_link_bytes_per_second_per_direction", where, true);
    if (gpu.hostLinkBytesPerSecondPerDirection)
        gpu.hostLinkSource = entry.value("host_link_source", std::string("user supplied"));
    // Optional: the links communication time is counted at (accounting's communication ledger).
    if (entry.contains("gpu_link_bytes_per_second_per_direction")) {
        gpu.gpuLinkBytesPerSecondPerDirection =
            nonNegative(entry, "gpu_link_bytes_per_second_per_direction", where, true);
        gpu.gpuLinkGpus =
            entry.contains("gpu_link_gpus") ? nonNegative(entry, "gpu_link_gpus", where, true) : 1.0;
        if (gpu.gpuLinkGpus != std::floor(gpu.gpuLinkGpus))
            throw std::runtime_error(where + ": 'gpu_link_gpus' must be a whole number");
        gpu.gpuLinkName = entry.value("gpu_link_name", std::string("GPU link"));
        gpu.gpuLinkSource = entry.value("gpu_link_source", std::string("user supplied"));
    }
    if (entry.contains("network_bytes_per_second_per_direction")) {
        gpu.networkBytesPerSecondPerDirection =
            nonNegative(entry, "network_bytes_per_second_per_direction", where, true);
        gpu.networkSource = entry.value("network_source", std::string("user supplied"));
    }
    if (entry.contains("driver_memory_bytes")) {
        gpu.driverMemoryBytes = nonNegative(entry, "driver_memory_bytes", where, true);
        gpu.driverMemorySource = entry.value("driver_memory_source", std::string("user supplied"));
    }
    return gpu;
}

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace

std::string catalogIdForDeviceName(std::string_view deviceName) {
    const std::string n = lower(deviceName);
    auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
    // Order matters: the more specific names first ("gh200" before "h200", "h100 nvl" before "h100", "pcie"
    // before SXM).
    if (has("gh200")) {
        if (has("144g"))
            return "GH200-144GB"; // "NVIDIA GH200 144G HBM3e"
        // "NVIDIA GH200 480GB" names the Grace side's LPDDR5X; its GPU has the 96 GB HBM3. "120GB" does
        // not say which HBM, so it is not guessed.
        return has("480gb") ? "GH200-96GB" : std::string();
    }
    if (has("h200"))
        return "H200";
    if (has("h100")) {
        if (has("nvl"))
            return "H100-NVL";
        if (has("pcie"))
            return "H100-PCIe";
        return "H100-SXM"; // "NVIDIA H100 80GB HBM3" is the SXM5 part's name
    }
    if (has("a100")) {
        if (has("pcie"))
            return "A100-PCIe";
        return has("40gb") ? "A100-SXM-40GB" : "A100-SXM"; // "NVIDIA A100-SXM4-40GB"
    }
    if (has("b200"))
        return "B200";
    if (has("l40s"))
        return "L40S";
    if (has("rtx 4090"))
        return "RTX-4090";
    if (has("rtx 5090"))
        return "RTX-5090";
    if (has("rtx 3090"))
        return has("3090 ti") ? std::string() : "RTX-3090"; // the Ti is another part, not in the catalog
    if (has("rtx a6000"))
        return "RTX-A6000";
    if (has("v100"))
        return has("32gb") ? "V100-32GB" : "V100-16GB"; // "Tesla V100-SXM2-16GB"
    if (has("a10g"))
        return "A10G";
    if (n.ends_with(" a10") || has(" a10 "))
        return "A10"; // "NVIDIA A10", not A100
    if (has("tesla t4") || n.ends_with(" t4"))
        return "T4";
    if (n.ends_with(" l4") || has(" l4 "))
        return "L4"; // "NVIDIA L4", not L40S
    return {};
}

double densePeakFlopsPerSecond(const GpuSpec& gpu, ComputeType compute) {
    switch (compute) {
    case ComputeType::fp32:
        return gpu.densePeakFp32;
    case ComputeType::tf32:
        return gpu.densePeakTf32;
    case ComputeType::fp16:
        return gpu.densePeakFp16;
    case ComputeType::bf16:
        return gpu.densePeakBf16;
    case ComputeType::fp8:
        return gpu.densePeakFp8;
    }
    return 0.0;
}

const GpuCatalog& GpuCatalog::builtIn() {
    static const GpuCatalog catalog = [] {
        GpuCatalog c;
        const std::string error = c.addFromJson(kBuiltInGpuCatalogJson);
        if (!error.empty())
            throw std::logic_error("built-in GPU catalog is invalid: " + error); // a build defect
        return c;
    }();
    return catalog;
}

std::string GpuCatalog::addFromJson(std::string_view jsonText) {
    std::vector<GpuSpec> parsed;
    try {
        const auto document = nlohmann::json::parse(jsonText);
        if (!document.is_object() || !document.contains("gpus") || !document.at("gpus").is_array())
            return "expected an object with a 'gpus' array";
        const auto& list = document.at("gpus");
        for (std::size_t i = 0; i < list.size(); ++i)
            parsed.push_back(parseGpu(list[i], i));
    } catch (const nlohmann::json::parse_error& e) {
        return std::string("not valid JSON: ") + e.what();
    } catch (const std::exception& e) {
        return e.what();
    }
    for (GpuSpec& gpu : parsed) {
        auto existing = std::find_if(m_gpus.begin(), m_gpus.end(),
                                     [&](const GpuSpec& g) { return equalsIgnoringCase(g.id, gpu.id); });
        if (existing != m_gpus.end())
            *existing = std::move(gpu);
        else
            m_gpus.push_back(std::move(gpu));
    }
    return {};
}

std::string GpuCatalog::addFromFile(const std::string& path) {
    const BoundedFileRead file = readBoundedFile(path, kMaxFileBytes);
    if (!file.ok())
        return file.error;
    const std::string error = addFromJson(file.bytes);
    return error.empty() ? error : path + ": " + error;
}

const GpuSpec* GpuCatalog::find(std::string_view id) const {
    auto it = std::find_if(m_gpus.begin(), m_gpus.end(),
                           [&](const GpuSpec& g) { return equalsIgnoringCase(g.id, id); });
    return it == m_gpus.end() ? nullptr : &*it;
}

std::string GpuCatalog::idList() const {
    std::string list;
    for (const GpuSpec& gpu : m_gpus)
        list += (list.empty() ? "" : ", ") + gpu.id;
    return list;
}

} // namespace napkin

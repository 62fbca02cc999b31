// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One figure of a catalog part, read the same way by every catalog test: a dense peak, memory, bandwidth,
// TDP, driver memory or link, with -1 for "no source gives it" and 0 for "the part has no such path".
#include "engine/hardware/gpu_catalog.h"

#include <QString>

#include <optional>

namespace gpu_figure {

constexpr double absent = -1; ///< no source gives the figure

inline double figure(const napkin::GpuSpec& gpu, const QString& field) {
    using napkin::ComputeType;
    auto opt = [](const std::optional<double>& v) { return v ? *v : absent; };
    auto peak = [&](ComputeType c) {
        return napkin::densePeakGiven(gpu, c) ? napkin::densePeakFlopsPerSecond(gpu, c) : absent;
    };
    if (field == "fp32")
        return peak(ComputeType::fp32);
    if (field == "tf32")
        return peak(ComputeType::tf32);
    if (field == "fp16")
        return peak(ComputeType::fp16);
    if (field == "bf16")
        return peak(ComputeType::bf16);
    if (field == "fp8")
        return peak(ComputeType::fp8);
    if (field == "fp64")
        return opt(gpu.densePeakFp64);
    if (field == "int8")
        return opt(gpu.densePeakInt8);
    if (field == "memory")
        return gpu.memoryBytes;
    if (field == "unified")
        return opt(gpu.unifiedMemoryBytes);
    if (field == "bandwidth")
        return gpu.memoryBandwidthBytesPerSecond;
    if (field == "tdp")
        return opt(gpu.tdpWatts);
    if (field == "driver")
        return opt(gpu.driverMemoryBytes);
    if (field == "link")
        return opt(gpu.gpuLinkBytesPerSecondPerDirection);
    return -2; // a misspelt field fails the comparison
}

} // namespace gpu_figure

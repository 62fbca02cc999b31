// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/hardware/gpu_capabilities.h"

#include "engine/numerics/quantity_format.h"

#include <charconv>

namespace napkin {
namespace {

std::string dtype(ComputeType c) {
    return std::string(computeTypeName(c));
}

} // namespace

std::optional<double> computeCapabilityNumber(const GpuSpec& gpu) {
    if (gpu.computeCapability.empty())
        return std::nullopt;
    double value = 0;
    const char* first = gpu.computeCapability.data();
    const char* last = first + gpu.computeCapability.size();
    const auto [end, ec] = std::from_chars(first, last, value);
    if (ec != std::errc() || end != last)
        return std::nullopt;
    return value;
}

std::string partDescription(const GpuSpec& gpu) {
    std::string text = "the " + gpu.id;
    if (!gpu.architecture.empty() || !gpu.computeCapability.empty()) {
        text += " (" + gpu.architecture;
        if (!gpu.computeCapability.empty())
            text += std::string(gpu.architecture.empty() ? "" : ", ") + "compute capability " +
                    gpu.computeCapability;
        text += ")";
    }
    return text;
}

EffectivePeak effectiveDensePeak(const GpuSpec& gpu, ComputeType compute) {
    const double peak = densePeakFlopsPerSecond(gpu, compute);
    if (peak > 0)
        return {peak, false, {}};
    if (!densePeakGiven(gpu, compute))
        return {0, true,
                "no source gives the dense " + dtype(compute) + " peak of the " + gpu.id +
                    ", so Napkin does not guess one; give it in a catalog file (--gpu-catalog)"};
    const double fp32 = densePeakGiven(gpu, ComputeType::fp32) ? gpu.densePeakFp32 : 0.0;
    switch (compute) {
    case ComputeType::bf16:
        if (fp32 > 0) {
            std::string reason = partDescription(gpu) +
                                 " has no bf16 tensor cores (they came with Ampere): bf16 matmuls are "
                                 "emulated and run at the fp32 rate, " +
                                 formatNumber(fp32) + " FLOP/s";
            if (gpu.densePeakFp16 > 0)
                reason += "; fp16 with loss scaling is this part's fast path (" +
                          formatNumber(gpu.densePeakFp16) + " FLOP/s)";
            return {fp32, false, reason};
        }
        break;
    case ComputeType::tf32:
        if (fp32 > 0)
            return {fp32, false,
                    partDescription(gpu) +
                        " has no tf32 tensor cores (tf32 needs Ampere or later): fp32 "
                        "matmuls run in plain fp32, " +
                        formatNumber(fp32) + " FLOP/s"};
        break;
    case ComputeType::fp8:
        return {0, true,
                partDescription(gpu) + " has no fp8 tensor cores: fp8 needs Ada Lovelace or Hopper and later "
                                       "(compute capability 8.9+)"};
    case ComputeType::fp16:
    case ComputeType::fp32:
        break;
    }
    return {0, true, partDescription(gpu) + " has no " + dtype(compute) + " path"};
}

std::string flashAttentionUnavailableReason(const GpuSpec& gpu) {
    const std::optional<double> cc = computeCapabilityNumber(gpu);
    const bool olderNvidia = cc ? *cc < 8.0 : (gpu.architecture == "Turing" || gpu.architecture == "Volta");
    if (!olderNvidia)
        return {};
    return "FlashAttention 2 needs Ampere or later (compute capability 8.0+); on " + partDescription(gpu) +
           " attention falls back to the eager kernel, which stores the a·s² scores for backward";
}

} // namespace napkin

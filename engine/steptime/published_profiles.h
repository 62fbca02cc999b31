// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Catalog GPUs timed without a calibration of their own: the achievable figures someone measured and
// published, each with its source. Where nothing is published for a part and dtype, there is no profile
// and the step time says it is not predicted and why; Napkin never guesses an efficiency.
#include "engine/hardware/gpu_catalog.h"
#include "engine/steptime/hardware_profile.h"

#include <optional>
#include <string>
#include <string_view>

namespace napkin {

struct PublishedProfile {
    std::optional<HardwareProfile> profile; ///< unset: nothing published for this part
    std::string whyNot;                     ///< why there is none, for the step time's note
};

/// The published profile of `gpu`: the maximum achievable matmul FLOP/s (MAMF) Stas Bekman's mamf-finder
/// measured per part in bf16 (ml-engineering, compute/accelerator/README.md, "Maximum Achievable Matmul
/// FLOPS comparison table": A100 SXM 267.9, A100 PCIe 256.4, H100 SXM 792.1, GH200 821.0, MI300X 781.9
/// TFLOPS), one GEMM point at the best shape it found, so every GEMM runs at that rate (a lower bound on
/// the time); the datasheet's memory bandwidth (an upper bound: no achievable figure is published with
/// it); no per-op overhead (launches are asynchronous and hide behind the GPU's work at these sizes).
PublishedProfile publishedProfile(const GpuSpec& gpu);

/// A profile's (or a step time's basis) source is a published profile's: the MAMF table's figures, not a
/// calibration of the user's own.
bool isPublishedProfileSource(std::string_view source);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a part can and cannot do, said where the choice is made: bf16 without tensor cores (Turing, Volta)
// runs at the fp32 rate, tf32 before Ampere is plain fp32, fp8 needs Ada or Hopper and later, and
// FlashAttention 2 needs Ampere and later. Pure functions of the catalog entry; no Qt, no CUDA.
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <string>

namespace napkin {

/// The dense peak a run in `compute` gets on `gpu`.
struct EffectivePeak {
    double flopsPerSecond = 0; ///< 0 when refused
    bool refused = false;      ///< the part cannot run this arithmetic, or no source gives its peak
    /// Why the figure is not the catalog's own (a fallback) or why it is refused; empty when the
    /// catalog's peak for `compute` stands.
    std::string reason;
};

/// The catalog's peak where it gives one above 0. Where the part has no such path ("none"): bf16 and tf32
/// fall to the fp32 rate with the reason (bf16 matmuls are emulated, tf32 is plain fp32 before Ampere);
/// fp8 and fp16 are refused with the architecture that lacks them. A peak no source gives is refused too
/// (nothing is guessed). Cheap: a few comparisons; the reason is built only when there is one.
EffectivePeak effectiveDensePeak(const GpuSpec& gpu, ComputeType compute);

/// The CUDA compute capability as a number (8.9), or unset for parts without one (AMD, TPU, Apple) or
/// where the catalog does not give it.
std::optional<double> computeCapabilityNumber(const GpuSpec& gpu);

/// Why FlashAttention 2 does not run on this part (an NVIDIA part below compute capability 8.0:
/// Dao 2023's flash-attention README requires Ampere, Ada or Hopper), or empty when it runs or no rule
/// is known for the part's vendor.
std::string flashAttentionUnavailableReason(const GpuSpec& gpu);

/// "the T4 (Turing, compute capability 7.5)": how the rules name a part.
std::string partDescription(const GpuSpec& gpu);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// fp32 ↔ bf16 on the hot paths of the oneDNN backend (inputs, weight copies, gradients). bf16 is the upper
// half of an IEEE fp32, so widening is a shift; narrowing rounds to nearest, ties to even, as oneDNN's
// reorders and PyTorch's .to(torch.bfloat16) do. engine/numerics/float_format.h is the exact, general codec
// these are tested against; it is far too slow for millions of values per step.
#include <bit>
#include <cstdint>
#include <span>

namespace napkin {

/// The bf16 nearest to `value` (ties to even; overflow to ±inf; NaN stays a quiet NaN of the same sign).
inline std::uint16_t bf16FromFloat(float value) {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    if ((bits & 0x7fffffffU) > 0x7f800000U) // NaN: keep the sign, force the quiet bit
        return static_cast<std::uint16_t>((bits >> 16) | 0x0040U);
    const std::uint32_t roundingBias = 0x7fffU + ((bits >> 16) & 1U);
    return static_cast<std::uint16_t>((bits + roundingBias) >> 16);
}

/// The exact fp32 value of a bf16 pattern.
inline float floatFromBf16(std::uint16_t bits) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

/// to[i] = bf16FromFloat(from[i]); the spans have equal sizes.
inline void roundToBf16(std::span<const float> from, std::span<std::uint16_t> to) {
    for (std::size_t i = 0; i < from.size(); ++i)
        to[i] = bf16FromFloat(from[i]);
}

/// to[i] = floatFromBf16(from[i]); the spans have equal sizes.
inline void widenFromBf16(std::span<const std::uint16_t> from, std::span<float> to) {
    for (std::size_t i = 0; i < from.size(); ++i)
        to[i] = floatFromBf16(from[i]);
}

} // namespace napkin

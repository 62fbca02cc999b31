// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A counter-based N(0, 1) generator, one header for the host and for CUDA kernels: Philox4x32-10
// (Salmon, Moraes, Dror & Shaw, "Parallel random numbers: as easy as 1, 2, 3", SC 2011; Random123's
// known-answer vectors pin it), then Box–Muller as engine/numerics/gaussian_source.h writes it. Sample i
// of stream s under seed k is a pure function of (k, s, i): no state to keep, the same value whichever
// thread or machine draws it, so the CPU trainers and the CUDA trainer's batch kernel see the same data
// and a checkpoint needs only the step to resume the data stream.
// Plain C++ (no CUDA header): under nvcc the functions are __host__ __device__.
#include <cmath>
#include <cstddef>
#include <cstdint>

#ifndef NAPKIN_HOST_DEVICE
#ifdef __CUDACC__
#define NAPKIN_HOST_DEVICE __host__ __device__
#else
#define NAPKIN_HOST_DEVICE
#endif
#endif

namespace napkin {

struct Philox4x32Block {
    std::uint32_t v[4];
};

/// Philox4x32 with 10 rounds of counter `c` under key `k` (Random123's philox4x32_10).
NAPKIN_HOST_DEVICE inline Philox4x32Block philox4x32_10(Philox4x32Block c, std::uint32_t k0, std::uint32_t k1) {
    constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u; // multipliers
    constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u; // Weyl key increments
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k0 += w0;
            k1 += w1;
        }
        const std::uint64_t p0 = static_cast<std::uint64_t>(m0) * c.v[0];
        const std::uint64_t p1 = static_cast<std::uint64_t>(m1) * c.v[2];
        const auto hi0 = static_cast<std::uint32_t>(p0 >> 32), lo0 = static_cast<std::uint32_t>(p0);
        const auto hi1 = static_cast<std::uint32_t>(p1 >> 32), lo1 = static_cast<std::uint32_t>(p1);
        c = Philox4x32Block{{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
    }
    return c;
}

/// Sample `index` of stream `stream` under `seed`, N(0, 1): the Philox block of counter (index, stream)
/// and key seed gives two 53-bit uniforms, u1 in (0, 1] from words 0–1 and u2 in [0, 1) from words 2–3;
/// z = √(−2 ln u1)·cos(2π·u2). Host and device libm may differ in the last bit of ln and cos (CUDA's
/// double ln and cos are within 1–2 ulp), far below a float's rounding.
NAPKIN_HOST_DEVICE inline double counterNormal(std::uint64_t seed, std::uint64_t stream, std::uint64_t index) {
    const Philox4x32Block b = philox4x32_10(
        Philox4x32Block{{static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32),
                         static_cast<std::uint32_t>(stream), static_cast<std::uint32_t>(stream >> 32)}},
        static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
    const std::uint64_t a = (static_cast<std::uint64_t>(b.v[1]) << 32) | b.v[0];
    const std::uint64_t c = (static_cast<std::uint64_t>(b.v[3]) << 32) | b.v[2];
    const double u1 = (static_cast<double>(a >> 11) + 1.0) * 0x1.0p-53;
    const double u2 = static_cast<double>(c >> 11) * 0x1.0p-53;
    constexpr double twoPi = 6.283185307179586476925286766559;
#ifdef __CUDA_ARCH__
    return sqrt(-2.0 * log(u1)) * cos(twoPi * u2);
#else
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(twoPi * u2);
#endif
}

/// The Cruncher's data (every trainer, every backend): stream 0 holds the target function w* (D values,
/// each N(0,1)/√D), stream s ≥ 1 the input batch of step s (B×D row-major, element i = row·D + column,
/// each N(0,1)). Values are rounded to float from double, after scaling.
inline constexpr std::uint64_t kCruncherTargetStream = 0;
NAPKIN_HOST_DEVICE inline std::uint64_t cruncherBatchStream(long step) {
    return static_cast<std::uint64_t>(step);
}

/// dst[i] = float(counterNormal(seed, stream, i)·scale) for i < count, on the host.
inline void fillCounterNormal(float* dst, std::size_t count, std::uint64_t seed, std::uint64_t stream,
                              double scale = 1.0) {
    for (std::size_t i = 0; i < count; ++i)
        dst[i] = static_cast<float>(counterNormal(seed, stream, i) * scale);
}

} // namespace napkin

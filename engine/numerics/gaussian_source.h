// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Seeded N(0, 1) samples that are the same on every standard library: std::mt19937_64 (fully specified
// by the standard) + Box–Muller written out, with no cached second value, so a generator's state is
// just the engine's state (what a checkpoint saves).
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace napkin {

class GaussianSource {
public:
    explicit GaussianSource(std::uint64_t seed)
        : engine_(seed) {}
    double next() {
        // u1 in (0, 1], u2 in [0, 1), each from 53 random bits.
        const double u1 = (static_cast<double>(engine_() >> 11) + 1.0) * 0x1.0p-53;
        const double u2 = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
    }
    std::mt19937_64& engine() { return engine_; }
    const std::mt19937_64& engine() const { return engine_; }

private:
    std::mt19937_64 engine_;
};

} // namespace napkin

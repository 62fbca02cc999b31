// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The drills' dice: std::mt19937_64, whose output the C++ standard fixes bit for bit, mapped to ranges by
// our own arithmetic. std::uniform_int_distribution is not used: its mapping is left to each standard
// library, and the same seed must give the same questions in the CLI and the GUI on every platform.
#include <cstdint>
#include <random>
#include <span>

namespace napkin {

class DrillRandom {
public:
    explicit DrillRandom(std::uint64_t seed)
        : engine_(seed) {}

    /// A whole number in [lo, hi] (lo ≤ hi): lo + x mod (hi − lo + 1). The modulo bias is below 2^-40 for
    /// the drills' ranges, far below anything a question's numbers could show.
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
        return lo + static_cast<std::int64_t>(engine_() % span);
    }
    /// One of `values`, each equally likely. Precondition: not empty.
    template <typename T> const T& pick(std::span<const T> values) {
        return values[static_cast<std::size_t>(between(0, static_cast<std::int64_t>(values.size()) - 1))];
    }
    template <typename T, std::size_t N> const T& pick(const T (&values)[N]) {
        return values[static_cast<std::size_t>(between(0, static_cast<std::int64_t>(N) - 1))];
    }
    /// 2^k for k in [lo, hi].
    double powerOfTwo(int lo, int hi) { return static_cast<double>(std::int64_t{1} << between(lo, hi)); }

private:
    std::mt19937_64 engine_;
};

} // namespace napkin

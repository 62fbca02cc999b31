// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The check every CPU GEMM problem runs after it is timed: sampled entries of C against a long-double
// reference computed from the same (already rounded) inputs, so the figure is the GEMM's own error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

namespace napkin {

/// The larger of two relative errors, NaN when either is: std::max(worst, NaN) would keep `worst`, and a C
/// entry that is not a number would pass as exact.
inline double worseRelativeError(double worst, double error) {
    if (std::isnan(worst) || std::isnan(error))
        return std::numeric_limits<double>::quiet_NaN();
    return std::max(worst, error);
}

/// Max over `samples` random (i, j) of |c(i, j) − Σ_p a(i, p)·b(p, j)| / Σ_p |a(i, p)·b(p, j)|, the sum in
/// long double. `a`, `b`, `c` are callables (long row, long col) → double; A is m×k, B k×n, C m×n. The
/// same seed picks the same entries whatever the backend, so Eigen and oneDNN are checked alike. NaN when a
/// sampled entry is NaN or infinite.
template <typename A, typename B, typename C>
double sampledMaxRelativeError(long m, long n, long k, const A& a, const B& b, const C& c, int samples,
                               std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<long> row(0, m - 1), col(0, n - 1);
    double worst = 0;
    for (int s = 0; s < samples; ++s) {
        const long i = row(rng), j = col(rng);
        long double ref = 0, scale = 0;
        for (long p = 0; p < k; ++p) {
            const long double term = static_cast<long double>(a(i, p)) * static_cast<long double>(b(p, j));
            ref += term;
            scale += std::fabs(term);
        }
        const long double got = c(i, j);
        if (scale > 0)
            worst = worseRelativeError(worst, static_cast<double>(std::fabs(got - ref) / scale));
    }
    return worst;
}

} // namespace napkin

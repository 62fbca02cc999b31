// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/timing_summary.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
    // Linear interpolation between closest ranks (NumPy's default).
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
}

} // namespace

TimingSummary summarizeTimings(std::vector<double> seconds) {
    TimingSummary s;
    if (seconds.empty())
        return s;
    std::sort(seconds.begin(), seconds.end());
    s.samples = static_cast<int>(seconds.size());
    s.medianSeconds = quantile(seconds, 0.5);
    s.p20Seconds = quantile(seconds, 0.2);
    s.p80Seconds = quantile(seconds, 0.8);
    s.minSeconds = seconds.front();
    s.maxSeconds = seconds.back();
    return s;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Summary statistics of repeated timings: the median and the p20/p80 spread that every benchmark reports.
#include <vector>

namespace napkin {

struct TimingSummary {
    double medianSeconds = 0, p20Seconds = 0, p80Seconds = 0, minSeconds = 0, maxSeconds = 0;
    int samples = 0;
};

/// Median, p20 and p80 of a sample of durations (seconds); quantiles interpolate linearly between
/// closest ranks (NumPy's default). An empty sample gives all zeros.
TimingSummary summarizeTimings(std::vector<double> seconds);

} // namespace napkin

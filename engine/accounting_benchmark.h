#pragma once
// How long one full recompute of the accounting takes: the GUI recomputes on every slider tick,
// so this must stay far below a frame (target: under 20 µs).
#include "engine/accounting.h"

#include <vector>

namespace napkin {

struct TimingSummary {
    double medianSeconds = 0, p20Seconds = 0, p80Seconds = 0, minSeconds = 0, maxSeconds = 0;
    int samples = 0;
};

/// Median, p20 and p80 of a sample of durations (seconds).
TimingSummary summarizeTimings(std::vector<double> seconds);

/// Times `account` on `input` (warm-up, then `repeats` samples of `callsPerSample` calls each,
/// steady clock); each sample is the mean seconds per call. Precondition: input is valid.
TimingSummary benchmarkAccounting(const AccountingInput& input, int repeats = 51, int callsPerSample = 200);

} // namespace napkin

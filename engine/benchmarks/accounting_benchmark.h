#pragma once
// How long one full recompute of the accounting takes: the GUI recomputes on every slider tick,
// so this must stay far below a frame (target: under 20 µs).
#include "engine/accounting/accounting.h"
#include "engine/numerics/timing_summary.h"

namespace napkin {

/// Times `account` on `input` (warm-up, then `repeats` samples of `callsPerSample` calls each,
/// steady clock); each sample is the mean seconds per call. Precondition: input is valid.
TimingSummary benchmarkAccounting(const AccountingInput& input, int repeats = 51, int callsPerSample = 200);

} // namespace napkin

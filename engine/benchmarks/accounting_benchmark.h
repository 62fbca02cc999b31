#pragma once
// How long one full recompute of the accounting takes: the GUI recomputes on every slider tick,
// so this must stay far below a frame (target: under 20 µs).
#include "engine/accounting/accounting.h"
#include "engine/numerics/timing_summary.h"

namespace napkin {

/// A GPT-2 small configuration: the heaviest formula strings the accounting builds.
AccountingInput accountingBenchmarkInput();
/// What accountingBenchmarkInput() is, in words.
inline constexpr const char* kAccountingBenchmarkConfiguration =
    "GPT-2 small, mixed-bf16, AdamW, 8 x H100-SXM, ZeRO-1";
/// A slider tick recomputes everything: far below a frame.
inline constexpr double kAccountingBenchmarkTargetSeconds = 20e-6;

/// Times `account` on `input` (warm-up, then `repeats` samples of `callsPerSample` calls each,
/// steady clock); each sample is the mean seconds per call. Precondition: input is valid.
TimingSummary benchmarkAccounting(const AccountingInput& input, int repeats = 51, int callsPerSample = 200);

} // namespace napkin

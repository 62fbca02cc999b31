// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting as JSON: the document `napkin-cli account --json` prints (its field names are the
// contract in docs/cli.md).
#include "engine/accounting/accounting.h"
#include "engine/allocator/allocator_config.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/numerics/timing_summary.h"
#include "engine/steptime/step_time.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// `allocator`: PYTORCH_CUDA_ALLOC_CONF's settings for the simulated reserved memory (reserved_memory_json.h).
/// `stepTime`: the step time the caller predicted (napkin-cli's --hardware-profile, the app's profile);
/// null: the GPU's published one (publishedStepTime), predicted here.
nlohmann::json accountingToJson(const AccountingInput& input, const GpuSpec& gpu,
                                const AccountingResult& result, const AllocatorConfig& allocator = {},
                                const StepTime* stepTime = nullptr);

/// {benchmark: "account", setup, configuration, seconds_median, ..., target_seconds, meets_target, work}:
/// how long one full recompute of `setup` took and the work it did (`napkin-cli bench account --json`).
nlohmann::json accountingBenchmarkJson(const AccountingBenchmarkSetup& setup, const TimingSummary& timing,
                                       const WorkCounts& work);
/// {peak_evaluations, fast_peaks, timeline_builds, activation_ledgers, formatted_numbers}
nlohmann::json workCountsJson(const WorkCounts& work);

} // namespace napkin

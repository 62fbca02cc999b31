#pragma once
// The accounting as JSON: the document `napkin-cli account --json` prints (its field names are the
// contract in docs/cli.md).
#include "engine/accounting/accounting.h"
#include "engine/numerics/timing_summary.h"

#include <nlohmann/json.hpp>

namespace napkin {

nlohmann::json accountingToJson(const AccountingInput& input, const GpuSpec& gpu,
                                const AccountingResult& result);

/// {benchmark: "account", configuration, seconds_median, ..., target_seconds, meets_target}: how long one
/// full recompute took (`napkin-cli bench account --json`).
nlohmann::json accountingBenchmarkJson(const TimingSummary& timing);

} // namespace napkin

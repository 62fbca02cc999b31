// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reserved memory in `napkin-cli account --json` (fields: docs/cli.md): the predicted step replayed through
// the simulated caching allocator (engine/allocator/step_reserved.h), and the fit judged on it where it
// applies (engine/allocator/fit_verdict.h).
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/allocator/allocator_config.h"
#include "engine/allocator/fit_verdict.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Sets reserved_bytes on each event of doc["memory_timeline"] (the steady step's, accountingToJson's:
/// `steady`, replayed as it is) and doc["reserved_memory"] = {peak_bytes, allocated_peak_bytes, fits,
/// required_bytes, segments, steps, alloc_conf, granularity, error}; returns the fit verdict judged on that
/// replay (what fits_on and fits_verdict report).
FitVerdict addReservedMemoryJson(nlohmann::json& doc, const AccountingInput& input,
                                 const AccountingResult& result, const AllocatorConfig& config,
                                 const MemoryTimeline* steady = nullptr);

} // namespace napkin

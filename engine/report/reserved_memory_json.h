#pragma once
// Reserved memory in `napkin-cli account --json` (fields: docs/cli.md): the predicted step replayed through
// the simulated caching allocator (engine/allocator/step_reserved.h).
#include "engine/accounting/accounting.h"
#include "engine/allocator/allocator_config.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Sets reserved_bytes on each event of doc["memory_timeline"] (the steady step's, accountingToJson's) and
/// doc["reserved_memory"] = {peak_bytes, allocated_peak_bytes, segments, steps, alloc_conf, granularity,
/// error}.
void addReservedMemoryJson(nlohmann::json& doc, const AccountingInput& input, const AccountingResult& result,
                           const AllocatorConfig& config);

} // namespace napkin

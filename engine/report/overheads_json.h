#pragma once
// The overhead ledger (engine/accounting/memory_overheads.h) as JSON: the keys napkin-cli account --json
// adds (docs/cli.md): memory_basis, nominal_memory_bytes, usable_memory_bytes, predicted_memory_bytes and
// the `overheads` object with each line's bytes, formula, source and switch.
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Adds the keys above to `doc` (an account document), and their formulas to doc["formulas"].
void addOverheadsJson(nlohmann::json& doc, const AccountingInput& input, const AccountingResult& result);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The overhead ledger (engine/accounting/memory_overheads.h) as JSON: the keys napkin-cli account --json
// adds (docs/cli.md): memory_basis, nominal_memory_bytes, usable_memory_bytes, predicted_memory_bytes and
// the `overheads` object with each line's bytes, formula, source and switch.
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Adds the keys above to `doc` (an account document), and their formulas to doc["formulas"].
void addOverheadsJson(nlohmann::json& doc, const AccountingInput& input, const AccountingResult& result);

/// The same keys for any ledger (napkin-cli infer's too): `settings` as given, `overheads` as computed,
/// what fits is judged against (`usable`) and the prediction with the overheads (`predicted`).
void addOverheadsJson(nlohmann::json& doc, const MemoryOverheadSettings& settings,
                      const MemoryOverheads& overheads, const Quantity& usable, const Quantity& predicted);

} // namespace napkin

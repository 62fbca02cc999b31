// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting document's fine_tuning object: the method, what trains and what is frozen, the frozen
// base's storage, the LoRA setting, and where offloading puts the states and what its link carries.
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Adds `fine_tuning` to `document` (always: method "full", offload "none" and the trainable count for
/// plain training) and its formulas (fine_tuning.*) to `formulas`.
void addFineTuningJson(nlohmann::json& document, nlohmann::json& formulas, const AccountingInput& input,
                       const AccountingResult& result);

} // namespace napkin

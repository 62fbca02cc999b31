// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting document's fields for architectures and parallel layouts (active parameters, the
// activation and communication ledgers, the layout): added to accountingToJson's document.
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Adds architecture, active_parameters, parallelism, pipeline_bubble_fraction, pipeline_stage,
/// parameters_per_gpu, activation_ledger, communication_*, max_parameters_pooled and fit_advice to
/// `document`, and their formulas to `formulas`.
void addLayoutJson(nlohmann::json& document, nlohmann::json& formulas, const AccountingInput& input,
                   const AccountingResult& result);

} // namespace napkin

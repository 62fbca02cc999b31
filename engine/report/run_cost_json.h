// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The accounting document's run_cost object (GPU-hours, money, energy, emissions with the inputs behind
// them) and the GPU's capability fields (architecture, TDP, peaks per dtype with "none" / not given).
#include "engine/accounting/accounting.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// Adds `run_cost` to `document` (null without training tokens) and its formulas (run_cost.*).
void addRunCostJson(nlohmann::json& document, nlohmann::json& formulas, const AccountingInput& input,
                    const AccountingResult& result);

/// The part's figures beyond memory and bandwidth: vendor, kind, architecture, compute capability, TDP,
/// host link, and the dense peak per dtype as a number, "none" (no such path) or null (no source gives it).
nlohmann::json gpuCapabilityJson(const GpuSpec& gpu);

} // namespace napkin

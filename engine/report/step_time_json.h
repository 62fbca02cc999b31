// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The predicted step time as JSON: `step_time` in `napkin-cli account --json` (docs/cli.md).
#include "engine/steptime/inference_time.h"
#include "engine/steptime/step_time.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// {predicted, seconds, mfu, hfu, tokens_per_second, basis, why_not, mfu_formula, not_modelled[],
/// ledger[{name, phase, kind, seconds, flops, bytes, formula}]}; the numbers are null when not predicted.
nlohmann::json stepTimeJson(const StepTime& stepTime);

/// The ledger alone: [{name, phase, kind, seconds, flops, bytes, formula}], the rows of stepTimeJson's.
nlohmann::json stepTimeLedgerJson(const StepTime& stepTime);

/// One serving pass (`prefill_time`, `decode_time` in `napkin-cli infer --json`): {predicted, seconds,
/// tokens_per_second, tokens_formula, basis, why_not, not_modelled[], ledger[]}, the ledger's rows as
/// stepTimeLedgerJson's; the numbers are null when not predicted.
nlohmann::json inferenceTimeJson(const InferenceTime& time);

} // namespace napkin

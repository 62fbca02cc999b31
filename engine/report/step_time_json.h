#pragma once
// The predicted step time as JSON: `step_time` in `napkin-cli account --json` (docs/cli.md).
#include "engine/steptime/step_time.h"

#include <nlohmann/json.hpp>

namespace napkin {

/// {predicted, seconds, mfu, hfu, tokens_per_second, basis, why_not, mfu_formula, not_modelled[],
/// ledger[{name, phase, kind, seconds, flops, bytes, formula}]}; the numbers are null when not predicted.
nlohmann::json stepTimeJson(const StepTime& stepTime);

/// The ledger alone: [{name, phase, kind, seconds, flops, bytes, formula}], the rows of stepTimeJson's.
nlohmann::json stepTimeLedgerJson(const StepTime& stepTime);

} // namespace napkin

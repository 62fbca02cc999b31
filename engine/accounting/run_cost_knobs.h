// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run cost's knobs (run_cost.h), declared once: price per GPU-hour, power fraction, PUE, grid
// intensity. Validation, the scenario file, napkin-cli and the app's "Cost and energy" group read them here.
#include "engine/accounting/number_knob.h"
#include "engine/accounting/run_cost.h"

#include <span>

namespace napkin {

/// In the order the command line prints them and the app shows them.
std::span<const NumberKnob<RunCostInput>> runCostKnobs();

} // namespace napkin

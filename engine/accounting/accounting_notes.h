// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The notes account() attaches to its result: the assumptions worth knowing about a setup (what is not
// modelled, whose formulas count the activations), its parallel layout, and which of the step's peak and
// sum decides "fits".
#include "engine/accounting/accounting.h"

namespace napkin {

/// What is not modelled for this setup, and whose closed forms count its activations.
void addStepNotes(AccountingResult& result, const AccountingInput& input);
/// The architecture options and the parallel layout (none for a GPT-2 on data parallelism alone).
void addLayoutNotes(AccountingResult& result, const AccountingInput& input);
/// Where the step's peak and the sum differ, which decides and why; needs the peak (accountStep()'s).
void addPeakNotes(AccountingResult& result, const AccountingInput& input);

} // namespace napkin

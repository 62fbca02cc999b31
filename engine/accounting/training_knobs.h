// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training run's numeric knobs (accounting.h), declared once: the micro-batch, the training tokens,
// the GPU count and the MFU. Validation, the scenario file, napkin-cli's account options, the command line
// Napkin prints and the Accounting page's fields read each one's range, words, flag and key here, so a
// value one of them accepts the others accept (a saved --mfu 0.005 once would not open in the app).
#include "engine/accounting/accounting.h"
#include "engine/accounting/number_knob.h"

#include <span>
#include <string_view>

namespace napkin {

/// batch, tokens, gpus, mfu: the order validation checks them in.
std::span<const NumberKnob<AccountingInput>> trainingKnobs();

/// The entry whose scenario key is `key` ("batch", "training_tokens", "gpus", "mfu"); the table has it.
const NumberKnob<AccountingInput>& trainingKnob(std::string_view key);

} // namespace napkin

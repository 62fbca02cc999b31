// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "How is this computed?" section "Compared with other calculators": what DeepSpeed's and Megatron-LM's
// estimators would report for the setup, beside Napkin's number, with the terms that differ.
#include "engine/accounting/accounting.h"
#include "engine/numerics/quantity_format.h"

#include <QString>

/// HTML for the explanation pane (engine/peers/peer_estimates.h computes it, as `account --json` does).
QString explainPeers(const napkin::AccountingInput& input, const napkin::AccountingResult& result,
                     napkin::ByteUnits units);

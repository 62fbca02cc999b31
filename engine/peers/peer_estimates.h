// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Every peer's answer for one setup: what Megatron-LM's theoretical memory and FLOP count, DeepSpeed's
// ZeRO estimators and llm-analysis would report, beside Napkin's. Computed on request (the CLI's
// `account --json`, the "How is this computed?" pane), never inside account(): a slider tick does not
// pay for it. The Ultra-Scale Playbook is not among them: its page and widget code were not readable where
// this was written, and a peer's number is given only from its own text.
#include "engine/accounting/accounting.h"
#include "engine/peers/peer_estimate.h"

#include <vector>

namespace napkin {

/// The peers in a fixed order (DeepSpeed, Megatron-LM, llm-analysis); a peer that cannot express the
/// setup is listed with `notApplicable` saying why. `result` is account(input, gpu)'s.
std::vector<PeerEstimate> peerEstimates(const AccountingInput& input, const AccountingResult& result);

} // namespace napkin

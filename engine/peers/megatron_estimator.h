// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What Megatron-LM would report for a Napkin setup: its theoretical memory (weights and optimizer,
// activations) and its FLOP count, beside Napkin's, with the terms that differ named.
#include "engine/accounting/accounting.h"
#include "engine/peers/megatron_formulas.h"
#include "engine/peers/peer_estimate.h"

namespace napkin {

/// Megatron's arguments for a transformer setup: h, f, a, g, kv_channels, L, the vocabulary padded to
/// 128·tp, s, b, tp, pp, dp, SwiGLU, RMSNorm, untied embeddings, the distributed optimizer for ZeRO ≥ 1,
/// sequence parallelism, selective recompute, experts. Precondition: a transformer without MLA.
MegatronArgs megatronArgs(const AccountingInput& input);

/// Megatron-LM's three numbers for the setup (transformers; not multi-latent attention or adapters).
PeerEstimate megatronEstimate(const AccountingInput& input, const AccountingResult& result);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The FLOPs of a LoRA (or QLoRA) step: the frozen base's forward, backward for the activation gradient
// only (no weight gradient for a frozen matrix), and the adapters' own forward and backward. It is not
// 6·N·T: close to 4·N·T for the base, plus the adapters' 6·P_lora·T.
#include "engine/accounting/fine_tuning.h"
#include "engine/accounting/flop_count.h"

namespace napkin {

/// `full`: countStepFlops() of the same model, batch, recompute and mask. Backward through the frozen
/// base is one pass per matmul (dL/dx), two for the attention scores (both inputs are activations);
/// each adapter B·A costs 2·r·(in + out) per token forward and twice that backward. The first layer
/// needs no dL/dx where nothing before it trains: its q, k, v projections' input, and further until
/// the first adapted matrix. Full recompute runs the adapters' forward again. Precondition:
/// hasAdapters(fineTuning).
StepFlops fineTuneStepFlops(const StepFlops& full, const ModelSpec& model, const FineTuning& fineTuning,
                            double batch, Recompute recompute, AttentionMask mask);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One way to run a training step on the setup's GPUs: the knobs the layout search varies (parallel sizes,
// micro-batch size and count for the fixed global batch, recompute, ZeRO stage and HSDP shard group,
// attention kernel) and nothing else. Applied over a base AccountingInput, whose model, precision,
// optimizer, GPU, GPU count and overhead settings stay as the user gave them.
#include "engine/accounting/accounting.h"

#include <string>

namespace napkin {

struct LayoutChoice {
    ParallelLayout parallel;  ///< tp, pp (and v), cp, ep, sp, micro-batches per step
    double microBatch = 1;    ///< sequences per micro-batch: AccountingInput::batch
    Recompute recompute = Recompute::none;
    int zeroStage = 0;        ///< 0 (DDP) … 3 (ZeRO-3 / FSDP FULL_SHARD)
    double shardGroup = 0;    ///< HSDP: GPUs per shard group; 0: ZeRO shards over all dp·cp GPUs
    AttentionImpl attention = AttentionImpl::eager;
    bool operator==(const LayoutChoice&) const = default;
};

/// `base` run with `choice`: its layout, batch, recompute, ZeRO stage, shard group and attention kernel.
/// The base's other sharding options stay where they apply (DeepSpeed's two gradient copies under ZeRO-1/2,
/// the gathered layers, prefetch and fp32 reduce under ZeRO-3) and are dropped where they do not.
AccountingInput withLayoutChoice(const AccountingInput& base, const LayoutChoice& choice);

/// The choice `input` makes (the inverse of withLayoutChoice on the fields a choice holds).
LayoutChoice layoutChoiceOf(const AccountingInput& input);

/// "tp 8 · pp 8 (v 2) · dp 16 · micro-batch 1 × 96 · sp · recompute selective · ZeRO-1 · flash" on `gpus`;
/// uneven stages read "pp 16 (first 7, last 7 layers)".
std::string layoutChoiceText(const LayoutChoice& choice, double gpus);

/// What `to` changes from `from`, in the text's words: "pp 8 → 4, v 1 → 2, ZeRO 1 → 3", "stage layers even →
/// first 7, last 7"; empty when equal.
std::string layoutChoiceChanges(const LayoutChoice& from, const LayoutChoice& to, double gpus);

} // namespace napkin

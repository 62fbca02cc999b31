// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The memory of every pipeline stage's GPU, not only the most loaded one: what Megatron-LM reports for the
// first stage and users compare stage by stage.
#include "engine/accounting/pipeline_stage_row.h"
#include "engine/accounting/stage_memory.h"

#include <vector>

namespace napkin {


/// One row per stage when p > 1 (empty otherwise), from the first and last stages' memory (stageMemory)
/// and arithmetic: a middle stage holds L/p layers' weights (no embedding, no head) and
/// microBatchesInFlight(layout, i) micro-batches of its layers' activations (min(p − i, m) under 1F1B,
/// Narayanan et al. 2021; the interleaved count with v chunks); the first stage adds the token (and
/// position) embedding, the last the final norm, the output layer (or the tied embedding's copy) and the
/// logits. The first and last rows are `first` and `last` exactly.
std::vector<PipelineStageRow> pipelineStageRows(const AccountingInput& input, const StageMemory& first,
                                                const StageMemory& last, const BytesPerParameter& perParameter);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// FLOPs of one training step: forward, backward and recompute, split by component.
#include "engine/models/model_spec.h"

#include <string>
#include <vector>

namespace napkin {

struct ComponentFlops {
    std::string name;    ///< "layer 1", "head", "attention", "mlp", ...
    double forward = 0;  ///< forward FLOPs of this component per step
    std::string formula; ///< with the numbers substituted
};

struct StepFlops {
    double tokens = 0; ///< tokens (or examples) per step
    double forward = 0, backward = 0, recompute = 0, total = 0;
    double attentionScores = 0; ///< transformer: forward FLOPs of QKᵀ and A·V (included in forward)
    std::string forwardFormula, backwardFormula, recomputeFormula, totalFormula;
    std::vector<ComponentFlops> components; ///< forward FLOPs per component; they sum to `forward`
};

/// Forward = 2·tokens·(matmul parameters) (+ transformer attention scores: 4·b·s²·d per layer for full
/// attention, half of it for causal). Backward = 2 × forward (gradients w.r.t. inputs and weights).
/// Recompute: full = the layers' forward once more (not the head); selective = the attention scores
/// again (Korthikanti et al. 2022); none = 0; flash attention adds QKᵀ (half the scores) to each.
/// Recompute is modelled for transformers only. Transformers: GQA projects K and V to g·d/a; SwiGLU has
/// 3 matrices of d·f; a mixture of experts runs K of its E experts per token plus the d×E router.
StepFlops countStepFlops(const ModelSpec& model, double batch, Recompute recompute, AttentionMask mask);

/// Query-key pairs one sequence scores in one layer: s² (full) or s²/2 (causal); a layer windowed at
/// W < s scores each query against at most W keys, s·W − W²/2 pairs causally.
double scoredPairs(double s, double window, AttentionMask mask);

/// One GPU's share when a model replica of `gpus` GPUs (tp·pp·cp) does `replica`'s work: every FLOP
/// count divided by `gpus`, the formulas saying so; `tokens` stays the replica's.
StepFlops perGpu(const StepFlops& replica, double gpus);

} // namespace napkin

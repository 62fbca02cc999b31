// SPDX-License-Identifier: GPL-3.0-or-later
// A mixture of experts' MLP part in a serving pass (inference_ops_builder.h), as the training step's list
// runs it forward (step_ops_experts.cpp: router, dispatch, the experts, combine, the shared expert) with what
// serving changes: each expert's weights are read once per pass, and only those of the experts some token
// routes to. vLLM's fused MoE kernel and Megatron-LM's grouped GEMM both run one launch per projection over
// every expert the step reads.
#include "engine/steptime/inference_ops_builder.h"

#include "engine/numerics/quantity_format.h"
#include "engine/text/formula_text.h"

#include <algorithm>

namespace napkin {

void InferenceOpsBuilder::experts() {
    const ModelSpec& md = m_in.model;
    const double N = m_in.gpus, T = tokens(), d = md.dModel, e = m_e;
    // Dense-first layers (DeepSeek's first_k_dense_replace): a dense MLP of the model's width.
    const double dense = md.denseLayers, routed = md.layers - dense;
    if (dense > 0)
        mlp("dense-layer mlp", ffnWidth(md) / N, dense);
    const double E = md.experts, K = md.topK, f = expertWidth(md) / N;
    // Router: d×E logits for every token (16-bit, as the checkpoints keep it; whole on every GPU), softmax
    // (or sigmoid) and top-k: reads the logits, writes the scores, the top-k reads them again.
    gemm("router", T, E, d, routed, m_other);
    memory("router scores and top-k", T * E, 3 * e, 2, routed);
    // Dispatch: each token's row copied once per chosen expert into the experts' order.
    memory("token dispatch (permute to experts)", T * K * d, 2 * e, 1, routed);
    // The T·K routed rows spread over min(E, T·K) experts when the router balances them: each of those
    // experts' weights is read once, over T·K / min(E, T·K) rows.
    const double read = std::min(E, T * K), rows = T * K / read;
    if (isGatedMlp(md)) {
        groupedGemm("expert gate projection", rows, f, d, read, routed, m_w);
        groupedGemm("expert up projection", rows, f, d, read, routed, m_w);
        memory("expert SiLU", T * K * f, 2 * e, 1, routed);
        memory("expert gate × up", T * K * f, 3 * e, 1, routed);
    } else {
        groupedGemm("expert up projection", rows, f, d, read, routed, m_w);
        memory("expert GELU", T * K * f, 2 * e, 1, routed);
    }
    groupedGemm("expert down projection", rows, d, f, read, routed, m_w);
    // Combine: each output row × its routing weight, summed back into the token's row.
    memory("combine (weights × outputs, unpermute)", T * K * d, 3 * e, 2, routed);
    if (md.sharedFfnDim > 0) {
        mlp("shared expert", md.sharedFfnDim / N, routed);
        if (md.sharedExpertGate) {
            gemm("shared expert gate", T, 1, d, routed, layerWeightBytes());
            memory("shared expert sigmoid × output", T * d, 3 * e, 2, routed);
        }
    }
    if (formulasWanted())
        m_list.notModelled.emplace_back(
            "routing as balanced: the pass's T·K = " + formatNumber(T * K) +
            " routed rows read min(E, T·K) = " + formatNumber(read) + " of the " + formatNumber(E) +
            " experts per layer, each over T·K/min(E, T·K) rows; a random router reads E·(1 − (1 − K/E)^B) "
            "experts on average in decode (fewer bytes), a skewed one makes its busiest expert set the "
            "layer's "
            "time");
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
// The MLP part of a mixture of experts' layers in the step's op list (step_ops_builder.h): Mixtral's and
// DeepSeek's blocks as Megatron-LM's MoE layer runs them (megatron/core/transformer/moe: router, token
// dispatcher, grouped experts) and Hugging Face's eager loop does the same work in more launches.
#include "engine/steptime/step_ops_builder.h"

#include "engine/text/formula_text.h"

namespace napkin {

void StepOpsBuilder::addExperts(double layers, bool full) {
    const ModelSpec& md = m_in.model;
    const ParallelLayout& l = m_in.parallel;
    const double e = m_activationBytes, tp = l.tp, d = md.dModel;
    const double T = m_in.batch * md.seq / l.cp; // this GPU's tokens of one micro-batch
    // Dense-first layers (DeepSeek's first_k_dense_replace) as a share of every stage's layers, as the
    // memory accounting spreads them (parameter_sharding.cpp).
    const double dense = layers * md.denseLayers / md.layers, routed = layers - dense;
    if (dense > 0)
        addMlp("dense-layer mlp", T, ffnWidth(md) / tp, dense, full);
    const double E = md.experts, K = md.topK, f = expertWidth(md) / tp;
    // Router: d×E logits for every token (not split by tensor parallelism), softmax (or sigmoid) and
    // top-k: reads the logits, writes the scores, the top-k reads them again.
    gemm("router", T, E, d, 1, routed, full);
    memory("router scores and top-k", T * E, 3 * e, 2, 3 * e, 2, routed, full);
    // Dispatch: each token's row copied once per chosen expert into the experts' order (and across the
    // expert-parallel GPUs: the communication ledger's all-to-all); its backward scatters the gradients.
    memory("token dispatch (permute to experts)", T * K * d, 2 * e, 1, 2 * e, 1, routed, full);
    // This GPU's E/ep experts, each over the tokens routed to it from the ep GPUs: T·K·ep/E rows when the
    // router balances them (a batched GEMM of E/ep small-M products).
    const double local = E / l.ep, rows = T * K * l.ep / E;
    const bool gated = isGatedMlp(md);
    if (gated) {
        gemm("expert gate projection", rows, f, d, local, routed, full);
        gemm("expert up projection", rows, f, d, local, routed, full);
        memory("expert SiLU", T * K * f, 2 * e, 1, 3 * e, 1, routed, full);
        memory("expert gate × up", T * K * f, 3 * e, 1, 5 * e, 2, routed, full);
    } else {
        gemm("expert up projection", rows, f, d, local, routed, full);
        memory("expert GELU", T * K * f, 2 * e, 1, 3 * e, 1, routed, full);
    }
    gemm("expert down projection", rows, d, f, local, routed, full);
    // Combine: each output row × its routing weight, summed back into the token's row.
    memory("combine (weights × outputs, unpermute)", T * K * d, 3 * e, 2, 4 * e, 2, routed, full);
    if (md.sharedFfnDim > 0) {
        addMlp("shared expert", T, md.sharedFfnDim / tp, routed, full);
        if (md.sharedExpertGate) {
            gemm("shared expert gate", T, 1, d, 1, routed, full);
            memory("shared expert sigmoid × output", T * d, 3 * e, 2, 5 * e, 2, routed, full);
        }
    }
    if (formulasWanted())
        m_list.notModelled.emplace_back(
            "routing as balanced: each expert gets T·K/E of the tokens; a skewed router's busiest expert "
            "sets a layer's time, and the load-balancing loss is not timed");
}

} // namespace napkin

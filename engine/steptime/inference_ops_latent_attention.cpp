// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-head latent attention in a serving pass (inference_ops_builder.h), as DeepSeek-V2/V3 serve it. The
// cache keeps each token's kv_lora_rank latent c and its shared RoPE key (r values), (c + r) per layer, whole
// on every GPU of a tensor-parallel group (the latent is not split by heads).
//
// Prefill runs the training step's forward (step_ops_latent_attention.cpp; vLLM's MLA prefill): q through
// its bottleneck, the latent and RoPE key, kv_b_proj up to every head's key and value, attention over them.
// Decode absorbs the up-projection into the query and the output instead (DeepSeek-V3's inference/model.py,
// MLA.forward with attn_impl "absorb", its default; vLLM's and FlashMLA's decode): q_nope·W_UK per head
// turns the query into the latent's space, the scores are q_latent·cᵀ + q_pe·k_peᵀ over the cached tokens,
// the output A·c is a latent that W_UV takes to the head's values. The weights read are kv_b_proj's once, as
// prefill's; the attention does 2·a·S·(2c + r) FLOPs per token and layer (the roofline counts the
// non-absorbed 2·a·S·(d_qk + d_v)) and reads (c + r) cached values per token instead of every head's key
// and value.
#include "engine/steptime/inference_ops_builder.h"

#include "engine/numerics/quantity_format.h"
#include "engine/text/formula_text.h"

namespace napkin {

void InferenceOpsBuilder::latentProjections() {
    const ModelSpec& md = m_in.model;
    const double T = tokens(), L = md.layers, d = md.dModel, a = md.heads / m_in.gpus, w = layerWeightBytes();
    const double qk = queryKeyHeadWidth(md), c = md.kvLoraRank, r = md.qkRopeHeadDim;
    // The down-projections are whole on every GPU of the group; the up-projections split by heads.
    if (md.qLoraRank > 0) {
        gemm("q down projection", T, md.qLoraRank, d, L, w);
        rmsNorm("q latent RMSNorm", T * md.qLoraRank, L);
        gemm("q up projection", T, a * qk, md.qLoraRank, L, w);
    } else {
        gemm("q projection", T, a * qk, d, L, w);
    }
    gemm("kv down projection (latent and RoPE key)", T, c + r, d, L, w);
    rmsNorm("kv latent RMSNorm", T * c, L);
    if (!decode())
        gemm("kv up projection", T, a * (md.qkNopeHeadDim + md.vHeadDim), c, L, w);
    // RoPE turns the rope part of every head's query and the one key the heads share.
    memory("RoPE on q", T * a * r, 10 * m_e, 5, L);
    memory("RoPE on k", T * r, 10 * m_e, 5, L);
}

void InferenceOpsBuilder::absorbedLatentAttention(double layers, double window) {
    const ModelSpec& md = m_in.model;
    const double B = m_in.batch, T = tokens(), a = md.heads / m_in.gpus, w = layerWeightBytes(), e = m_e;
    const double c = md.kvLoraRank, r = md.qkRopeHeadDim, nope = md.qkNopeHeadDim, dv = md.vHeadDim;
    const double S = decodeKeys(window);
    groupedGemm("q_nope absorbed into the latent (W_UK)", T, c, nope, a, layers, w);
    if (md.attentionImpl == AttentionImpl::flash) {
        // One kernel (FlashMLA): reads each sequence's cached latents once for all its heads, the queries
        // (c + r per head), writes a latent per head.
        const double bytes = B * S * (c + r) * m_kv + B * a * (c + r) * e + B * a * c * e;
        batched(window > 0 ? "latent attention decoding (window " + formatNumber(window) + ")"
                           : "latent attention decoding (reads the latent cache)",
                1, S, 2 * c + r, B * a, bytes, layers,
                "2·B·a·S·(2·c + r): scores over c + r, A·V over c, " + formatNumber(B * a) + " heads × " +
                    formatNumber(S) + " cached tokens");
    } else {
        // model.py's einsums: each sequence's heads as the rows of one product with its cache.
        batched("attention scores over the latent (q·cᵀ + q_pe·k_peᵀ)", a, S, c + r, B,
                B * (a * (c + r) * e + S * (c + r) * m_kv + a * S * e), layers);
        memory("scores × softmax scale", B * a * S, 2 * e, 1, layers);
        memory("softmax in fp32, cast back", B * a * S, (e + 4) + (4 + e), 2, layers);
        batched("attention A·c over the latent", a, c, S, B, B * (a * S * e + S * c * m_kv + a * c * e),
                layers);
    }
    groupedGemm("output from the latent (W_UV)", T, dv, c, a, layers, w);
    if (formulasWanted())
        m_list.notModelled.emplace_back(
            "latent attention's decode with the up-projections absorbed (DeepSeek-V3's inference code, "
            "FlashMLA): 2·a·S·(2·c + r) attention FLOPs a token and layer, more than the roofline's "
            "2·a·S·(d_qk + d_v), over (c + r) cached values a token; tensor parallelism leaves the latent "
            "whole, so every GPU of the group reads the whole cache");
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
// Multi-head latent attention's projections in the step's op list (step_ops_builder.h), as DeepSeek-V2/V3
// run them (modeling_deepseek.py's DeepseekV3Attention; Megatron-LM's MLASelfAttention): the queries through
// the optional q_lora_rank bottleneck (q_a_proj, its RMSNorm, q_b_proj), the keys' and values' latent with
// the shared RoPE key (kv_a_proj_with_mqa, the latent's RMSNorm), and kv_b_proj up to every head's key and
// value. Tensor parallelism splits the up-projections by heads; the down-projections are whole on every
// GPU of the group. The attention itself is addAttention's over a heads of d_qk = nope + rope and d_v.
#include "engine/steptime/step_ops_builder.h"

namespace napkin {

void StepOpsBuilder::addLatentProjections(double T, double layers, bool full) {
    const ModelSpec& md = m_in.model;
    const double d = md.dModel, a = md.heads / m_in.parallel.tp, qk = queryKeyHeadWidth(md);
    const double qLatent = md.qLoraRank, kvLatent = md.kvLoraRank, rope = md.qkRopeHeadDim;
    if (qLatent > 0) {
        gemm("q down projection", T, qLatent, d, 1, layers, full);
        rmsNorm("q latent RMSNorm", T * qLatent, layers, full);
        gemm("q up projection", T, a * qk, qLatent, 1, layers, full);
    } else {
        gemm("q projection", T, a * qk, d, 1, layers, full);
    }
    gemm("kv down projection (latent and RoPE key)", T, kvLatent + rope, d, 1, layers, full);
    rmsNorm("kv latent RMSNorm", T * kvLatent, layers, full);
    gemm("kv up projection", T, a * (md.qkNopeHeadDim + md.vHeadDim), kvLatent, 1, layers, full);
}

} // namespace napkin

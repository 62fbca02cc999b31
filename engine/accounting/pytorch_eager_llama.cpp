// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_llama.h"

#include "engine/accounting/pytorch_eager_moe.h"
#include "engine/accounting/pytorch_eager_rows.h"

#include <cmath>

namespace napkin {
namespace {

constexpr auto tensorParallel = ActivationSplit::tensorParallel;

// LlamaRMSNorm, x = input.float(); variance = x.pow(2).mean(-1); x = x · rsqrt(variance + ε);
// weight · x.to(dtype). In bf16 the fp32 copy stands for the input, which nothing then keeps.
void rmsNormRows(eager::Rows& b, const std::string& norm, double h, const std::string& output) {
    b.rmsNormStatistics(norm, h);
    b.tensor(norm + " normalised x, in the activations' dtype", "the norm weight's gradient", h);
    b.tensor(norm + " output (" + output + ")", "the next projection's weight gradient", h);
}

} // namespace

bool isLlamaStyle(const ModelSpec& m) {
    return m.norm == NormKind::rmsnorm && m.mlp == MlpKind::swiglu && m.position == PositionKind::rope;
}

std::string llamaEagerUnsupported(const ModelSpec& m) {
    if (hasQkvBias(m) || hasOutBias(m) || hasMlpBias(m))
        return "describes Llama-style blocks without biases so far (no q, k, v, output or MLP bias)";
    if (m.dropout)
        return "describes Llama-style blocks without dropout (modeling_llama.py has none but its "
               "attention_dropout, 0 by default); add --dropout off";
    const double g = kvHeadCount(m);
    if (g <= 0 || std::fmod(m.heads, g) != 0)
        return "describes grouped-query attention with the heads a multiple of the key/value heads";
    return {};
}

std::vector<ActivationTensor> llamaEagerLayerLedger(const ModelSpec& m, StorageType activations,
                                                    Recompute recompute) {
    eager::Rows b(activations);
    const double h = m.dModel, a = m.heads, s = m.seq, f = ffnWidth(m), q = a * headWidth(m);
    if (recompute == Recompute::full) {
        b.tensor("layer input (the checkpoint)", "torch.utils.checkpoint re-running the layer", h);
        return b.rows;
    }
    rmsNormRows(b, "attention norm", h, "the q, k, v projections' input");
    // bmm's operands, a·d_h wide whatever the key/value heads: RoPE's sum (matmul's reshape copies it
    // out of the projection's (b, s, a, d_h) layout) and repeat_kv's expanded copies.
    b.tensor("Q after RoPE (bmm's operand)", "the q @ kᵀ bmm", q, tensorParallel);
    b.tensor("K after RoPE and repeat_kv (bmm's operand)", "the q @ kᵀ bmm", q, tensorParallel);
    b.fixed("score scale d_h^-0.5 (0-d double)", "the scaling mul's backward", 1, eager::kDoubleBytes,
            "fp64");
    // The additive causal mask is not saved (add's backward needs neither operand).
    b.fp32("softmax output (fp32)", "the softmax's backward", a * s, tensorParallel, true);
    if (bytesPerElement(activations) != eager::kFp32Bytes)
        b.tensor("probabilities cast back (A·V input)", "the A·V bmm", a * s, tensorParallel, true);
    b.tensor("V after repeat_kv (bmm's operand)", "the A·V bmm", q, tensorParallel);
    b.tensor("attention output (output-projection input)", "the output projection", q, tensorParallel);
    if (isMixtureOfExperts(m)) {
        rmsNormRows(b, "MLP norm", h, "the router's input, gathered for each expert");
        mixtralMoeRows(b, m);
        return b.rows;
    }
    rmsNormRows(b, "MLP norm", h, "the gate and up projections' input");
    b.tensor("gate projection output (SiLU input)", "SiLU's backward", f, tensorParallel);
    b.tensor("SiLU output", "the SiLU · up mul's backward", f, tensorParallel);
    b.tensor("up projection output", "the SiLU · up mul's backward", f, tensorParallel);
    b.tensor("SiLU · up (down-projection input)", "the down projection", f, tensorParallel);
    return b.rows;
}

std::vector<ActivationTensor> llamaEagerHeadLedger(const ModelSpec& m, StorageType activations) {
    eager::Rows b(activations);
    const double table = m.seq * headWidth(m); // (1, s, d_h): position ids of one row, shared by the batch
    b.fixed("RoPE cos (1, s, d_h)", "every layer's RoPE muls", table, b.act, b.actName);
    b.fixed("RoPE sin (1, s, d_h)", "every layer's RoPE muls", table, b.act, b.actName);
    rmsNormRows(b, "final norm", m.dModel, "the output head's input");
    b.fp32("log-softmax output (fp32: the loss upcasts the logits)", "the cross-entropy's backward", m.vocab,
           tensorParallel);
    b.fixed("loss total weight (0-d)", "the cross-entropy's backward", 1, eager::kFp32Bytes, "fp32");
    return b.rows;
}

} // namespace napkin

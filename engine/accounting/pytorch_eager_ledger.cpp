// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_ledger.h"

#include "engine/accounting/pytorch_eager_llama.h"
#include "engine/accounting/pytorch_eager_lora.h"
#include "engine/accounting/pytorch_eager_moe.h"
#include "engine/accounting/pytorch_eager_rows.h"

namespace napkin {
namespace {

using eager::kBoolBytes, eager::kDoubleBytes, eager::kInt64Bytes;
constexpr auto tensorParallel = ActivationSplit::tensorParallel;
constexpr auto sequence = ActivationSplit::sequence;

} // namespace

std::string pytorchEagerUnsupported(const ModelSpec& m) {
    if (m.kind != ModelKind::transformer)
        return "describes a transformer";
    if (isMixtureOfExperts(m) && !isLlamaStyle(m))
        return "describes mixtures of experts in Llama-style (Mixtral) blocks only: RMSNorm, SwiGLU experts "
               "and RoPE";
    if (m.attentionImpl != AttentionImpl::eager)
        return "describes eager attention (q @ kᵀ, softmax, @ v), not flash attention";
    if (m.normPlacement != NormPlacement::pre || m.qkNorm != QkNorm::none || isLatentAttention(m) ||
        m.slidingWindow > 0)
        return "describes pre-norm blocks without QK-norm, MLA or a sliding window so far";
    if (isLlamaStyle(m)) {
        if (std::string why = llamaEagerUnsupported(m); !why.empty() || !isMixtureOfExperts(m))
            return why;
        return moeEagerUnsupported(m);
    }
    if (m.norm != NormKind::layernorm || m.mlp != MlpKind::gelu || m.position != PositionKind::learned)
        return "describes nanoGPT-style GPT-2 blocks (LayerNorm, GELU MLP, learned positions) and "
               "Llama-style "
               "blocks (RMSNorm, SwiGLU MLP, RoPE) so far; this model has " +
               std::string(normKindName(m.norm)) + ", " + std::string(mlpKindName(m.mlp)) + " and " +
               std::string(positionKindName(m.position)) + " positions";
    if (kvHeadCount(m) != m.heads || (m.headDim > 0 && m.headDim * m.heads != m.dModel))
        return "describes GPT-2-style multi-head attention with d/a-wide heads (no GQA)";
    return {};
}

InputError validateActivationProfile(const ModelSpec& m, Recompute recompute, const ParallelLayout& layout,
                                     const FineTuning& fineTuning) {
    if (m.activationsOf != ActivationProfile::pytorchEager)
        return {};
    const std::string field = "activations-of";
    if (const std::string why = pytorchEagerUnsupported(m); !why.empty())
        return {field, "pytorch-eager " + why + " (megatron describes the others)"};
    if (recompute == Recompute::selective)
        return {field, "pytorch-eager has no selective recompute; use none or full (torch.utils.checkpoint)"};
    if (layout.tp > 1 || layout.pp > 1 || layout.cp > 1)
        return {field, "pytorch-eager describes one GPU's eager PyTorch; tensor, pipeline and context "
                       "parallelism are Megatron's (--activations-of megatron)"};
    if (hasAdapters(fineTuning))
        if (const std::string why = pytorchEagerLoraUnsupported(m, fineTuning); !why.empty())
            return {field, "pytorch-eager " + why};
    return {};
}

std::vector<ActivationTensor> pytorchEagerLayerLedger(const ModelSpec& m, StorageType activations,
                                                      Recompute recompute) {
    if (isLlamaStyle(m))
        return llamaEagerLayerLedger(m, activations, recompute);
    eager::Rows b(activations);
    const double h = m.dModel, a = m.heads, s = m.seq, f = ffnWidth(m);
    if (recompute == Recompute::full) {
        b.tensor("layer input (the checkpoint)", "torch.utils.checkpoint re-running the layer", h);
        return b.rows;
    }
    b.tensor("attention norm input", "LayerNorm's backward", h);
    b.layerNormStatistics("attention norm");
    b.tensor("attention norm output (QKV input)", "the QKV projection's weight gradient", h);
    // matmul folds (b, a, s, d_h) into (b·a, s, d_h) with reshape, which copies the transposed views of
    // the QKV output: bmm saves the copies, never the QKV output itself. (At batch 1 the reshape is a
    // view and bmm saves the QKV output, one storage of the same 3·h bytes.)
    b.tensor("Q (matmul's contiguous copy)", "the q @ kᵀ bmm", h, tensorParallel);
    b.tensor("Kᵀ (matmul's contiguous copy)", "the q @ kᵀ bmm", h, tensorParallel);
    b.fixed("score scale 1/√d_h (0-d double)", "the scaling mul's backward", 1, kDoubleBytes, "fp64");
    b.fixed("causal mask (bias[:s, :s] == 0)", "masked_fill's backward", s * s, kBoolBytes, "bool");
    b.tensor("softmax output",
             m.dropout ? "the softmax's backward" : "the softmax's backward and the A·V bmm", a * s,
             tensorParallel, true);
    if (m.dropout) {
        b.mask("attention-probability dropout mask", a * s, true);
        b.tensor("dropped-out probabilities (A·V input)", "the A·V bmm", a * s, tensorParallel, true);
    }
    b.tensor("V (matmul's contiguous copy)", "the A·V bmm", h, tensorParallel);
    b.tensor("attention output (output-projection input)", "the output projection", h, tensorParallel);
    if (m.dropout)
        b.mask("attention-output dropout mask", h);
    b.tensor("MLP norm input", "LayerNorm's backward", h);
    b.layerNormStatistics("MLP norm");
    b.tensor("MLP norm output (MLP input)", "the up projection", h);
    b.tensor("up projection output (GELU input)", "GELU's backward", f, tensorParallel);
    b.tensor("GELU output (down-projection input)", "the down projection", f, tensorParallel);
    if (m.dropout)
        b.mask("MLP-output dropout mask", h);
    return b.rows;
}

std::vector<ActivationTensor> pytorchEagerHeadLedger(const ModelSpec& m, StorageType activations) {
    if (isLlamaStyle(m))
        return llamaEagerHeadLedger(m, activations);
    eager::Rows b(activations);
    if (m.dropout)
        b.mask("embedding dropout mask", m.dModel);
    b.fixed("position ids (arange, int64)", "the position embedding's backward", m.seq, kInt64Bytes, "int64");
    b.tensor("final norm input", "LayerNorm's backward", m.dModel);
    b.layerNormStatistics("final norm");
    b.tensor("final norm output (head input)", "the output head's weight gradient", m.dModel);
    b.tensor("log-softmax output", "the cross-entropy's backward", m.vocab, tensorParallel);
    b.fixed("loss total weight (0-d)", "the cross-entropy's backward", 1, b.act, b.actName);
    return b.rows;
}

} // namespace napkin

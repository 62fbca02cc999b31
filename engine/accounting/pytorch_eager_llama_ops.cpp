// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_llama_ops.h"

#include "engine/accounting/llama_op_writer.h"
#include "engine/accounting/pytorch_eager_moe.h"
#include "engine/accounting/pytorch_eager_moe_ops.h"
#include "engine/accounting/pytorch_eager_rows.h"

#include <cmath>
#include <optional>
#include <utility>

namespace napkin {
namespace {

using eager::kDoubleBytes, eager::kFp32Bytes;
using Sizes = eager::LlamaSizes;
using Writer = eager::LlamaOpWriter;

void embeddingsForward(Writer w, const Sizes& z) {
    w.keep(z.nh);     // embed(idx): layer 1's input, which its norm saves
    w.temp(z.arange); // RoPE under no_grad: arange(s) in fp32
    w.temp(z.freqs);  // · inv_freq
    w.drop(z.arange);
    w.temp(2 * z.freqs); // angles = cat((freqs, freqs))
    w.keep(z.table);     // cos and sin, which every layer's RoPE muls save
    w.keep(z.table);
}

// DecoderLayer.forward: x + attention(norm1(x)), then + mlp(norm2(x)).
void attentionForward(Writer w, const Sizes& z) {
    const bool sharesProjections = !z.repeats && !z.copies; // bmm saves views of k and v themselves
    w.temp(z.nq);                                           // q, k, v projections
    w.temp(z.nkv);
    if (sharesProjections)
        w.keep(z.nkv);
    else
        w.temp(z.nkv);
    w.ropeForward(z.nq, !z.copies);
    w.ropeForward(z.nkv, sharesProjections);
    if (z.repeats) { // repeat_kv: expand and reshape, a copy; k after RoPE and v's projection are freed
        w.keep(z.nq);
        w.drop(z.nkv);
        w.keep(z.nq);
        w.drop(z.nkv);
    }
    if (z.copies) { // matmul's reshape of q (and of kᵀ where repeat_kv made none)
        w.keep(z.nq);
        if (!z.repeats)
            w.keep(z.nq);
    }
    w.temp(z.scores);     // q @ kᵀ
    w.keep(kDoubleBytes); // · d_h^-0.5: the scale as a saved 0-d double
    w.temp(z.e);          // and in the scores' dtype
    w.temp(z.scores);
    w.drop(z.e);
    w.drop(z.scores);
    w.temp(z.scores); // + mask
    w.drop(z.scores);
    w.keep(z.scores); // softmax (fp32)
    w.drop(z.scores);
    if (!z.repeats && z.copies)
        w.keep(z.nq); // v reshaped by matmul, a copy
    w.temp(z.nq);     // att @ v
    w.keep(z.nq);     // .transpose(1, 2).contiguous(): the output projection's input
    w.drop(z.nq);
    w.temp(z.nh); // the output projection
    if (z.copies) // as attention returns: q after RoPE, and k after RoPE and v where matmul copied them
        w.drop(z.nq);
    if (!z.repeats && z.copies) {
        w.drop(z.nq);
        w.drop(z.nq);
    }
    w.keep(z.nh); // x + attention: the MLP norm's input
    w.drop(z.nh);
}

// `moe`: Mixtral's sparse block in the MLP's place (pytorch_eager_moe_ops.h), or null.
void layerForward(Writer w, const Sizes& z, const eager::MoeSizes* moe) {
    w.rmsNormForward();
    attentionForward(w, z);
    w.rmsNormForward();
    if (moe) {
        eager::moeForward(w, *moe); // its output's zeros stay held, as the down projection's output
    } else {
        w.keep(z.nf); // gate projection: SiLU's input
        w.keep(z.nf); // SiLU
        w.keep(z.nf); // up projection
        w.keep(z.nf); // SiLU · up: the down projection's input
        w.temp(z.nh); // down projection
    }
    w.keep(z.nh); // x + MLP: the next layer's (or the final norm's) input
    w.drop(z.nh);
}

// The final norm, the head, F.cross_entropy (log-softmax then NLL) of the logits (.float() is a no-op in
// fp32); then Decoder.forward returns, freeing RoPE's freqs and angles and the logits.
void headForward(Writer w, const Sizes& z) {
    w.rmsNormForward();
    w.temp(z.logits);
    w.keep(z.logits);   // log-softmax's output
    w.temp(kFp32Bytes); // the loss
    w.keep(kFp32Bytes); // NLL's total weight
    w.drop(z.freqs);
    w.drop(2 * z.freqs);
    w.drop(z.logits);
}

void lossBackward(Writer w, const Sizes& z) {
    w.temp(kFp32Bytes); // backward's seed, held until backward returns
    w.temp(z.logits);   // NllLossBackward: dL/dlog-probs
    w.release(kFp32Bytes);
    w.temp(z.logits); // LogSoftmaxBackward: dL/dlogits
    w.drop(z.logits);
    w.release(z.logits);
}

void headBackward(Writer w, const Sizes& z, double vocab) {
    w.grad(vocab * z.h); // MmBackward: the head's (tied: the token embedding's) gradient, then dX
    w.temp(z.nh);
    w.drop(z.logits);
    w.release(z.nh); // the final norm's output
    w.rmsNormBackward(false);
}

/// repeat_kv's backward: ExpandBackward sums dL/d(the copy) over the repeats, then four SliceBackwards
/// (x[:, :, None, :, :]) each make zeros of the same size and free their incoming gradient.
void repeatKvBackward(Writer w, const Sizes& z) {
    w.temp(z.nkv);
    w.drop(z.nq);
    for (int i = 0; i < 4; ++i) {
        w.temp(z.nkv);
        w.drop(z.nkv);
    }
}

/// A projection's backward from dL/d(its output) of `width` bytes (`outFeatures` wide), reached through
/// view(b, s, heads, d_h).transpose(1, 2): ViewBackward reshapes the transposed gradient, a copy, then
/// MmBackward makes the weight's gradient and dX.
void projectionBackward(Writer w, const Sizes& z, double width, double outFeatures) {
    w.temp(width);
    w.drop(width);
    w.grad(z.h * outFeatures);
    w.temp(z.nh);
    w.drop(width);
}

/// The dense MLP's backward, from the down projection to the gate's dX summed into up's.
void mlpBackward(Writer w, const Sizes& z) {
    w.grad(z.f * z.h); // down projection
    w.temp(z.nf);
    eager::swigluBackwardBelowDown(w, z.nf, z.nh, z.h * z.f);
    w.release(z.nh); // the MLP norm's output
    w.accumulate(z.nh);
}

// The layer's nodes, latest made first. `first`: layer 1, whose q RoPE muls are the last to hold the tables.
void layerBackward(Writer w, const Sizes& z, const eager::MoeSizes* moe, bool first) {
    if (moe)
        eager::moeBackward(w, *moe);
    else
        mlpBackward(w, z);
    w.rmsNormBackward(true);
    w.grad(z.q * z.h); // output projection
    w.temp(z.nq);
    w.release(z.nq); // its input
    if (z.copies) {  // UnsafeViewBackward: the transposed gradient reshaped, a copy (at batch 1 a view)
        w.temp(z.nq);
        w.drop(z.nq);
    }
    w.temp(z.nq); // BmmBackward (att @ v): dv, then datt
    w.temp(z.scores);
    w.drop(z.nq);
    w.release(z.nq);  // v as the bmm saved it
    w.temp(z.scores); // SoftmaxBackward
    w.drop(z.scores);
    w.release(z.scores); // the softmax's output
    w.temp(z.e);         // MulBackward: the scale in the scores' dtype
    w.temp(z.scores);
    w.drop(z.e);
    w.drop(z.scores);
    w.release(kDoubleBytes);
    w.temp(z.nq); // BmmBackward (q @ kᵀ): dq, dkᵀ
    w.temp(z.nq);
    w.drop(z.scores);
    w.release(z.nq); // q and k as the bmm saved them
    w.release(z.nq);
    if (z.repeats) { // v's repeat_kv was made after k's: its backward runs first
        repeatKvBackward(w, z);
        repeatKvBackward(w, z);
    }
    w.ropeBackward(z.nkv, false); // k's RoPE, made after q's
    w.ropeBackward(z.nq, first);
    projectionBackward(w, z, z.nkv, z.kv); // v, k, q: the norm's output gets three gradients
    projectionBackward(w, z, z.nkv, z.kv);
    w.accumulate(z.nh);
    projectionBackward(w, z, z.nq, z.q);
    w.release(z.nh); // the attention norm's output
    w.accumulate(z.nh);
    w.rmsNormBackward(true);
}

void embeddingsBackward(Writer w, const Sizes& z, double vocab) {
    if (z.tied) { // the embedding's gradient added to the head's, out of place (AccumulateGrad)
        w.temp(z.vocabRows);
        w.drop(z.nh);
        w.accumulate(z.vocabRows);
    } else {
        w.grad(vocab * z.h);
        w.drop(z.nh);
    }
    w.drop(kFp32Bytes); // the seed, as backward returns
    w.drop(kFp32Bytes); // the loss
}

} // namespace

std::string_view llamaStepOpsUnsupported(const ModelSpec& m, StorageType activations) {
    if (isMixtureOfExperts(m) && !moeEagerUnsupported(m).empty())
        return "follows Mixtral-style experts without shared experts, dense-first layers or a router bias";
    if (bytesPerElement(activations) != kFp32Bytes)
        return "follows Llama-style blocks in fp32 so far (not the 16-bit casts)";
    const double dh = headWidth(m);
    if (!(m.layers >= 1 && m.heads >= 2 && m.seq >= 2 && dh >= 2 && std::fmod(dh, 2) == 0))
        return "follows at least one layer, two heads of an even width and two tokens";
    return {};
}

EagerStepOps llamaStepOps(const ModelSpec& m, double batch, StorageType activations,
                          double gradientBytesPerParameter, std::vector<eager::ExpertShare> routing) {
    const Sizes z = eager::llamaSizes(m, batch, activations);
    std::optional<eager::MoeSizes> moe;
    if (isMixtureOfExperts(m))
        moe = eager::moeSizes(m, batch, activations, std::move(routing));
    const eager::MoeSizes* block = moe ? &*moe : nullptr;
    const OpRun empty(gradientBytesPerParameter);
    EagerStepOps ops{empty, empty, empty, empty, empty, empty, empty, empty};
    embeddingsForward({ops.embeddingsForward, z}, z);
    layerForward({ops.layerForward, z}, z, block);
    headForward({ops.headForward, z}, z);
    lossBackward({ops.lossBackward, z}, z);
    headBackward({ops.headBackward, z}, z, m.vocab);
    layerBackward({ops.layerBackward, z}, z, block, false);
    layerBackward({ops.firstLayerBackward, z}, z, block, true);
    embeddingsBackward({ops.embeddingsBackward, z}, z, m.vocab);
    return ops;
}

} // namespace napkin

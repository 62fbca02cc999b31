#include "engine/accounting/pytorch_eager_llama_ops.h"

#include "engine/accounting/eager_op_writer.h"
#include "engine/accounting/pytorch_eager_rows.h"

#include <cmath>

namespace napkin {
namespace {

using eager::kDoubleBytes, eager::kFp32Bytes;

/// The step's tensors in bytes. RMSNorm computes in fp32 whatever the activations' dtype, so its x², 1/rms
/// and their gradients are fp32; so are RoPE's freqs and angles, the softmax's output and the loss.
struct Sizes {
    double e, h, f;       // element bytes, width, MLP width
    double nh, nf;        // one s·b·h and one s·b·f tensor
    double nq, nkv;       // the queries (s·b·a·d_h) and the keys or values (s·b·g·d_h)
    double nh32, stats;   // RMSNorm's fp32 s·b·h tensors and its per-token 1/rms and variance
    double scores;        // one b·a·s² tensor
    double logits;        // s·b·V
    double table;         // RoPE's cos or sin, (1, s, d_h)
    double arange, freqs; // RoPE's fp32 positions (s), freqs (s·d_h/2); angles are two freqs wide
    double vocabRows;     // V·h: the token embedding's gradient
    double q, kv;         // the projections' widths a·d_h and g·d_h
    bool repeats;         // repeat_kv copies k and v (a > g), so q @ kᵀ and att @ v read its copies
    bool copies;          // matmul's reshape folds (b, a) with a copy, except at batch 1, where it is a view
    bool tied;
};

Sizes sizesOf(const ModelSpec& m, double batch, StorageType activations) {
    Sizes z{};
    const double n = tokensPerStep(m, batch), dh = headWidth(m), g = kvHeadCount(m);
    z.e = bytesPerElement(activations);
    z.h = m.dModel;
    z.f = ffnWidth(m);
    z.q = m.heads * dh;
    z.kv = g * dh;
    z.nh = n * z.h * z.e;
    z.nf = n * z.f * z.e;
    z.nq = n * z.q * z.e;
    z.nkv = n * z.kv * z.e;
    z.nh32 = n * z.h * kFp32Bytes;
    z.stats = n * kFp32Bytes;
    z.scores = batch * m.heads * m.seq * m.seq * z.e;
    z.logits = n * m.vocab * z.e;
    z.table = m.seq * dh * z.e;
    z.arange = m.seq * kFp32Bytes;
    z.freqs = m.seq * dh / 2 * kFp32Bytes;
    z.vocabRows = m.vocab * z.h * z.e;
    z.repeats = m.heads > g;
    z.copies = batch > 1;
    z.tied = m.embeddings == EmbeddingTying::tied;
    return z;
}

/// Llama's run writer: RMSNorm's and RoPE's forward and backward, written once for every place they run.
class Writer : public eager::OpWriter {
public:
    Writer(OpRun& run, const Sizes& z)
        : OpWriter(run)
        , z_(z) {}

    /// An op with a Python float: the float as a 0-d double, its copy in the op's dtype (`elementBytes`), the
    /// op's `output` (none for an in-place op), then the two scalars freed.
    void scalarOp(double elementBytes, double output) {
        temp(kDoubleBytes);
        temp(elementBytes);
        if (output > 0)
            temp(output);
        drop(elementBytes);
        drop(kDoubleBytes);
    }

    /// LlamaRMSNorm's forward on an fp32 input already held (the layer's input): x.pow(2), its mean (an
    /// in-place division by the width), + ε, rsqrt, x · 1/rms, weight · that; the variance is freed as the
    /// norm returns. The tensors kept are the ledger's rows.
    void rmsNormForward() {
        keep(z_.nh32);  // x², which mean's backward keeps
        temp(z_.stats); // the variance
        scalarOp(kFp32Bytes, 0);
        scalarOp(kFp32Bytes, z_.stats); // variance + ε
        keep(z_.stats);                 // rsqrt: 1/rms
        drop(z_.stats);
        keep(z_.nh); // x · 1/rms, the normalised x the weight's mul keeps
        keep(z_.nh); // weight · x: the norm's output
        drop(z_.stats);
    }

    /// Its backward from dL/d(output): the weight's mul (the weight's gradient summed over the tokens),
    /// x · 1/rms's, rsqrt's, mean's and pow's, each node releasing its incoming gradient and saved tensors.
    /// dL/dx is made twice (by x · 1/rms and by pow) and, under a residual stream, a third time by the
    /// residual's add, which arrives first: every later one is summed into it.
    void rmsNormBackward(bool residual) {
        temp(z_.nh); // dL/d(normalised x) = grad · weight
        temp(z_.nh); // grad · normalised x, summed to the weight's shape
        grad(z_.h);
        drop(z_.nh);
        drop(z_.nh);    // dL/d(output)
        release(z_.nh); // the normalised x
        temp(z_.nh32);  // dL/dx = grad · 1/rms
        temp(z_.nh32);  // grad · x, summed over the width to dL/d(1/rms)
        temp(z_.stats);
        drop(z_.nh32);
        drop(z_.nh);
        if (residual)
            accumulate(z_.nh32);
        temp(z_.stats); // RsqrtBackward: -0.5 · r³ · grad
        scalarOp(kFp32Bytes, z_.stats);
        temp(z_.stats);
        drop(z_.stats);
        drop(z_.stats);
        drop(z_.stats);                // dL/d(1/rms)
        release(z_.stats);             // 1/rms
        scalarOp(kFp32Bytes, z_.nh32); // MeanBackward: grad expanded / h
        drop(z_.stats);
        release(z_.nh32); // x²
        temp(z_.nh32);    // PowBackward: 2 · x¹ · grad
        scalarOp(kFp32Bytes, z_.nh32);
        temp(z_.nh32);
        drop(z_.nh32);
        drop(z_.nh32);
        drop(z_.nh32);     // dL/d(x²)
        release(z_.nh);    // x: its last reference
        accumulate(z_.nh); // into dL/dx
    }

    /// (x · cos) + (rotate_half(x) · sin) on a projection's `width`-byte output, which is then freed (q and
    /// k are rebound); the sum is kept where a bmm saves it and no copy (`kept`).
    void ropeForward(double width, bool kept) {
        temp(width);     // x · cos
        temp(width / 2); // -x2
        temp(width);     // cat((-x2, x1))
        drop(width / 2);
        temp(width); // rotate_half(x) · sin
        drop(width);
        if (kept)
            keep(width);
        else
            temp(width);
        drop(width);
        drop(width);
        drop(width); // the projection's output
    }

    /// Its backward: the sin mul's, cat's (views), neg's, the two slices' (zeros of the whole width each),
    /// their sum, the cos mul's and the sum into dL/dx. In layer 1 (`lastUse`) q's muls are the last to
    /// hold sin and cos, and release them.
    void ropeBackward(double width, bool lastUse) {
        temp(width); // grad · sin
        if (lastUse)
            release(z_.table);
        temp(width / 2); // NegBackward
        temp(width);     // SliceBackward (x2)
        drop(width / 2);
        temp(width); // SliceBackward (x1)
        drop(width); // dL/d(rotate_half): its last view gone
        accumulate(width);
        temp(width); // grad · cos
        drop(width); // dL/d(the sum)
        if (lastUse)
            release(z_.table);
        accumulate(width);
    }

private:
    const Sizes& z_;
};

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

void layerForward(Writer w, const Sizes& z) {
    w.rmsNormForward();
    attentionForward(w, z);
    w.rmsNormForward();
    w.keep(z.nf); // gate projection: SiLU's input
    w.keep(z.nf); // SiLU
    w.keep(z.nf); // up projection
    w.keep(z.nf); // SiLU · up: the down projection's input
    w.temp(z.nh); // down projection
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

// The layer's nodes, latest made first. `first`: layer 1, whose q RoPE muls are the last to hold the tables.
void layerBackward(Writer w, const Sizes& z, bool first) {
    w.grad(z.f * z.h); // down projection
    w.temp(z.nf);
    w.release(z.nf); // SiLU · up
    w.temp(z.nf);    // MulBackward: dL/dSiLU, dL/dup
    w.temp(z.nf);
    w.drop(z.nf);
    w.release(z.nf);   // SiLU's output
    w.release(z.nf);   // up's output
    w.grad(z.h * z.f); // up projection
    w.temp(z.nh);
    w.drop(z.nf);
    w.temp(z.nf); // SiluBackward
    w.drop(z.nf);
    w.release(z.nf);   // the gate's output
    w.grad(z.h * z.f); // gate projection
    w.temp(z.nh);
    w.drop(z.nf);
    w.release(z.nh); // the MLP norm's output
    w.accumulate(z.nh);
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
    if (isMixtureOfExperts(m))
        return "follows dense Llama-style blocks so far (not Mixtral's experts)";
    if (bytesPerElement(activations) != kFp32Bytes)
        return "follows Llama-style blocks in fp32 so far (not the 16-bit casts)";
    const double dh = headWidth(m);
    if (!(m.layers >= 1 && m.heads >= 2 && m.seq >= 2 && dh >= 2 && std::fmod(dh, 2) == 0))
        return "follows at least one layer, two heads of an even width and two tokens";
    return {};
}

EagerStepOps llamaStepOps(const ModelSpec& m, double batch, StorageType activations,
                          double gradientBytesPerParameter) {
    const Sizes z = sizesOf(m, batch, activations);
    const OpRun empty(gradientBytesPerParameter);
    EagerStepOps ops{empty, empty, empty, empty, empty, empty, empty, empty};
    embeddingsForward({ops.embeddingsForward, z}, z);
    layerForward({ops.layerForward, z}, z);
    headForward({ops.headForward, z}, z);
    lossBackward({ops.lossBackward, z}, z);
    headBackward({ops.headBackward, z}, z, m.vocab);
    layerBackward({ops.layerBackward, z}, z, false);
    layerBackward({ops.firstLayerBackward, z}, z, true);
    embeddingsBackward({ops.embeddingsBackward, z}, z, m.vocab);
    return ops;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/pytorch_eager_step_ops.h"

#include "engine/accounting/eager_op_writer.h"
#include "engine/accounting/fine_tuning.h"
#include "engine/accounting/parallel_layout.h"
#include "engine/accounting/pytorch_eager_llama.h"
#include "engine/accounting/pytorch_eager_llama_ops.h"
#include "engine/accounting/pytorch_eager_rows.h"
#include "engine/accounting/timeline_builder.h"

namespace napkin {
namespace {

using eager::kBoolBytes, eager::kDoubleBytes, eager::kFp32Bytes, eager::kInt64Bytes;

/// The step's tensors in bytes. `e` is the activations' element size: a 0-d tensor a Python float becomes
/// (beside its 0-d double), the loss, its seed and total weight are of it too.
struct Sizes {
    double e, h, f, n; // element bytes, width, MLP width, tokens b·s
    double nh, nf;     // one s·b·h and one s·b·f tensor
    double scores;     // one b·a·s² tensor
    double logits;     // s·b·V
    double statistics; // LayerNorm's mean (or 1/σ): fp32 per token
    double positions;  // s·h: the position embedding's output and its gradient
    double vocabRows;  // V·h: the token embedding's gradient
    double mask, indices;
    bool bias, tied;
    /// matmul folds (b, a, s, d_h) into (b·a, s, d_h) with reshape: a copy of q, kᵀ and v, except at
    /// batch 1, where the reshape is a view and bmm keeps the QKV output itself.
    bool copies;
};

Sizes sizesOf(const ModelSpec& m, double batch, StorageType activations) {
    Sizes z{};
    z.e = bytesPerElement(activations);
    z.h = m.dModel;
    z.f = ffnWidth(m);
    z.n = tokensPerStep(m, batch);
    z.nh = z.n * z.h * z.e;
    z.nf = z.n * z.f * z.e;
    z.scores = batch * m.heads * m.seq * m.seq * z.e;
    z.logits = z.n * m.vocab * z.e;
    z.statistics = z.n * kFp32Bytes;
    z.positions = m.seq * z.h * z.e;
    z.vocabRows = m.vocab * z.h * z.e;
    z.mask = m.seq * m.seq * kBoolBytes;
    z.indices = m.seq * kInt64Bytes;
    z.bias = m.bias;
    z.tied = m.embeddings == EmbeddingTying::tied;
    z.copies = batch > 1;
    return z;
}

/// GPT-2's run writer: the shared allocations and frees, and nn.Linear's and LayerNorm's backward.
class RunWriter : public eager::OpWriter {
public:
    RunWriter(OpRun& run, const Sizes& z)
        : OpWriter(run)
        , z_(z) {}

    /// nn.Linear's backward (in → out features, dX of `inputGradient` bytes): AddmmBackward makes dX, dW
    /// and then db (the bias's sum over tokens); without a bias MmBackward makes dW first.
    void linearBackward(double in, double out, double inputGradient) {
        if (z_.bias) {
            temp(inputGradient);
            grad(in * out);
            grad(out);
        } else {
            grad(in * out);
            temp(inputGradient);
        }
    }
    /// LayerNorm's backward (native_layer_norm_backward): dX, dγ and dβ, and on the CPU a 2·h fp32 buffer
    /// for dγ and dβ's partial sums (one thread) freed at once; then its incoming gradient, saved input and
    /// statistics are released.
    void layerNormBackward() {
        temp(z_.nh);
        grad(z_.h);
        if (z_.bias)
            grad(z_.h);
        temp(2 * z_.h * kFp32Bytes);
        drop(2 * z_.h * kFp32Bytes);
        drop(z_.nh);
        release(z_.nh);
        release(z_.statistics);
        release(z_.statistics);
    }

private:
    const Sizes& z_;
};

void embeddingsForward(RunWriter w, const Sizes& z) {
    w.keep(z.indices);   // position ids (arange), saved by the position embedding
    w.temp(z.nh);        // wte(idx)
    w.temp(z.positions); // wpe(pos)
    w.keep(z.nh);        // their sum: the first layer's input, which its norm saves
    w.drop(z.nh);
    w.drop(z.positions);
}

// nanoGPT's Block.forward: x + attn(ln_1(x)), then + mlp(ln_2(x)).
void layerForward(RunWriter w, const Sizes& z) {
    w.keep(z.nh); // ln_1's output (its input is the previous layer's output, kept already)
    w.keep(z.statistics);
    w.keep(z.statistics);
    if (z.copies) {
        w.temp(3 * z.nh); // c_attn's output, split into views
        w.keep(z.nh);     // q and kᵀ made contiguous by matmul's reshape
        w.keep(z.nh);
    } else {
        w.keep(3 * z.nh); // bmm keeps views of c_attn's output
    }
    w.temp(z.scores);     // q @ kᵀ
    w.keep(kDoubleBytes); // · 1/√d_h: the scale as a saved 0-d double
    w.temp(z.e);          // and as a 0-d tensor, freed after the mul
    w.temp(z.scores);
    w.drop(z.e);
    w.drop(z.scores);
    w.temp(kDoubleBytes); // bias == 0: the 0 as a double and a tensor
    w.temp(z.e);
    w.keep(z.mask);
    w.drop(kDoubleBytes);
    w.drop(z.e);
    w.temp(z.scores); // masked_fill
    w.drop(z.scores);
    w.keep(z.scores); // softmax
    w.drop(z.scores);
    if (z.copies)
        w.keep(z.nh); // v made contiguous
    w.temp(z.nh);     // att @ v
    w.keep(z.nh);     // .transpose(1, 2).contiguous(): c_proj's input
    w.drop(z.nh);
    w.temp(z.nh); // c_proj's output
    if (z.copies)
        w.drop(3 * z.nh); // q, k, v go with the attention's forward
    w.keep(z.nh);         // x + attention: ln_2's input
    w.drop(z.nh);
    w.keep(z.nh); // ln_2's output
    w.keep(z.statistics);
    w.keep(z.statistics);
    w.keep(z.nf); // c_fc's output, GELU's input
    w.keep(z.nf); // GELU's output, c_proj's input
    w.temp(z.nh); // c_proj's output
    w.keep(z.nh); // x + MLP: the next layer's (or the final norm's) input
    w.drop(z.nh);
}

// ln_f, lm_head, F.cross_entropy: log-softmax then NLL.
void headForward(RunWriter w, const Sizes& z) {
    w.keep(z.nh);
    w.keep(z.statistics);
    w.keep(z.statistics);
    w.temp(z.logits);
    w.keep(z.logits); // log-softmax's output
    w.temp(z.e);      // the loss
    w.keep(z.e);      // NLL's total weight
    w.drop(z.logits); // the logits: nothing saves them
}

void lossBackward(RunWriter w, const Sizes& z) {
    w.temp(z.e);      // backward's seed, held until backward returns
    w.temp(z.logits); // NllLossBackward: dL/dlog-probs
    w.release(z.e);   // its total weight
    w.temp(z.logits); // LogSoftmaxBackward: dL/dlogits
    w.drop(z.logits);
    w.release(z.logits); // the log-softmax output
}

void headBackward(RunWriter w, const Sizes& z, double vocab) {
    w.grad(vocab * z.h); // MmBackward: the head's (tied: the token embedding's) gradient, then dX
    w.temp(z.nh);
    w.drop(z.logits);
    w.release(z.nh); // ln_f's output
    w.layerNormBackward();
}

// Block.forward's nodes in reverse; the residual stream's gradient passes the adds without a copy.
void layerBackward(RunWriter w, const Sizes& z) {
    w.linearBackward(z.f, z.h, z.nf); // MLP c_proj
    w.release(z.nf);                  // GELU's output
    w.temp(z.nf);                     // GeluBackward
    w.drop(z.nf);
    w.release(z.nf);                  // c_fc's output
    w.linearBackward(z.h, z.f, z.nh); // c_fc
    w.drop(z.nf);
    w.release(z.nh);                  // ln_2's output
    w.layerNormBackward();            // ln_2: frees x + attention and its statistics
    w.accumulate(z.nh);               // dL/d(x + attention): the residual's plus ln_2's
    w.linearBackward(z.h, z.h, z.nh); // attention c_proj
    w.release(z.nh);                  // its input
    if (z.copies) {
        w.temp(z.nh); // UnsafeViewBackward: the transposed gradient reshaped, a copy
        w.drop(z.nh);
        w.temp(z.nh); // BmmBackward (att @ v): dv, then datt
        w.temp(z.scores);
        w.drop(z.nh);
        w.release(z.nh); // v's copy
    } else {
        w.temp(z.nh);
        w.temp(z.scores);
        w.drop(z.nh);
    }
    w.temp(z.scores); // SoftmaxBackward
    w.drop(z.scores);
    w.release(z.scores); // the softmax output
    w.temp(z.scores);    // MaskedFillBackward
    w.drop(z.scores);
    w.release(z.mask);
    w.temp(z.e); // MulBackward: the scale as a 0-d tensor
    w.temp(z.scores);
    w.drop(z.e);
    w.drop(z.scores);
    w.release(kDoubleBytes);
    w.temp(z.nh); // BmmBackward (q @ kᵀ): dq, dkᵀ
    w.temp(z.nh);
    w.drop(z.scores);
    if (z.copies) {
        w.release(z.nh);
        w.release(z.nh);
    } else {
        w.release(3 * z.nh);
    }
    for (int i = 0; i < 2; ++i) { // ViewBackward of two of q, k, v: the transposed gradient reshaped
        w.temp(z.nh);
        w.drop(z.nh);
    }
    w.temp(3 * z.nh); // SplitBackward: cat
    w.drop(z.nh);
    w.drop(z.nh);
    w.drop(z.nh);
    w.linearBackward(z.h, 3 * z.h, z.nh); // c_attn
    w.drop(3 * z.nh);
    w.release(z.nh);       // ln_1's output
    w.layerNormBackward(); // ln_1: frees the layer's input and its statistics
    w.accumulate(z.nh);    // dL/d(layer input)
}

void embeddingsBackward(RunWriter w, const Sizes& z, double seq, double vocab) {
    w.temp(z.positions); // AddBackward: wpe's gradient summed over the batch
    w.grad(seq * z.h);   // EmbeddingBackward (wpe)
    w.drop(z.positions);
    w.release(z.indices);
    if (z.tied) { // wte's gradient added to the head's, out of place (AccumulateGrad)
        w.temp(z.vocabRows);
        w.drop(z.nh);
        w.temp(z.vocabRows);
        w.drop(z.vocabRows);
        w.drop(z.vocabRows);
    } else {
        w.grad(vocab * z.h);
        w.drop(z.nh);
    }
    w.drop(z.e); // the seed, as backward returns
    w.drop(z.e); // the loss
}

} // namespace

std::string_view eagerStepOpsUnsupported(const AccountingInput& in, const AccountingResult& r) {
    const ModelSpec& m = in.model;
    if (m.kind != ModelKind::transformer || m.activationsOf != ActivationProfile::pytorchEager)
        return "follows the pytorch-eager profile's transformers";
    if (isMixtureOfExperts(m) && !isLlamaStyle(m))
        return "follows GPT-2-style and Llama-style blocks";
    if (!isDataParallelOnly(in.parallel) || in.zeroStage >= 2 || in.sharding.twoGradientCopies ||
        isFineTuningSet(in.fineTuning))
        return "follows full training on data parallelism with ZeRO 0 or 1";
    if (in.recompute != Recompute::none || m.dropout)
        return "follows a step without recompute or dropout";
    const PrecisionLedger& p = r.precision;
    if (in.precision == PrecisionRecipe::fp8Mixed || p.gradients != p.activations ||
        p.parameters != p.activations)
        return "follows parameters, gradients and activations of one dtype";
    // An expert no token slot chose makes no gradient (and gets no optimizer state), which the totals count.
    if (isMixtureOfExperts(m) && tokensPerStep(m, in.batch) * m.topK < m.experts)
        return "follows steps with a token slot for every expert (b·s·K at least E)";
    if (isLlamaStyle(m))
        return llamaStepOpsUnsupported(m, p.activations);
    if (m.qkvBias && *m.qkvBias != m.bias)
        return "follows c_attn with the other linears' bias";
    if (!(m.layers >= 1 && m.heads >= 2 && m.seq >= 2 && m.dModel / m.heads >= 2))
        return "follows at least one layer, two heads two wide and two tokens";
    return {};
}

EagerStepOps eagerStepOps(const ModelSpec& m, double batch, StorageType activations,
                          double gradientBytesPerParameter) {
    if (isLlamaStyle(m))
        return llamaStepOps(m, batch, activations, gradientBytesPerParameter);
    const Sizes z = sizesOf(m, batch, activations);
    const OpRun empty(gradientBytesPerParameter);
    EagerStepOps ops{empty, empty, empty, empty, empty, empty, empty, empty};
    embeddingsForward({ops.embeddingsForward, z}, z);
    layerForward({ops.layerForward, z}, z);
    headForward({ops.headForward, z}, z);
    lossBackward({ops.lossBackward, z}, z);
    headBackward({ops.headBackward, z}, z, m.vocab);
    layerBackward({ops.layerBackward, z}, z);
    ops.firstLayerBackward = ops.layerBackward;
    embeddingsBackward({ops.embeddingsBackward, z}, z, m.seq, m.vocab);
    return ops;
}

void eagerStepTimeline(TimelineBuilder& t, const AccountingInput& in, const AccountingResult& r) {
    const ModelSpec& m = in.model;
    const EagerStepOps ops = eagerStepOps(m, in.batch, r.precision.activations, t.gradientBytes(1));
    const auto layers = static_cast<long>(m.layers);
    t.startHighWater();
    t.run(ops.embeddingsForward); // inside the first layer's event, as a hook on the first block sees it
    for (long l = 1; l <= layers; ++l) {
        t.run(ops.layerForward);
        t.emitHighWater(StepPhase::forward, StepPart::layer, l);
    }
    t.run(ops.headForward);
    t.emitHighWater(StepPhase::forward, StepPart::head);
    t.run(ops.lossBackward);
    t.emitHighWater(StepPhase::backward, StepPart::loss);
    t.run(ops.headBackward);
    t.emitHighWater(StepPhase::backward, StepPart::head);
    for (long l = layers; l >= 1; --l) {
        t.run(l == 1 ? ops.firstLayerBackward : ops.layerBackward);
        t.emitHighWater(StepPhase::backward, StepPart::layer, l);
    }
    t.run(ops.embeddingsBackward);
    t.emitHighWater(StepPhase::backward, StepPart::embeddings);
    t.addGradients(0, true); // every gradient: memory_bytes.gradients to the bit
    t.endBackward();
}

} // namespace napkin

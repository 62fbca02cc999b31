// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The pieces a Llama-style step's runs are written with (pytorch_eager_llama_ops.cpp): its tensors' sizes and
// RMSNorm's and RoPE's forward and backward, allocation by allocation as torch 1.13 makes them on the CPU.
#include "engine/accounting/eager_op_writer.h"
#include "engine/models/model_spec.h"
#include "engine/numerics/storage_type.h"

namespace napkin::eager {

/// The step's tensors in bytes. RMSNorm computes in fp32 whatever the activations' dtype, so its x², 1/rms
/// and their gradients are fp32; so are RoPE's freqs and angles and the loss. The runs are written for fp32
/// activations (llamaStepOpsUnsupported): a 16-bit step's casts (RMSNorm's upcast and cast back, the
/// softmax's, the logits' .float()) are no-ops there and are not written, and the softmax's and log-softmax's
/// fp32 outputs are sized as `scores` and `logits`.
struct LlamaSizes {
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

/// `model`'s tensors at `batch` sequences with activations of `activations`.
LlamaSizes llamaSizes(const ModelSpec& model, double batch, StorageType activations);

/// Llama's run writer: RMSNorm's and RoPE's forward and backward, written once for every place they run.
class LlamaOpWriter : public OpWriter {
public:
    LlamaOpWriter(OpRun& run, const LlamaSizes& z)
        : OpWriter(run)
        , z_(z) {}

    /// An op with a Python float: the float as a 0-d double, its copy in the op's dtype (`elementBytes`), the
    /// op's `output` (none for an in-place op), then the two scalars freed.
    void scalarOp(double elementBytes, double output);
    /// LlamaRMSNorm's forward on an fp32 input already held (the layer's input): x.pow(2), its mean (an
    /// in-place division by the width), + ε, rsqrt, x · 1/rms, weight · that; the variance is freed as the
    /// norm returns. The tensors kept are the ledger's rows.
    void rmsNormForward();
    /// Its backward from dL/d(output): the weight's mul (the weight's gradient summed over the tokens),
    /// x · 1/rms's, rsqrt's, mean's and pow's, each node releasing its incoming gradient and saved tensors.
    /// dL/dx is made twice (by x · 1/rms and by pow) and, under a residual stream, a third time by the
    /// residual's add, which arrives first: every later one is summed into it.
    void rmsNormBackward(bool residual);
    /// (x · cos) + (rotate_half(x) · sin) on a projection's `width`-byte output, which is then freed (q and
    /// k are rebound); the sum is kept where a bmm saves it and no copy (`kept`).
    void ropeForward(double width, bool kept);
    /// Its backward: the sin mul's, cat's (views), neg's, the two slices' (zeros of the whole width each),
    /// their sum, the cos mul's and the sum into dL/dx. In layer 1 (`lastUse`) q's muls are the last to
    /// hold sin and cos, and release them.
    void ropeBackward(double width, bool lastUse);

private:
    const LlamaSizes& z_;
};

} // namespace napkin::eager

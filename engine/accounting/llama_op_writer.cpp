// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/llama_op_writer.h"

#include "engine/accounting/pytorch_eager_rows.h"

namespace napkin::eager {

LlamaSizes llamaSizes(const ModelSpec& m, double batch, StorageType activations) {
    LlamaSizes z{};
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

void LlamaOpWriter::scalarOp(double elementBytes, double output) {
    temp(kDoubleBytes);
    temp(elementBytes);
    if (output > 0)
        temp(output);
    drop(elementBytes);
    drop(kDoubleBytes);
}

void LlamaOpWriter::rmsNormForward() {
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

void LlamaOpWriter::rmsNormBackward(bool residual) {
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

void LlamaOpWriter::ropeForward(double width, bool kept) {
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

void LlamaOpWriter::ropeBackward(double width, bool lastUse) {
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

} // namespace napkin::eager

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/inference_ops.h"

#include "engine/steptime/inference_ops_builder.h"

#include "engine/accounting/flop_count.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/formula_text.h"

#include <algorithm>
#include <utility>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// One forward op: a GEMM of batch × [m×k]·[k×n] (m = 0: a memory-bound op) of `flops` and `bytes`.
StepOp forwardOp(const std::string& name, double m, double n_, double k, double batch, double flops,
                 double bytes, double launches, double count) {
    StepOp op;
    op.name = name;
    op.phase = StepTimePhase::forward;
    op.gemm = m > 0;
    op.m = m;
    op.n = n_;
    op.k = k;
    op.batch = batch;
    op.flops = flops;
    op.bytes = bytes;
    op.launches = launches;
    op.count = count;
    return op;
}

} // namespace

InferenceOpsBuilder::InferenceOpsBuilder(const InferenceInput& in, InferencePass pass, StepOpList& list)
    : m_in(in)
    , m_pass(pass)
    , m_list(list)
    , m_e(bytesPerElement(list.activations))
    , m_w(weightFormatBytes(in.weights, in.groupSize))
    , m_other(in.weights == WeightFormat::fp32 ? 4 : 2)
    , m_kv(bytesPerElement(in.kvCache)) {}

void InferenceOpsBuilder::build() {
    const ModelSpec& md = m_in.model;
    const double N = m_in.gpus, L = md.layers, d = md.dModel, T = tokens();
    const double a = md.heads / N, dv = valueHeadWidth(md);
    const bool rms = md.norm == NormKind::rmsnorm;
    embeddings();
    norm(rms ? "RMSNorm" : "LayerNorm", T * d, normsPerLayer(md) * L);
    if (isLatentAttention(md))
        latentProjections();
    else
        projections();
    // Windowed layers (Mistral's every layer, Gemma's alternate ones) keep and read the last W tokens.
    const double windowed = windowedLayerCount(md), P = prompt();
    if (windowed < L) {
        cacheWrite(decode() ? 1 : P, L - windowed);
        attention(L - windowed, 0);
    }
    if (windowed > 0) {
        cacheWrite(decode() ? 1 : std::min(P, md.slidingWindow), windowed);
        attention(windowed, md.slidingWindow);
    }
    gemm("attention output projection", T, d, a * dv, L, layerWeightBytes());
    memory("residual add", T * d, 3 * m_e, 1, 2 * L);
    if (isMixtureOfExperts(md))
        experts();
    else
        mlp("mlp", ffnWidth(md) / N, L);
    norm(rms ? "final RMSNorm" : "final LayerNorm", T * d, 1);
    // Logits for every position, as Hugging Face's eager forward computes them (and the roofline's
    // 2·N_matmul·P counts); the head is 16-bit whatever the layers' format.
    gemm("output head", T, md.vocab / N, d, 1, m_other);
    notes();
}

double InferenceOpsBuilder::prompt() const {
    return m_in.prompt ? *m_in.prompt : m_in.context;
}

double InferenceOpsBuilder::tokens() const {
    return decode() ? m_in.batch : m_in.batch * prompt();
}

double InferenceOpsBuilder::decodeKeys(double window) const {
    return window > 0 ? std::min(m_in.context, window) : m_in.context;
}

double InferenceOpsBuilder::layerWeightBytes() const {
    return m_in.expertsOnly && isMixtureOfExperts(m_in.model) ? m_other : m_w;
}

void InferenceOpsBuilder::push(StepOp op) {
    if (op.count > 0)
        m_list.ops.push_back(std::move(op));
}

// x [m×k] and y [m×n] at the activations' size, W [n×k] at `weightBytes` each (the serving format's, scales
// included): the weights read once per pass.
void InferenceOpsBuilder::gemm(const std::string& name, double m, double n_, double k, double count,
                               double weightBytes) {
    StepOp op =
        forwardOp(name, m, n_, k, 1, 2 * m * n_ * k, (m * k + m * n_) * m_e + n_ * k * weightBytes, 1, count);
    op.weightBytes = n_ * k * weightBytes;
    if (formulasWanted())
        op.shape = "[" + n(m) + "×" + n(k) + "]·[" + n(k) + "×" + n(n_) + "]";
    op.orientation = GemmOrientation::forward;
    push(std::move(op));
}

void InferenceOpsBuilder::groupedGemm(const std::string& name, double m, double n_, double k, double batch,
                                      double count, double weightBytes) {
    StepOp op = forwardOp(name, m, n_, k, batch, 2 * batch * m * n_ * k,
                          batch * ((m * k + m * n_) * m_e + n_ * k * weightBytes), 1, count);
    op.weightBytes = batch * n_ * k * weightBytes;
    if (formulasWanted())
        op.shape =
            n(batch) + " × [" + n(m) + "×" + n(k) + "]·[" + n(k) + "×" + n(n_) + "], each its own weights";
    push(std::move(op));
}

void InferenceOpsBuilder::batched(const std::string& name, double m, double n_, double k, double batch,
                                  double bytes, double count, std::string shape) {
    StepOp op = forwardOp(name, m, n_, k, batch, 2 * batch * m * n_ * k, bytes, 1, count);
    if (formulasWanted())
        op.shape = shape.empty() ? n(batch) + " × [" + n(m) + "×" + n(k) + "]·[" + n(k) + "×" + n(n_) + "]"
                                 : std::move(shape);
    push(std::move(op));
}

void InferenceOpsBuilder::memory(const std::string& name, double elements, double bytesPerElement, double ops,
                                 double count) {
    StepOp op = forwardOp(name, 0, 0, 0, 1, 0, elements * bytesPerElement, ops, count);
    if (formulasWanted())
        op.shape = n(elements) + " elements × " + n(bytesPerElement) + " B";
    push(std::move(op));
}

// As the training step's forward (step_ops_builder.cpp): LayerNorm one kernel; Hugging Face's RMSNorm with
// its statistics in fp32 (casts, pow, mean, rsqrt, two products).
void InferenceOpsBuilder::norm(const std::string& name, double elements, double count) {
    if (m_in.model.norm == NormKind::rmsnorm)
        rmsNorm(name, elements, count);
    else
        memory(name, elements, 2 * m_e, 1, count);
}

void InferenceOpsBuilder::rmsNorm(const std::string& name, double elements, double count) {
    const double cast = m_e < 4 ? (m_e + 4) + (4 + m_e) : 0;
    memory(name, elements, cast + 8 + 4 + 8 + 2 * m_e, m_e < 4 ? 8 : 6, count);
}

void InferenceOpsBuilder::embeddings() {
    const double T = tokens(), d = m_in.model.dModel;
    memory("token embedding", T * d, 2 * m_e, 1, 1);
    if (m_in.model.position == PositionKind::learned)
        memory("position embedding + add", T * d, 5 * m_e, 2, 1);
}

void InferenceOpsBuilder::projections() {
    const ModelSpec& md = m_in.model;
    const double N = m_in.gpus, L = md.layers, d = md.dModel, T = tokens(), w = layerWeightBytes();
    const double a = md.heads / N, g = kvHeadCount(md) / N, dh = queryKeyHeadWidth(md),
                 dv = valueHeadWidth(md);
    if (md.position == PositionKind::rope) { // Hugging Face's Llama: three projections
        gemm("q projection", T, a * dh, d, L, w);
        gemm("k projection", T, g * dh, d, L, w);
        gemm("v projection", T, g * dv, d, L, w);
        memory("RoPE on q", T * a * dh, 10 * m_e, 5, L);
        memory("RoPE on k", T * g * dh, 10 * m_e, 5, L);
    } else { // nanoGPT's fused c_attn
        gemm("qkv projection", T, (a + 2 * g) * dh, d, L, w);
    }
}

// The new tokens' keys and values (latent attention: the latent and the shared RoPE key, whole on every GPU
// of the group) into the cache: read at the activations' size, written at the cache's. A windowed layer's
// cache is a rolling buffer of the last W tokens: prefill writes min(P, W) of each sequence.
void InferenceOpsBuilder::cacheWrite(double tokensPerSequence, double layers) {
    const ModelSpec& md = m_in.model;
    const double perToken = isLatentAttention(md)
                                ? md.kvLoraRank + md.qkRopeHeadDim
                                : kvHeadCount(md) / m_in.gpus * (queryKeyHeadWidth(md) + valueHeadWidth(md));
    memory("KV cache write", m_in.batch * tokensPerSequence * perToken, m_e + m_kv, 2, layers);
}

void InferenceOpsBuilder::attention(double layers, double window) {
    if (decode() && isLatentAttention(m_in.model))
        absorbedLatentAttention(layers, window);
    else if (m_in.model.attentionImpl == AttentionImpl::flash)
        flashAttention(layers, window);
    else
        eagerAttention(layers, window);
}

// One kernel (FlashAttention; flash-decoding in decode): reads q, the keys and values it attends to, writes
// the output. Prefill attends over the causal pairs of the prompt (within the window); decode reads the
// cache (its last W tokens in a windowed layer). Latent attention's prefill attends over every head's own
// keys and values, up-projected from the latent (g = a).
void InferenceOpsBuilder::flashAttention(double L, double window) {
    const ModelSpec& md = m_in.model;
    const double N = m_in.gpus, B = m_in.batch, a = md.heads / N,
                 g = isLatentAttention(md) ? a : kvHeadCount(md) / N, dh = queryKeyHeadWidth(md),
                 dv = valueHeadWidth(md);
    const std::string name = window > 0 ? "flash attention (window " + n(window) + ")" : "flash attention";
    if (!decode()) {
        const double P = prompt(), T = B * P;
        const double pairs = scoredPairs(P, window, AttentionMask::causal);
        const double bytes = T * ((a + 2 * g) * dh + a * dv) * m_e;
        StepOp op = forwardOp(name, P, window > 0 ? std::min(window, P) : P, dh, B * a,
                              2 * B * a * pairs * (dh + dv), bytes, 1, L);
        if (formulasWanted())
            op.shape = "2·B·a·pairs·(d_qk + d_v) over " + n(B * a) + " heads × " + n(pairs) + " pairs";
        push(std::move(op));
        return;
    }
    const double S = decodeKeys(window);
    const double bytes = B * S * g * (dh + dv) * m_kv + B * a * (dh + dv) * m_e;
    batched(window > 0 ? "flash-decoding (window " + n(window) + ", reads the KV cache)"
                       : "flash-decoding (reads the KV cache)",
            1, S, dh + dv, B * a, bytes, L,
            "2·B·a·S·(d_qk + d_v) over " + n(B * a) + " heads × " + n(S) + " cached tokens");
}

// Eager attention as Hugging Face's Llama and nanoGPT run it: per-head layouts copied, QKᵀ, the scale, the
// causal mask (prefill; a window is the same additive mask, every pair still scored), softmax (in fp32 and
// back for 16-bit rotary models), A·V, the output laid back. Decode's keys and values are the cache's (a
// preallocated [B, g, S, d_h] buffer, a windowed layer's the last W: no copy but repeat_kv's for
// grouped-query attention).
void InferenceOpsBuilder::eagerAttention(double L, double window) {
    const ModelSpec& md = m_in.model;
    const bool latent = isLatentAttention(md);
    const double N = m_in.gpus, B = m_in.batch, a = md.heads / N, g = latent ? a : kvHeadCount(md) / N,
                 dh = queryKeyHeadWidth(md), dv = valueHeadWidth(md), e = m_e;
    const bool rope = md.position == PositionKind::rope || latent, prefill = !decode();
    const double q = prefill ? prompt() : 1;
    const double keys = prefill ? q : decodeKeys(window), T = B * q;
    if (prefill && !rope)
        memory("q, k, v laid out per head (copies)", T * (a + g) * dh + T * g * dv, 2 * e, 3, L);
    else if (prefill && g == a)
        memory("v laid out per head (copy)", T * g * dv, 2 * e, 1, L);
    if (g < a) // k and v copied to every query head
        memory("repeat_kv (k and v copied to every query head)", B * keys * a * (dh + dv), e + e * g / a, 2,
               L);
    const double Sc = B * a * q * keys; // score elements
    batched("attention scores QKᵀ", q, keys, dh, B * a, B * a * (q * dh + dh * keys + q * keys) * e, L);
    memory("scores × 1/√d_h", Sc, 2 * e, 1, L);
    if (prefill)
        memory(rope ? "causal mask (add)" : "causal mask (masked_fill)", Sc, 2 * e, 1, L);
    if (rope && e < 4)
        memory("softmax in fp32, cast back", Sc, (e + 4) + (4 + e), 2, L);
    else
        memory("softmax", Sc, 2 * e, 1, L);
    batched("attention A·V", q, dv, keys, B * a, B * a * (q * keys + keys * dv + q * dv) * e, L);
    memory("attention output laid out (transpose, contiguous)", T * a * dv, 2 * e, 1, L);
}

// GELU reads and writes [T, f]; SwiGLU's SiLU and the gate's product.
void InferenceOpsBuilder::mlp(const std::string& prefix, double f, double count) {
    const double T = tokens(), d = m_in.model.dModel, w = layerWeightBytes();
    const bool plain = prefix == "mlp";
    if (isGatedMlp(m_in.model)) {
        gemm(prefix + " gate projection", T, f, d, count, w);
        gemm(prefix + " up projection", T, f, d, count, w);
        memory(plain ? "SiLU" : prefix + " SiLU", T * f, 2 * m_e, 1, count);
        memory(plain ? "gate × up" : prefix + " gate × up", T * f, 3 * m_e, 1, count);
    } else {
        gemm(prefix + " up projection", T, f, d, count, w);
        memory(plain ? "GELU" : prefix + " GELU", T * f, 2 * m_e, 1, count);
    }
    gemm(prefix + " down projection", T, d, f, count, w);
}

void InferenceOpsBuilder::notes() {
    auto& notes = m_list.notModelled;
    notes.emplace_back("bias adds (fused into the GEMMs or too small to count) and the norms' own weights");
    notes.emplace_back("sampling the next token from the logits (softmax, top-k or argmax over the "
                       "vocabulary)");
    if (m_in.weights != WeightFormat::bf16 && m_in.weights != WeightFormat::fp16 &&
        m_in.weights != WeightFormat::fp32 && weightComputeType(m_in.weights) == ComputeType::bf16)
        notes.emplace_back(
            std::string(weightFormatName(m_in.weights)) +
            " weights: their bytes are read in the serving format, their dequantization to bf16 "
            "inside the GEMM is not timed");
}

StorageType inferenceActivationType(WeightFormat weights) {
    switch (weights) {
    case WeightFormat::fp32:
        return StorageType::fp32;
    case WeightFormat::fp16:
        return StorageType::fp16;
    default:
        return StorageType::bf16;
    }
}

StepOpList inferenceOps(const InferenceInput& in, InferencePass pass) {
    StepOpList list;
    list.dtype = weightComputeType(in.weights);
    list.activations = inferenceActivationType(in.weights);
    list.whyNot = transformerNotModelled(in.model);
    if (!list.whyNot.empty())
        return list;
    InferenceOpsBuilder(in, pass, list).build();
    return list;
}

} // namespace napkin

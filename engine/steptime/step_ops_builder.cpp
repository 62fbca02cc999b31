// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/step_ops_builder.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <utility>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

std::string gemmShape(double m, double n_, double k, double batch) {
    return (batch != 1 ? n(batch) + " × " : std::string()) + "[" + n(m) + "×" + n(k) + "]·[" + n(k) + "×" +
           n(n_) + "]";
}

// Bytes per element one update reads and writes, and the ops it dispatches per parameter tensor, as
// torch 1.13's single-tensor optimizers run them (torch/optim/adamw.py, adam.py, sgd.py, adagrad.py,
// rmsprop.py; foreach runs the same passes over lists): AdamW param.mul_(1 − lr·wd) 2, exp_avg.mul_ 2
// and .add_ 3, exp_avg_sq.mul_ 2 and .addcmul_ 3, sqrt 2, div 2, add_ 2, param.addcdiv_ 4 = 22 accesses
// in 9 ops; Adam without weight decay 20 in 8; SGD param.add_ 3 in 1; momentum buf.mul_ 2, .add_ 3,
// param.add_ 3 = 8 in 3; AdaGrad addcmul_ 3, sqrt 2, add_ 2, addcdiv_ 4 = 11 in 4; RMSProp mul_ 2,
// addcmul_ 3, sqrt 2, add_ 2, addcdiv_ 4 = 13 in 5.
std::pair<double, double> updateAccesses(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::adamw:
        return {22, 9};
    case OptimizerKind::adam:
        return {20, 8};
    case OptimizerKind::sgd:
        return {3, 1};
    case OptimizerKind::momentum:
        return {8, 3};
    case OptimizerKind::adagrad:
        return {11, 4};
    case OptimizerKind::rmsprop:
        return {13, 5};
    }
    return {22, 9};
}

} // namespace

StepOpsBuilder::StepOpsBuilder(const AccountingInput& input, const AccountingResult& result, StepOpList& list,
                               PipelineStage stage)
    : m_in(input)
    , m_r(result)
    , m_list(list)
    , m_activationBytes(bytesPerElement(result.precision.activations))
    , m_stage(stage) {}

void StepOpsBuilder::push(StepOp op) {
    if (op.count > 0)
        m_list.ops.push_back(std::move(op));
}

void StepOpsBuilder::gemm(const std::string& name, double m, double n_, double k, double batch, double count,
                          bool recompute, bool inputGradient) {
    const double e = m_activationBytes, flops = 2 * batch * m * n_ * k;
    const bool texts = formulasWanted(); // a search's probe (formula_text.h) needs no shape text
    const std::string shape = texts ? gemmShape(m, n_, k, batch) : std::string();
    // Reads A and B, writes C: batch·(m·k + k·n + m·n) elements.
    const double bytes = batch * (m * k + k * n_ + m * n_) * e;
    push({name, StepTimePhase::forward, true, m, n_, k, batch, flops, bytes, 1, count, shape});
    const double backwardGemms = inputGradient ? 2 : 1;
    push({texts ? name + (inputGradient ? " (input and weight gradients)" : " (weight gradient)")
                : std::string(),
          StepTimePhase::backward, true, m, n_, k, batch, backwardGemms * flops, backwardGemms * bytes,
          backwardGemms, count, shape, inputGradient});
    if (recompute)
        push({name, StepTimePhase::recompute, true, m, n_, k, batch, flops, bytes, 1, count, shape});
}

void StepOpsBuilder::memory(const std::string& name, double elements, double forwardBytesPerElement,
                            double forwardOps, double backwardBytesPerElement, double backwardOps,
                            double count, bool recompute) {
    const bool texts = formulasWanted(); // a search's probe (formula_text.h) needs no shape text
    auto shape = [&](double perElement) {
        return texts ? n(elements) + " elements × " + n(perElement) + " B" : std::string();
    };
    push({name, StepTimePhase::forward, false, 0, 0, 0, 1, 0, elements * forwardBytesPerElement, forwardOps,
          count, shape(forwardBytesPerElement)});
    if (backwardOps > 0)
        push({name, StepTimePhase::backward, false, 0, 0, 0, 1, 0, elements * backwardBytesPerElement,
              backwardOps, count, shape(backwardBytesPerElement)});
    if (recompute)
        push({name, StepTimePhase::recompute, false, 0, 0, 0, 1, 0, elements * forwardBytesPerElement,
              forwardOps, count, shape(forwardBytesPerElement)});
}

void StepOpsBuilder::addTransformer() {
    const ModelSpec& md = m_in.model;
    const ParallelLayout& l = m_in.parallel;
    const double e = m_activationBytes, tp = l.tp, b = m_in.batch, s = md.seq, d = md.dModel;
    const double T = b * s / l.cp;             // tokens per GPU per micro-batch
    const double Td = T * d / (l.sp ? tp : 1); // a [T, d] activation's elements on this GPU
    const double f = ffnWidth(md) / tp;        // the MLP's width on this GPU
    const double a = md.heads / tp, g = kvHeadCount(md) / tp, dh = queryKeyHeadWidth(md),
                 dv = valueHeadWidth(md);
    const double layers = stageLayers(l, md.layers, m_stage) * l.microbatches; // layer passes per step here
    const bool full = m_in.recompute == Recompute::full;
    const bool rms = md.norm == NormKind::rmsnorm, dropout = md.dropout;
    // LayerNorm: one kernel, reads x and writes y forward; backward reads the gradient and x, writes the
    // input's gradient. Hugging Face's eager RMSNorm (the statistics in fp32): casts, pow, mean, rsqrt, two
    // products; its backward about twice the forward's traffic (approximate: autograd's ops per pass).
    const double norms = normsPerLayer(md);
    if (rms)
        rmsNorm("RMSNorm", Td, norms * layers, full);
    else
        memory("LayerNorm", Td, 2 * e, 1, 3 * e, 1, norms * layers, full);

    // Projections. nanoGPT fuses q, k and v in one c_attn; Hugging Face's Llama has three.
    if (isLatentAttention(md)) {
        addLatentProjections(T, layers, full);
    } else if (md.position == PositionKind::rope) {
        gemm("q projection", T, a * dh, d, 1, layers, full);
        gemm("k projection", T, g * dh, d, 1, layers, full);
        gemm("v projection", T, g * dv, d, 1, layers, full);
    } else {
        gemm("qkv projection", T, (a + 2 * g) * dh, d, 1, layers, full);
    }
    // Windowed layers (a share of every stage's, as the memory accounting spreads them) score fewer pairs
    // under flash attention; eager attention computes every pair and masks, windowed or not.
    const double windowedShare = md.slidingWindow > 0 && md.attentionImpl == AttentionImpl::flash
                                     ? windowedLayerCount(md) / md.layers
                                     : 0.0;
    if (windowedShare < 1)
        addAttention(layers * (1 - windowedShare), full);
    if (windowedShare > 0)
        addAttention(layers * windowedShare, full, md.slidingWindow);
    gemm("attention output projection", T, d, a * dv, 1, layers, full);
    if (dropout)
        memory("dropout (attention output)", Td, 2 * e + 1, 1, 2 * e + 1, 1, layers, full);
    memory("residual add", Td, 3 * e, 1, 3 * e, 1, 2 * layers, full);

    if (isMixtureOfExperts(md))
        addExperts(layers, full);
    else
        addMlp("mlp", T, f, layers, full);
    if (dropout)
        memory("dropout (mlp output)", Td, 2 * e + 1, 1, 2 * e + 1, 1, layers, full);
    if (l.pp == 1 || m_stage == PipelineStage::first)
        addEmbeddings();
    if (l.pp == 1 || m_stage == PipelineStage::last)
        addHeadAndLoss();
    if (md.attentionImpl == AttentionImpl::eager)
        m_list.notModelled.emplace_back(
            "eager attention's masked half: the op list runs QKᵀ and A·V over the full s×s as PyTorch does, "
            "while MFU counts the causal half");
    m_list.notModelled.emplace_back(
        "bias adds and bias gradients (fused into the GEMMs or too small to count)");
    if (rms)
        m_list.notModelled.emplace_back(
            "RMSNorm's backward traffic is taken as twice its forward's (approximate)");
    if (dropout)
        m_list.notModelled.emplace_back(
            "dropout as the fused GPU kernel (reads x, writes y and a 1-byte mask); torch's CPU dropout "
            "makes a mask in the input's dtype and runs three ops");
}

// Casts in and out when the activations are narrower than fp32, pow, mean, rsqrt and two products forward;
// its backward about twice the forward's traffic (approximate: autograd's ops per pass).
void StepOpsBuilder::rmsNorm(const std::string& name, double elements, double count, bool recompute) {
    const double e = m_activationBytes, castIn = e < 4 ? (e + 4) + (4 + e) : 0;
    const double bytes = castIn + 8 + 4 + 8 + 2 * e, ops = e < 4 ? 8 : 6;
    memory(name, elements, bytes, ops, 2 * bytes, 2 * ops, count, recompute);
}

// MLP: GELU reads and writes [T, f]; SwiGLU's silu and the gate's product, whose backward reads the
// gradient and both inputs and writes both gradients.
void StepOpsBuilder::addMlp(const std::string& prefix, double T, double f, double count, bool full) {
    const double e = m_activationBytes, d = m_in.model.dModel;
    if (isGatedMlp(m_in.model)) {
        gemm(prefix + " gate projection", T, f, d, 1, count, full);
        gemm(prefix + " up projection", T, f, d, 1, count, full);
        memory(prefix == "mlp" ? "SiLU" : prefix + " SiLU", T * f, 2 * e, 1, 3 * e, 1, count, full);
        memory(prefix == "mlp" ? "gate × up" : prefix + " gate × up", T * f, 3 * e, 1, 5 * e, 2, count, full);
        gemm(prefix + " down projection", T, d, f, 1, count, full);
    } else {
        gemm(prefix + " up projection", T, f, d, 1, count, full);
        memory(prefix == "mlp" ? "GELU" : prefix + " GELU", T * f, 2 * e, 1, 3 * e, 1, count, full);
        gemm(prefix + " down projection", T, d, f, 1, count, full);
    }
}

void StepOpsBuilder::addAttention(double count, bool recomputeLayer, double window) {
    const ModelSpec& md = m_in.model;
    const ParallelLayout& l = m_in.parallel;
    const double e = m_activationBytes, tp = l.tp, b = m_in.batch, s = md.seq;
    const double q = s / l.cp, T = b * q;
    // Latent attention's keys and values come up to every head (kv_b_proj); RoPE turns only the rope part
    // of the queries and the one key it shares between heads.
    const bool latent = isLatentAttention(md);
    const double a = md.heads / tp, g = latent ? a : kvHeadCount(md) / tp, dh = queryKeyHeadWidth(md),
                 dv = valueHeadWidth(md);
    const bool rope = md.position == PositionKind::rope || latent;
    const bool again = recomputeLayer || m_in.recompute == Recompute::selective;
    if (rope) { // q·cos + rotate_half(q)·sin: a product, a negation, a cat, a product and a sum per tensor
        memory("RoPE on q", T * a * (latent ? md.qkRopeHeadDim : dh), 10 * e, 5, 10 * e, 5, count,
               recomputeLayer);
        memory("RoPE on k", T * (latent ? md.qkRopeHeadDim : g * dh), 10 * e, 5, 10 * e, 5, count,
               recomputeLayer);
    }
    if (md.attentionImpl == AttentionImpl::flash) {
        // One kernel: reads q, k, v and writes the output; QKᵀ and A·V over the mask's pairs.
        const double pairs = scoredPairs(s, window, m_in.attention) / l.cp;
        const double keys = window > 0 ? std::min(window, s) : s; // the keys one query block reads
        const double flops = 2 * b * a * pairs * (dh + dv);
        const double bytes = T * ((a + 2 * g) * dh + a * dv) * e;
        const std::string name = window > 0 ? "flash attention (window " + n(window) + ")" : "flash attention";
        const std::string shape =
            "2·b·a·pairs·(d_qk + d_v) over " + n(b * a) + " heads × " + n(pairs) + " pairs";
        push({name, StepTimePhase::forward, true, q, keys, dh, b * a, flops, bytes, 1, count, shape});
        // Backward: dQ, dK, dV (2 × forward) and QKᵀ again (Dao et al. 2022, algorithm 4); reads q, k, v,
        // the output and its gradient, writes three gradients.
        push({name, StepTimePhase::backward, true, q, keys, dh, b * a, 2 * flops, 2 * bytes, 2, count, shape});
        push({name + ": QKᵀ again in the backward", StepTimePhase::recompute, true, q, keys, dh, b * a,
              2 * b * a * pairs * dh, 0, 0, count, shape});
        if (recomputeLayer)
            push({name, StepTimePhase::recompute, true, q, keys, dh, b * a, flops, bytes, 1, count, shape});
        return;
    }
    // Eager: torch.matmul folds (b, a) into one bmm and copies a non-contiguous operand first: nanoGPT's
    // q, k and v (views of c_attn's output); Llama's v, or k and v repeated for grouped-query attention.
    const double nq = T * a * dh, nkv = T * g * dh;
    if (!rope)
        memory("q, k, v laid out per head (copies)", nq + nkv + T * g * dv, 2 * e, 3, 2 * e, 3, count,
               recomputeLayer);
    else if (g == a)
        memory("v laid out per head (copy)", T * g * dv, 2 * e, 1, 2 * e, 1, count, recomputeLayer);
    else
        memory("repeat_kv (k and v copied to every query head)", nkv * (a / g) + T * a * dv, e + e * g / a, 2,
               e + e * g / a, 2, count, recomputeLayer);
    const double S = b * a * q * s; // score elements on this GPU
    gemm("attention scores QKᵀ", q, s, dh, b * a, count, again);
    memory("scores × 1/√d_h", S, 2 * e, 1, 2 * e, 1, count, again);
    if (rope) { // the additive causal mask, then softmax in fp32 and back (Hugging Face's eager path)
        memory("causal mask (add)", S, 2 * e, 1, 0, 0, count, again);
        if (e < 4)
            memory("softmax in fp32, cast back", S, (e + 4) + (4 + e), 2, (e + 4) + 12 + (4 + e), 3, count,
                   again);
        else
            memory("softmax", S, 8, 1, 12, 1, count, again);
    } else {
        if (m_in.attention == AttentionMask::causal)
            memory("causal mask (masked_fill)", S, 2 * e, 1, 2 * e, 1, count, again);
        memory("softmax", S, 2 * e, 1, 3 * e, 1, count, again);
        if (md.dropout)
            memory("dropout (attention probabilities)", S, 2 * e + 1, 1, 2 * e + 1, 1, count, again);
    }
    gemm("attention A·V", q, dv, s, b * a, count, again);
    memory("attention output laid out (transpose, contiguous)", T * a * dv, 2 * e, 1, 2 * e, 1, count,
           recomputeLayer);
}

void StepOpsBuilder::addEmbeddings() {
    const ModelSpec& md = m_in.model;
    const double e = m_activationBytes, eg = bytesPerElement(m_r.precision.gradients);
    const double T = m_in.batch * md.seq / m_in.parallel.cp, d = md.dModel;
    const double count = m_in.parallel.microbatches;
    const double V = md.vocab / m_in.parallel.tp;
    // Forward gathers T rows; backward zeroes a V×d gradient and adds T rows into it.
    memory("token embedding", T * d, 2 * e, 1, 0, 0, count, false);
    push({"token embedding", StepTimePhase::backward, false, 0, 0, 0, 1, 0, (V * d + 2 * T * d) * eg, 2,
          count, n(V) + "×" + n(d) + " zeroed + " + n(T) + " rows added"});
    if (md.position == PositionKind::learned) {
        memory("position embedding + add", T * d, 5 * e, 2, 3 * e, 2, count, false);
    }
    if (md.dropout)
        memory("dropout (embeddings)", T * d, 2 * e + 1, 1, 2 * e + 1, 1, count, false);
}

void StepOpsBuilder::addHeadAndLoss() {
    const ModelSpec& md = m_in.model;
    const double e = m_activationBytes, T = m_in.batch * md.seq / m_in.parallel.cp, d = md.dModel;
    const double count = m_in.parallel.microbatches, V = md.vocab / m_in.parallel.tp;
    const double Td = T * d / (m_in.parallel.sp ? m_in.parallel.tp : 1);
    if (md.norm == NormKind::rmsnorm) {
        rmsNorm("final RMSNorm", Td, count, false);
    } else {
        memory("final LayerNorm", Td, 2 * e, 1, 3 * e, 1, count, false);
    }
    gemm("output head", T, V, d, 1, count, false);
    // Cross-entropy over T·V logits: log_softmax reads and writes them, its backward reads the gradient
    // and the output and writes the input's gradient, after nll_loss's backward writes a T×V gradient.
    // Hugging Face's Llama upcasts the logits to fp32 first.
    const bool upcast = md.position == PositionKind::rope && e < 4;
    const double el = upcast ? 4 : e;
    if (upcast)
        memory("logits to fp32", T * V, e + 4, 1, 4 + e, 1, count, false);
    memory("cross-entropy", T * V, 2 * el, 2, 4 * el, 2, count, false);
}

void StepOpsBuilder::addDense() {
    const ModelSpec& md = m_in.model;
    const double T = tokensPerStep(md, m_in.batch) / m_in.parallel.tp / m_in.parallel.pp;
    const double e = m_activationBytes;
    const double flops = 2 * T * md.parameters,
                 bytes = md.parameters * bytesPerElement(m_r.precision.parameters);
    const double count = m_in.parallel.microbatches;
    const std::string shape = "2·T·N = 2 × " + n(T) + " × " + n(md.parameters) + ", shape not known";
    push(
        {"model GEMMs", StepTimePhase::forward, true, 0, 0, 0, 1, flops, bytes + 2 * T * e, 1, count, shape});
    push({"model GEMMs", StepTimePhase::backward, true, 0, 0, 0, 1, 2 * flops, 2 * bytes + 4 * T * e, 2,
          count, shape});
    m_list.notModelled.emplace_back(
        "a bare parameter count has no shapes: its GEMMs run at the profile's best measured rate, and its "
        "memory-bound ops (norms, activations, loss) are not counted");
}

void StepOpsBuilder::addLinearStack() {
    const ModelSpec& md = m_in.model;
    const double B = tokensPerStep(md, m_in.batch), D = md.dim, e = m_activationBytes;
    const double count = m_in.parallel.microbatches;
    const double out = md.kind == ModelKind::cruncher ? 1 : md.out;
    // The input needs no gradient: the first layer's backward computes the weight's alone.
    gemm("layer 1", B, D, D, 1, count, false, false);
    if (md.kind == ModelKind::cruncher && md.layers > 1)
        gemm("layers 2–" + n(md.layers), B, D, D, 1, (md.layers - 1) * count, false);
    gemm(md.kind == ModelKind::cruncher ? "head" : "layer 2", B, out, D, 1, count, false);
    memory("loss", B * out, 3 * e, 3, 3 * e, 3, count, false);
}

double StepOpsBuilder::parameterTensorsOnGpu() const {
    const ModelSpec& md = m_in.model;
    switch (md.kind) {
    case ModelKind::dense:
        return 1;
    case ModelKind::cruncher:
        return md.layers + 1;
    case ModelKind::linear2:
        return 2;
    case ModelKind::transformer:
        break;
    }
    const bool rope = md.position == PositionKind::rope;
    const double normTensors = hasNormBias(md) ? 2 : 1;
    const double attention =
        (rope ? 4 : 2) + (hasQkvBias(md) ? (rope ? 3 : 1) : 0) + (hasOutBias(md) ? 1 : 0);
    const double mlpMatrices = isGatedMlp(md) ? 3 : 2;
    const double perLayer =
        normsPerLayer(md) * normTensors + attention + mlpMatrices * (hasMlpBias(md) ? 2 : 1);
    const double rest = 1 + (md.position == PositionKind::learned ? 1 : 0) + normTensors +
                        (md.embeddings == EmbeddingTying::untied ? 1 : 0);
    return stageLayers(m_in.parallel, md.layers, m_stage) * perLayer + rest;
}

void StepOpsBuilder::addOptimizer() {
    const PrecisionLedger& p = m_r.precision;
    const double es = bytesPerElement(p.optimizerState), eg = bytesPerElement(p.gradients),
                 ep = bytesPerElement(p.parameters);
    const int stateTensors = stateTensorsPerParameter(m_in.optimizer);
    // The elements this GPU updates: its optimizer state's (sharded by ZeRO), or its gradients' for SGD.
    const double elements = stateTensors > 0 ? m_r.memory.optimizerState.value / (stateTensors * es)
                                             : m_r.memory.gradients.value / eg;
    const auto [accesses, opsPerTensor] = updateAccesses(m_in.optimizer);
    const double master = p.masterWeights != StorageType::none ? (eg + 4) + (4 + ep) : 0; // cast in, copy out
    const double updateBytesPerElement = accesses * (p.masterWeights != StorageType::none ? 4 : es) + master;
    const double tensors = parameterTensorsOnGpu();
    double ops = opsPerTensor * tensors;
    if (m_in.optimizerImplementation == OptimizerImplementation::forEach)
        ops = opsPerTensor;
    else if (m_in.optimizerImplementation == OptimizerImplementation::fused)
        ops = 1;
    StepOp update{std::string(optimizerName(m_in.optimizer)) + " update",
                  StepTimePhase::optimizer,
                  false,
                  0,
                  0,
                  0,
                  1,
                  0,
                  elements * updateBytesPerElement,
                  ops,
                  1,
                  n(elements) + " elements × " + n(updateBytesPerElement) + " B (" + n(accesses) +
                      " accesses)"};
    update.optimizerUpdate = true;
    push(std::move(update));
    m_list.optimizer = m_in.optimizer;
    m_list.optimizerImplementation = m_in.optimizerImplementation;
    m_list.updateDtype = p.masterWeights != StorageType::none    ? StorageType::fp32
                         : p.optimizerState != StorageType::none ? p.optimizerState
                                                                 : p.parameters;
    m_list.updateElements = elements;
    // Micro-batches after the first add their weight gradients into .grad: reads both, writes one.
    const double gradients = m_r.memory.gradients.value / eg;
    if (m_in.parallel.microbatches > 1)
        push({"gradient accumulation", StepTimePhase::backward, false, 0, 0, 0, 1, 0, gradients * 3 * eg,
              tensors, m_in.parallel.microbatches - 1, n(gradients) + " elements × " + n(3 * eg) + " B"});
}

} // namespace napkin

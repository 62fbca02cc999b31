// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/inference/inference_accounting.h"

#include "engine/accounting/accounting.h"
#include "engine/inference/inference_knobs.h"
#include "engine/inference/inference_overheads.h"
#include "engine/models/parameter_count.h"
#include "engine/accounting/parameter_sharding.h"
#include "engine/models/transformer_parameters.h"
#include "engine/hardware/gpu_capabilities.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}
std::string x(double v) {
    return formatExact(v);
}

bool isWhole(double v) {
    return std::isfinite(v) && std::floor(v) == v;
}

InputError requireWhole(const char* field, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi) || !isWhole(v))
        return {field, "must be a whole number from " + n(lo) + " to " + n(hi) + ", got " + n(v)};
    return {};
}

// The sizes every formula below uses, named as in the docs.
struct Shape {
    double L, d, a, g, hd, f, V, E, K, mlpMatrices;
};

Shape shapeOf(const ModelSpec& m) {
    const double mlpOutputs = isGatedMlp(m) ? 2 : 1; // SwiGLU, GeGLU: gate and up
    return {m.layers,    m.dModel, m.heads,   kvHeadCount(m), m.dModel / m.heads,
            ffnWidth(m), m.vocab,  m.experts, m.topK,         mlpOutputs};
}

// Cached tokens per sequence summed over the layers at context S: every layer S, a windowed layer at
// most W (its cache is a rolling buffer of the last W tokens).
double cachedLayerTokens(const ModelSpec& m, double S) {
    const double Lw = windowedLayerCount(m);
    return (m.layers - Lw) * S + Lw * std::min(S, m.slidingWindow);
}

double promptOf(const InferenceInput& in) {
    return in.prompt ? *in.prompt : in.context;
}

// Bytes of one quantized weight (scales included) and of one other parameter.
double quantizedBytes(const InferenceInput& in) {
    return weightFormatBytes(in.weights, in.groupSize);
}
double otherBytes(const InferenceInput& in) {
    return in.weights == WeightFormat::fp32 ? 4 : 2;
}
std::string quantizedBytesText(const InferenceInput& in) {
    return weightFormatBytesText(in.weights, in.groupSize);
}

// Activation bytes per prefill token on one GPU: the hidden state (d) and one MLP's widest output
// (f, or gate and up 2·f for SwiGLU, split by tp) at 2 bytes (4 under fp32); flash attention assumed.
double activationBytesPerToken(const InferenceInput& in, const Shape& s) {
    return otherBytes(in) * (s.d + s.mlpMatrices * s.f / in.gpus);
}
// Logits of each sequence's last position, fp32: 4·V per sequence.
double logitBytesPerSequence(const Shape& s) {
    return 4 * s.V;
}

void accountMemory(const InferenceInput& in, const GpuSpec& gpu, const Shape& s, InferenceResult& r) {
    const double N = in.gpus, B = in.batch, S = in.context, P = promptOf(in);
    const double actToken = activationBytesPerToken(in, s);
    // Megatron-LM's placement (parameter_sharding.h): the matrices and the vocabulary split by N, the
    // norms and row-parallel biases on every GPU.
    ParallelLayout layout;
    layout.tp = N;
    const double onGpu = parametersOnGpu(in.model, layout, PipelineStage::first).total();
    const double quantized = r.quantizedParameters / N;
    const double weights = quantized * quantizedBytes(in) + (onGpu - quantized) * otherBytes(in);
    r.memory.weights = {weights, "Q/N·" + quantizedBytesText(in) + " + (on_gpu − Q/N)·" + n(otherBytes(in)) +
                                     " = " + x(quantized) + " × " + quantizedBytesText(in) + " + " +
                                     x(onGpu - quantized) + " × " + n(otherBytes(in)) + " = " + x(weights) +
                                     " B"};
    r.memory.kvCache = {r.kvCacheBytes.value / N, "B·S·kv_per_token / N = " + n(B) + " × " + n(S) + " × " +
                                                      x(r.kvCacheBytesPerToken.value) + " / " + n(N) + " = " +
                                                      x(r.kvCacheBytes.value / N) + " B"};
    const double windowed = windowedLayerCount(in.model);
    if (windowed > 0 && S > in.model.slidingWindow)
        r.memory.kvCache.formula = "kv_cache_bytes / N (windowed layers capped at W) = " +
                                   x(r.kvCacheBytes.value) + " / " + n(N) + " = " +
                                   x(r.kvCacheBytes.value / N) + " B";
    const double act = B * (P * actToken + logitBytesPerSequence(s));
    r.memory.activations = {act, "B·(P·" + n(otherBytes(in)) + "·(d + " + n(s.mlpMatrices) +
                                     "·f/N) + 4·V) = " + n(B) + " × (" + n(P) + " × " + n(actToken) + " + " +
                                     n(logitBytesPerSequence(s)) + ") = " + x(act) + " B"};
    const double total = r.memory.weights.value + r.memory.kvCache.value + act;
    r.memory.total = {total, "weights + kv_cache + activations = " + x(r.memory.weights.value) + " + " +
                                 x(r.memory.kvCache.value) + " + " + x(act) + " = " + x(total) + " B"};
    r.capacityBytes = {gpu.memoryBytes, gpu.id + " memory = " + n(gpu.memoryBytes) + " B (" +
                                            formatBytes(gpu.memoryBytes) + ")"};
    // Judged as training is: the tensors' total plus the counted overheads against the usable memory.
    r.overheads = inferenceOverheads(in, gpu, total);
    const bool datasheet = r.overheads.basis == MemoryBasis::datasheet;
    r.usableBytes = {r.overheads.usableBytes, r.overheads.usableSource};
    const double predicted = total + r.overheads.totalBytes;
    r.predictedBytes = {predicted, "total + overheads = " + n(total) + " + " + n(r.overheads.totalBytes) +
                                       " = " + n(predicted) + " B"};
    r.fits = predicted <= r.usableBytes.value;
    r.fitsFormula = "total " + n(total) + " B" +
                    (datasheet ? "" : " + overheads " + n(r.overheads.totalBytes) + " B = " + n(predicted) + " B") +
                    (r.fits ? " ≤ " : " > ") + n(r.usableBytes.value) + " B" +
                    (datasheet ? " (datasheet)" : " usable");

    // M: the room for weights, cache and activations once the fixed overheads are out and the
    // fragmentation allowance is on what is left.
    const double M = modelStateBudgetBytes(r.overheads, in.overheads.fragmentation);
    const double free = M - r.memory.weights.value;
    const double kvToken = r.kvCacheBytesPerToken.value / N;
    const double kvSequence = r.kvCacheBytes.value / (B * N); // S·kv_per_token/N, windows capped
    const double perSequence = kvSequence + P * actToken + logitBytesPerSequence(s);
    const double maxBatch = std::max(0.0, std::floor(free / perSequence));
    const std::string budget =
        datasheet ? "M = " + n(M) + " B (datasheet)"
                  : "M = (usable − fixed overheads) / (1 + fragmentation) = (" + n(r.usableBytes.value) + " − " +
                        n(r.overheads.fixedBytes) + ") / " + n(1 + in.overheads.fragmentation) + " = " + n(M) + " B";
    r.maxBatch = {maxBatch,
                  "floor((M − weights_per_gpu) / (S·kv_per_token/N + P·act_per_token + 4·V)) = floor(" +
                      n(free) + " / " + n(perSequence) + ") = " + n(maxBatch) + "; " + budget};
    // With --prompt given the prompt stays P; otherwise the whole context is the prompt and grows with it.
    const double perContextToken = in.prompt ? kvToken : kvToken + actToken;
    const double fixed = B * (logitBytesPerSequence(s) + (in.prompt ? P * actToken : 0));
    double maxContext = std::max(0.0, std::floor((free - fixed) / (B * perContextToken)));
    const double W = in.model.slidingWindow;
    if (windowed > 0 && maxContext > W) {
        // Past W the windowed layers' caches stop growing: only the global layers' share grows with S.
        const double windowedToken = kvToken * windowed / in.model.layers;
        const double growing = perContextToken - windowedToken;
        const double left = free - fixed - B * windowedToken * W;
        maxContext = growing > 0 ? std::max(W, std::floor(left / (B * growing))) : 1e8;
    }
    const bool capped = in.model.position == PositionKind::learned && maxContext > in.model.seq;
    if (capped)
        maxContext = in.model.seq; // learned positions stop at the table's length
    r.maxContext = {maxContext, std::string("floor((M − weights_per_gpu − B·") +
                                    (in.prompt ? "(P·act_per_token + 4·V)" : "4·V") +
                                    ") / (B·(kv_per_token/N" + (in.prompt ? "" : " + act_per_token") +
                                    "))) = floor(" + n(free - fixed) + " / " + n(B * perContextToken) + ")" +
                                    (capped ? ", capped at the learned position table's " : " = ") +
                                    n(maxContext) + "; " + budget};
}

// Weight bytes a pass over `tokens` tokens does not read: the experts no token routes to, and of the
// lookup tables (untied token embedding, learned positions) all but the `tokens` rows looked up.
double weightBytesNotRead(const InferenceInput& in, const TransformerParameters& p, double expertsRead,
                          double tokens) {
    const double r = otherBytes(in);
    const double unreadExperts =
        p.expertLayers() * (p.experts - expertsRead) *
        (p.expertWeights * quantizedBytes(in) + (p.expertInBiases + p.expertOutBias) * r);
    const double tokenTable = p.outputHead > 0 ? p.tokenEmbedding : 0; // tied: the head reads it whole
    double lookups = 0;
    for (const double table : {tokenTable, p.positionEmbedding})
        if (table > 0)
            lookups += table - std::min(table, tokens * in.model.dModel);
    return unreadExperts + lookups * r;
}

void accountTime(const InferenceInput& in, const GpuSpec& gpu, const Shape& s, const ParameterCount& count,
                 const TransformerParameters& p, InferenceResult& r) {
    const double N = in.gpus, B = in.batch, S = in.context, P = promptOf(in);
    const double Nmm = count.matmulParameters;
    const ComputeType compute = weightComputeType(in.weights);
    const EffectivePeak effective = effectiveDensePeak(gpu, compute);
    const double peak = effective.flopsPerSecond;
    const double bw = gpu.memoryBandwidthBytesPerSecond;
    r.peakFlopsPerSecond = {peak, gpu.id + " dense " + std::string(computeTypeName(compute)) +
                                      " peak = " + formatFlops(peak, true) +
                                      (effective.reason.empty() ? "" : " (" + effective.reason + ")")};
    r.bandwidthBytesPerSecond = {bw, gpu.id + " memory bandwidth = " + n(bw) + " B/s"};

    double prefill = B * (2 * Nmm * P + 2 * s.L * P * P * s.d);
    if (hasModernArchitecture(in.model)) { // scores over a·(d_qk + d_v), windowed layers capped at W
        const double width = s.a * (queryKeyHeadWidth(in.model) + valueHeadWidth(in.model));
        const double Lw = windowedLayerCount(in.model), W = in.model.slidingWindow;
        const double windowPairs = W > 0 && W < P ? P * W - W * W / 2 : P * P / 2;
        prefill = B * (2 * Nmm * P + 2 * width * ((s.L - Lw) * P * P / 2 + Lw * windowPairs));
    }
    r.prefillFlops = {prefill, "B·(2·N_matmul·P + 2·L·P²·d) (causal QKᵀ and A·V) = " + n(B) + " × (2 × " +
                                   x(Nmm) + " × " + n(P) + " + 2 × " + n(s.L) + " × " + n(P) + "² × " +
                                   n(s.d) + ") = " + n(prefill)};

    const double expertsRead = std::min(s.E, B * s.K);
    r.expertsReadPerStep = {expertsRead, "min(E, B·K) = min(" + n(s.E) + ", " + n(B) + " × " + n(s.K) +
                                             ") = " + n(expertsRead) + " (balanced routing)"};
    const double weightsRead = r.weightsBytes.value - weightBytesNotRead(in, p, expertsRead, B);
    const double prefillWeights =
        r.weightsBytes.value - weightBytesNotRead(in, p, std::min(s.E, B * P * s.K), B * P);
    r.prefillBytes = {prefillWeights, "weights_bytes − weights of experts no prefill token routes to = " +
                                          x(prefillWeights) + " B"};
    const double prefillSeconds = std::max(prefill / (N * peak), prefillWeights / (N * bw));
    r.prefillSeconds = {prefillSeconds, "max(prefill_flops/(N·peak), weights_read/(N·bandwidth)) = max(" +
                                            n(prefill / (N * peak)) + ", " + n(prefillWeights / (N * bw)) +
                                            ") = " + n(prefillSeconds) + " s"};

    double perToken = 2 * Nmm + 4 * s.L * S * s.d;
    r.decodeFlopsPerToken = {perToken, "2·N_matmul + 4·L·S·d = 2 × " + x(Nmm) + " + 4 × " + n(s.L) + " × " +
                                           n(S) + " × " + n(s.d) + " = " + n(perToken)};
    if (hasModernArchitecture(in.model)) {
        const double width = s.a * (queryKeyHeadWidth(in.model) + valueHeadWidth(in.model));
        const double keys = cachedLayerTokens(in.model, S);
        perToken = 2 * Nmm + 2 * width * keys;
        r.decodeFlopsPerToken = {perToken, "2·N_matmul + 2·a·(d_qk + d_v)·Σ_layers cached tokens = 2 × " +
                                               x(Nmm) + " + 2 × " + n(width) + " × " + n(keys) + " = " +
                                               n(perToken)};
    }
    const double stepFlops = B * perToken;
    r.decodeStepFlops = {stepFlops,
                         "B × decode_flops_per_token = " + n(B) + " × " + n(perToken) + " = " + n(stepFlops)};
    const double stepBytes = weightsRead + r.kvCacheBytes.value;
    r.decodeBytesPerToken = {stepBytes, "weights_read + B·S·kv_per_token = " + x(weightsRead) + " + " +
                                            x(r.kvCacheBytes.value) + " = " + x(stepBytes) + " B"};
    const double computeSeconds = stepFlops / (N * peak), memorySeconds = stepBytes / (N * bw);
    const double step = std::max(computeSeconds, memorySeconds);
    r.decodeSecondsPerToken = {step, "max(step_flops/(N·peak), step_bytes/(N·bandwidth)) = max(" +
                                         n(computeSeconds) + ", " + n(memorySeconds) + ") = " + n(step) +
                                         " s"};
    r.decodeTokensPerSecond = {B / step, "B / decode_seconds_per_token = " + n(B) + " / " + n(step) + " = " +
                                             n(B / step)};
    r.arithmeticIntensity = {stepFlops / stepBytes, "step_flops / step_bytes = " + n(stepFlops) + " / " +
                                                        n(stepBytes) + " = " + n(stepFlops / stepBytes)};
    r.ridgeFlopsPerByte = {peak / bw, "peak / bandwidth = " + n(peak) + " / " + n(bw) + " = " + n(peak / bw)};
    const double decodeRate = stepFlops / (N * step);
    r.decodeFlopsPerSecondPerGpu = {decodeRate, "step_flops / (N · decode_seconds_per_token) = " +
                                                    n(stepFlops) + " / (" + n(N) + " × " + n(step) +
                                                    ") = " + n(decodeRate)};
    r.prefillArithmeticIntensity = {prefill / prefillWeights, "prefill_flops / prefill_bytes = " + n(prefill) +
                                                                  " / " + n(prefillWeights) + " = " +
                                                                  n(prefill / prefillWeights)};
    const double prefillRate = prefill / (N * prefillSeconds);
    r.prefillFlopsPerSecondPerGpu = {prefillRate, "prefill_flops / (N · prefill_seconds) = " + n(prefill) +
                                                      " / (" + n(N) + " × " + n(prefillSeconds) + ") = " +
                                                      n(prefillRate)};
    r.bound = computeSeconds > memorySeconds ? "compute" : "memory";
}

constexpr StorageType kKvCacheTypes[] = {StorageType::fp32, StorageType::bf16, StorageType::fp16,
                                         StorageType::fp8};

} // namespace

std::span<const StorageType> kvCacheTypes() {
    return kKvCacheTypes;
}

InputError validateInference(const InferenceInput& in, const GpuCatalog& catalog) {
    if (in.model.kind != ModelKind::transformer)
        return {"model", "inference is accounted for transformers only, got " +
                             std::string(modelKindName(in.model.kind))};
    const auto knob = [&in](std::string_view key) { return checkInferenceKnob(inferenceKnob(key), in); };
    if (InputError price = knob("price_per_gpu_hour"); !price.ok())
        return price;
    AccountingInput training;
    training.model = in.model;
    training.gpu = in.gpu;
    InputError e = validate(training, catalog);
    if (!e.ok())
        return e;
    if (!(e = knob("batch")).ok() || !(e = knob("context")).ok())
        return e;
    if (in.model.position == PositionKind::learned && in.context > in.model.seq)
        return {"context", "learned positions stop at --seq " + n(in.model.seq) + ", got " + n(in.context)};
    if (in.prompt && !(e = requireWhole("prompt", *in.prompt, 1, in.context)).ok())
        return e;
    if (hasGroupScales(in.weights) && (!(e = knob("group_size")).ok() ||
                                       std::fmod(in.model.dModel, in.groupSize) != 0))
        return e.ok() ? InputError{"group-size",
                                   "must divide d-model (" + n(in.model.dModel) + "), got " + n(in.groupSize)}
                      : e;
    if (!(e = knob("gpus")).ok())
        return e;
    if (std::fmod(in.model.heads, in.gpus) != 0 || std::fmod(kvHeadCount(in.model), in.gpus) != 0)
        return {"gpus", "tensor parallelism over " + n(in.gpus) + " GPUs must divide heads (" +
                            n(in.model.heads) + ") and kv-heads (" + n(kvHeadCount(in.model)) + ")"};
    if (std::find(std::begin(kKvCacheTypes), std::end(kKvCacheTypes), in.kvCache) == std::end(kKvCacheTypes))
        return {"kv-cache", "must be fp32, bf16, fp16 or fp8"};
    const GpuSpec* gpu = catalog.find(in.gpu);
    const ComputeType compute = weightComputeType(in.weights);
    if (const EffectivePeak peak = effectiveDensePeak(*gpu, compute); peak.refused)
        return {"weights", std::string(weightFormatName(in.weights)) + " computes in " +
                               std::string(computeTypeName(compute)) + ": " + peak.reason};
    if (gpu->memoryBandwidthBytesPerSecond <= 0)
        return {"weights", "the " + gpu->id + " has no memory bandwidth in the catalog"};
    return validateOverheads(in.overheads);
}

InferenceResult accountInference(const InferenceInput& in, const GpuSpec& gpu) {
    InferenceResult r;
    const Shape s = shapeOf(in.model);
    const ParameterCount count = countParameters(in.model);
    const TransformerParameters p = transformerParameters(in.model);
    r.parameters = count.total;
    // The layers' matmul weights: attention in every layer; the routed and shared experts in the MoE
    // layers; the dense MLP in the dense-first layers (DeepSeek-V3's first 3 have no experts).
    r.quantizedParameters = p.layers * p.attentionWeights +
                            p.expertLayers() * (p.experts * p.expertWeights + p.sharedWeights) +
                            p.denseLayers * p.denseMlpWeights;
    if (in.expertsOnly && isMixtureOfExperts(in.model)) // gpt-oss's MXFP4: the routed experts' matrices alone
        r.quantizedParameters = p.expertLayers() * p.experts * p.expertWeights;
    r.otherParameters = count.total - r.quantizedParameters;
    const double weights = r.quantizedParameters * quantizedBytes(in) + r.otherParameters * otherBytes(in);
    r.weightsBytes = {weights, "Q·" + quantizedBytesText(in) + " + R·" + n(otherBytes(in)) + " = " +
                                   x(r.quantizedParameters) + " × " + quantizedBytesText(in) + " + " +
                                   x(r.otherParameters) + " × " + n(otherBytes(in)) + " = " + x(weights) +
                                   " B"};
    const double kvBytes = bytesPerElement(in.kvCache);
    double kvToken = 2 * s.L * s.g * s.hd * kvBytes;
    r.kvCacheBytesPerToken = {kvToken, "2·L·g·(d/a)·bytes = 2 × " + n(s.L) + " × " + n(s.g) + " × " +
                                           n(s.hd) + " × " + n(kvBytes) + " = " + x(kvToken) + " B"};
    if (isLatentAttention(in.model)) {
        kvToken = s.L * kvCacheElementsPerLayer(in.model) * kvBytes;
        r.kvCacheBytesPerToken = {kvToken, "L·(kv_lora_rank + qk_rope_head_dim)·bytes (MLA: the latent and the "
                                           "shared RoPE key) = " +
                                               n(s.L) + " × (" + n(in.model.kvLoraRank) + " + " +
                                               n(in.model.qkRopeHeadDim) + ") × " + n(kvBytes) + " = " +
                                               x(kvToken) + " B"};
    } else if (in.model.headDim > 0) {
        kvToken = s.L * kvCacheElementsPerLayer(in.model) * kvBytes;
        r.kvCacheBytesPerToken = {kvToken, "2·L·g·d_h·bytes = 2 × " + n(s.L) + " × " + n(s.g) + " × " +
                                               n(in.model.headDim) + " × " + n(kvBytes) + " = " + x(kvToken) +
                                               " B"};
    }
    double kv = in.batch * in.context * kvToken;
    r.kvCacheBytes = {kv, "B·S·kv_per_token = " + n(in.batch) + " × " + n(in.context) + " × " + x(kvToken) +
                              " = " + x(kv) + " B"};
    const double windowed = windowedLayerCount(in.model);
    if (windowed > 0 && in.context > in.model.slidingWindow) {
        const double layerTokens = cachedLayerTokens(in.model, in.context);
        kv = in.batch * layerTokens * kvToken / s.L;
        r.kvCacheBytes = {kv, "B·((L − L_w)·S + L_w·W)·kv_per_token/L (windowed layers keep the last W "
                              "tokens) = " +
                                  n(in.batch) + " × ((" + n(s.L - windowed) + ") × " + n(in.context) + " + " +
                                  n(windowed) + " × " + n(in.model.slidingWindow) + ") × " + x(kvToken) +
                                  " / " + n(s.L) + " = " + x(kv) + " B"};
    }
    accountMemory(in, gpu, s, r);
    accountTime(in, gpu, s, count, p, r);
    return r;
}

} // namespace napkin

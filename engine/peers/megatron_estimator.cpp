// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/megatron_estimator.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/peers/peer_terms.h"

#include <cmath>

namespace napkin {
namespace {

constexpr const char* memorySource = "NVIDIA/Megatron-LM megatron/training/theoretical_memory_usage.py "
                                     "(commit 00caa53): compute_weight_and_optimizer_memory, "
                                     "compute_activation_memory(_without_sp)";
constexpr const char* flopSource =
    "NVIDIA/Megatron-LM megatron/training/training.py (commit 001b00c): num_floating_point_operations";

std::string n(double v) {
    return formatNumber(v);
}

double napkinModelStates(const AccountingResult& r) {
    return r.memory.parameters.value + r.memory.gradients.value + r.memory.masterWeights.value +
           r.memory.optimizerState.value;
}

// What Megatron's parameter count leaves out or adds, against Napkin's count of the same model.
std::string parameterReasons(const AccountingInput& in, const AccountingResult& r, const MegatronArgs& a) {
    const ModelSpec& m = in.model;
    std::vector<std::string> why;
    if (hasQkvBias(m) || hasOutBias(m) || hasMlpBias(m))
        why.emplace_back("no linear biases (Megatron's count has matrices and norms only)");
    if (m.position == PositionKind::learned)
        why.emplace_back("no learned position table (" + n(m.seq) + "·" + n(m.dModel) + ")");
    if (a.paddedVocab != m.vocab)
        why.emplace_back("vocabulary padded from " + n(m.vocab) + " to " + n(a.paddedVocab) +
                         " (--make-vocab-size-divisible-by 128 × tp)");
    if (!a.rmsnorm && !hasNormBias(m))
        why.emplace_back("norm_size 2: a LayerNorm bias counted that this model does not have");
    if (in.parallel.pp > 1 && r.memoryStage)
        why.emplace_back(
            "Megatron's most loaded shard is the first stage with the embedding; Napkin's is the " +
            std::string(pipelineStageName(*r.memoryStage)) + " stage's");
    if (in.parallel.cp > 1 || in.parallel.ep > 1)
        why.emplace_back("no context or expert parallelism in the shard");
    return why.empty() ? "the same parameters on this GPU" : joinReasons(why);
}

PeerQuantity modelStates(const AccountingInput& in, const AccountingResult& r, const MegatronArgs& a) {
    PeerQuantity q;
    q.name = "weights and optimizer per GPU";
    q.unit = "bytes";
    const double shard = megatronMostLoadedShardParameters(a), bytes = megatronBytesPerParameter(a);
    q.peer = shard * bytes;
    q.peerFormula = "most loaded shard × " + std::string(a.distributedOptimizer ? "(6 + 12/dp)" : "18") +
                    " = " + formatExact(shard) + " × " + n(bytes) + " = " + n(q.peer) + " B";
    q.napkin = napkinModelStates(r);
    q.napkinMeaning = "memory_bytes: parameters + gradients + master_weights + optimizer_state";
    const double napkinShard = r.parametersOnGpu.value;
    const auto exact = [](double v) { return formatExact(v); };
    q.terms.push_back({"parameters on the GPU", shard * bytes, napkinShard * bytes,
                       exact(shard) + " (Megatron) against " + exact(napkinShard) +
                           " (Napkin) parameters, at " + n(bytes) +
                           " B each: " + parameterReasons(in, r, a)});
    std::string perParameter =
        a.distributedOptimizer
            ? "6 + 12/dp B: 2 B 16-bit parameters and 4 B fp32 main gradients on every rank, master "
              "weights and Adam's moments sharded (the distributed optimizer, ZeRO-1)"
            : "18 B: 2 B 16-bit parameters, 4 B fp32 main gradients, 4 B master weights, 8 B Adam moments";
    perParameter += "; Napkin's " + r.bytesPerParameter.ledger + " under the recipe";
    q.terms.push_back({"bytes per parameter", napkinShard * bytes, *q.napkin, perParameter});
    closeTerms(q);
    return q;
}

std::string layerReasons(const AccountingInput& in, const AccountingResult& r, const MegatronArgs& a,
                         bool withSp) {
    const ModelSpec& m = in.model;
    std::vector<std::string> why;
    why.emplace_back(withSp ? "compute_activation_memory (sequence parallelism with selective recompute "
                              "only): s·b·h·(18 + 4·F)/t per layer"
                            : "compute_activation_memory_without_sp (every other setup): s·b·h·(10 + "
                              "24/t) per layer, Korthikanti's selective form without SP");
    if (!withSp && std::abs(a.ffnHidden - 4 * a.hidden) > 0)
        why.emplace_back("hard-codes a 4·h MLP: 24/t stands for (8 + 4·F)/t, and this MLP is F = " +
                         n(a.ffnHidden / a.hidden));
    if (in.recompute == Recompute::none && m.attentionImpl == AttentionImpl::eager)
        why.emplace_back("leaves out the 5·a·s/h attention scores and masks Napkin keeps without recompute");
    if (in.recompute == Recompute::full)
        why.emplace_back("ignores full recompute (Napkin keeps only each layer's input)");
    if (in.parallel.sp && !withSp)
        why.emplace_back("ignores sequence parallelism outside selective recompute (the 10 replicated "
                         "bytes stay whole)");
    if (in.parallel.cp > 1)
        why.emplace_back("ignores context parallelism (Napkin divides by cp)");
    if (!hasKorthikantiBlock(m))
        why.emplace_back("counts Korthikanti's block (GELU MLP, full attention, dropout); Napkin's ledger "
                         "counts this architecture's tensors");
    if (r.precision.activations != StorageType::bf16 && r.precision.activations != StorageType::fp16)
        why.emplace_back("assumes 16-bit activations; Napkin's are " +
                         std::string(storageTypeName(r.precision.activations)));
    if (r.memoryStage && *r.memoryStage != PipelineStage::first)
        why.emplace_back("the first stage; Napkin's most loaded GPU is the " +
                         std::string(pipelineStageName(*r.memoryStage)) + " stage's");
    return joinReasons(why);
}

PeerQuantity activations(const AccountingInput& in, const AccountingResult& r, const MegatronArgs& a) {
    const MegatronActivations m = megatronActivations(a, in.parallel.microbatches);
    PeerQuantity q;
    q.name = "activations per GPU";
    q.unit = "bytes";
    q.peer = m.total;
    q.peerFormula = "layers " + n(m.layers) + " + embedding " + n(m.embedding) + " + output " + n(m.output) +
                    (m.withSequenceParallel ? "" : " + 5 % " + n(m.overhead)) + " = " + n(m.total) + " B";
    q.napkin = r.memory.activations.value;
    q.napkinMeaning = "memory_bytes.activations";
    const ActivationMemory& act = r.activations;
    double napkinLayer = 0, napkinRest = 0;
    for (const ActivationLedgerRow& row : act.ledger)
        (row.perLayer ? napkinLayer : napkinRest) += row.bytes;
    napkinLayer *= act.layers * act.microBatchesInFlight;
    // The ledger may not add up to the total (a probe without rows); the remainder then shows as "other".
    q.terms.push_back(
        {"transformer layers", m.layers, napkinLayer, layerReasons(in, r, a, m.withSequenceParallel)});
    q.terms.push_back({"embedding input", m.embedding, 0,
                       "input ids (8 B, int64) and the embedding's dropout mask (1 B), p micro-batches in "
                       "flight; Napkin's ledger keeps neither"});
    q.terms.push_back(
        {"output layer", m.output, napkinRest,
         m.withSequenceParallel
             ? "4·s·b·h·(1 + V/h)/t: the final norm's output and fp32 logits over the padded "
               "vocabulary; Napkin: the logits over V"
             : "(s·b·V/t + s·b·h) × 2 B: 16-bit logits over the padded vocabulary and the final "
               "norm's output; Napkin keeps fp32 logits, 4·s·b·V/t"});
    q.terms.push_back({"5 % overhead", m.overhead, 0,
                       "\"buffer for optimizer and miscellaneous temporaries\" (without SP only); Napkin "
                       "counts the allocator's overheads apart (overheads)"});
    closeTerms(q);
    return q;
}

PeerQuantity flops(const AccountingInput& in, const AccountingResult& r, const MegatronArgs& a) {
    PeerQuantity q;
    q.name = "FLOPs per token";
    q.unit = "FLOPs per token";
    const double tokens = a.seq;
    q.peer = megatronFlops(a, 1) / tokens;
    q.peerFormula = "num_floating_point_operations(batch 1) / s = " + n(megatronFlops(a, 1)) + " / " +
                    n(tokens) + " = " + n(q.peer);
    q.napkin = r.flopsPerToken.value;
    q.napkinMeaning = "flops_per_token (model FLOPs: forward + backward, no recompute)";
    const StepFlops napkin = [&] {
        const ValuesOnly numbersOnly; // only its attention and head counts are read, not its formulas
        return countStepFlops(in.model, 1, Recompute::none, in.attention);
    }();
    double napkinHead = 0;
    for (const ComponentFlops& c : napkin.components)
        if (c.name == "head")
            napkinHead = 3 * c.forward / tokens;
    const double napkinScores = 3 * napkin.attentionScores / tokens;
    const double peerScores = megatronAttentionScoreFlops(a, 1) / tokens;
    const double peerLogits = megatronLogitFlops(a, 1) / tokens;
    std::string scores = "always causal (s/2 keys per query) at every layer";
    if (in.attention == AttentionMask::full)
        scores += "; Napkin's mask is full, s keys per query";
    if (in.model.slidingWindow > 0)
        scores += "; no sliding window (Napkin scores at most W keys in windowed layers)";
    q.terms.push_back({"attention scores", peerScores, napkinScores, scores});
    q.terms.push_back(
        {"logits", peerLogits, napkinHead,
         a.paddedVocab != in.model.vocab
             ? "6·h·V over the padded vocabulary " + n(a.paddedVocab) + " (Napkin: " + n(in.model.vocab) + ")"
             : "6·h·V"});
    q.terms.push_back(
        {"linear layers", q.peer - peerScores - peerLogits, *q.napkin - napkinScores - napkinHead,
         isMixtureOfExperts(in.model)
             ? "6 FLOPs per weight of the matrices a token passes; Napkin also counts the router"
             : "6 FLOPs per weight of the matrices a token passes (no biases, norms in either)"});
    closeTerms(q);
    return q;
}

} // namespace

MegatronArgs megatronArgs(const AccountingInput& in) {
    const ModelSpec& m = in.model;
    MegatronArgs a;
    a.hidden = m.dModel;
    a.ffnHidden = ffnWidth(m);
    a.heads = m.heads;
    a.queryGroups = kvHeadCount(m);
    a.kvChannels = headWidth(m);
    a.layers = m.layers;
    a.paddedVocab = megatronPaddedVocab(m.vocab, in.parallel.tp);
    a.seq = m.seq;
    a.microBatch = in.batch;
    a.tp = in.parallel.tp;
    a.pp = in.parallel.pp;
    a.dp = dataParallelSize(in.parallel, in.gpus);
    a.swiglu = isGatedMlp(m);
    a.rmsnorm = m.norm == NormKind::rmsnorm;
    a.untiedEmbeddings = m.embeddings != EmbeddingTying::tied;
    a.distributedOptimizer = in.zeroStage >= 1;
    a.sequenceParallel = in.parallel.sp;
    a.selectiveRecompute = in.recompute == Recompute::selective;
    if (isMixtureOfExperts(m)) {
        a.experts = m.experts;
        a.moeLayers = moeLayerCount(m);
        a.moeFfnHidden = expertWidth(m);
        a.sharedExpertFfn = m.sharedFfnDim;
        a.topK = m.topK;
    }
    return a;
}

PeerEstimate megatronEstimate(const AccountingInput& in, const AccountingResult& r) {
    PeerEstimate e;
    e.peer = "Megatron-LM";
    e.source = std::string(memorySource) + "; " + flopSource;
    e.conventions = {"mixed-precision Adam: 16-bit parameters, fp32 main gradients, fp32 master weights "
                     "and moments (18 B, or 6 + 12/dp with the distributed optimizer)",
                     "the first pipeline stage (embedding and p micro-batches in flight)",
                     "16-bit activations; FLOPs with causal attention and the padded vocabulary"};
    if (in.model.kind != ModelKind::transformer) {
        e.notApplicable = "Megatron-LM's estimates are for transformers";
        return e;
    }
    if (isLatentAttention(in.model)) {
        e.notApplicable = "multi-latent attention is not mapped onto Megatron's arguments here";
        return e;
    }
    if (isFineTuningSet(in.fineTuning)) {
        e.notApplicable = "Megatron's estimates are for full training on the GPU (no adapters or offload)";
        return e;
    }
    const MegatronArgs a = megatronArgs(in);
    // Its distributed optimizer is ZeRO-1; with gradients or parameters sharded too the weights estimate
    // describes another layout, so only the activations and FLOPs are set beside Napkin's.
    if (in.zeroStage <= 1)
        e.quantities.push_back(modelStates(in, r, a));
    else
        e.conventions.push_back("no ZeRO-2/3 (its distributed optimizer shards the optimizer alone): the "
                                "weights and optimizer are not compared for ZeRO-" +
                                std::to_string(in.zeroStage));
    if (r.activationsModelled)
        e.quantities.push_back(activations(in, r, a));
    e.quantities.push_back(flops(in, r, a));
    return e;
}

} // namespace napkin

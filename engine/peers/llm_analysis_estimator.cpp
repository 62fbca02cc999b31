// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/llm_analysis_estimator.h"

#include "engine/numerics/quantity_format.h"
#include "engine/peers/peer_terms.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

constexpr const char* source = "cli99/llm-analysis llm_analysis/analysis.py (commit 08d7f8f): "
                               "get_num_params_per_layer_*, get_weight_memory_per_layer, "
                               "get_memory_optimizer_state_and_gradient_*, get_memory_embedding, train()";

std::string n(double v) {
    return formatNumber(v);
}

// What llm-analysis counts differently from Napkin for this model and layout.
std::string countingReasons(const AccountingInput& in) {
    const ModelSpec& m = in.model;
    std::vector<std::string> why;
    if (in.parallel.tp > 1)
        why.emplace_back("divides the norms by tp (get_weight_memory_per_layer: layernorm / tp_size), which "
                         "tensor parallelism replicates");
    if (in.parallel.pp > 1)
        why.emplace_back("holds the embedding on every pipeline stage (get_memory_embedding has no pp)");
    if (hasQkvBias(m) || hasOutBias(m) || hasMlpBias(m))
        why.emplace_back("no linear biases");
    if (m.position == PositionKind::learned)
        why.emplace_back("no learned position table");
    if (isGatedMlp(m))
        why.emplace_back("two MLP matrices, 2·h·f: a gated MLP's third is missing");
    if (m.embeddings != EmbeddingTying::tied)
        why.emplace_back("the embedding shared with the output layer (shared_embedding=True): the untied "
                         "head's V·h is missing");
    if (m.norm == NormKind::layernorm && hasNormBias(m))
        why.emplace_back(
            "norms with a weight only (2·h per layer, h final): the LayerNorm biases are missing");
    if (headWidth(m) * m.heads != m.dModel)
        why.emplace_back("heads of width h/a (the attention's projections are h wide)");
    if (kvHeadCount(m) < in.parallel.tp)
        why.emplace_back("at least one key/value head per tensor-parallel GPU");
    if (m.sharedFfnDim > 0 || m.denseLayers > 0)
        why.emplace_back("no shared experts or dense-first layers");
    return why.empty() ? "the same parameters" : joinReasons(why);
}

} // namespace

LlmAnalysisModelStates llmAnalysisModelStates(const LlmAnalysisArgs& a, LlmAnalysisRelease release) {
    const bool current = release == LlmAnalysisRelease::current;
    const double h = a.hidden;
    const double kvPerGpu = std::max(a.kvHeads / a.tp, 1.0); // "At least on attention head on each ... GPU"
    const double attention = 2 * h * h + 2 * h * (h * kvPerGpu * a.tp / a.heads);
    const double mlp = 2 * h * a.ffn * a.experts;
    const double router = a.experts > 1 ? h * a.experts : 0.0;
    const double norms = current ? 2 * h : 0.0, lastNorm = current ? h : 0.0;
    const double embedding = h * a.vocab;
    const double layersHere = std::floor(a.layers / a.pp);
    LlmAnalysisModelStates s;
    s.parameters = a.layers * (attention + mlp + router + norms) + embedding + lastNorm;

    // Sharding over dp (dp/ep for the experts) from a ZeRO stage on.
    const auto shard = [&](int stage) { return a.zero >= stage ? a.dp : 1.0; };
    const auto expertShard = [&](int stage) { return a.zero >= stage ? a.dp / a.ep : 1.0; };
    const double others = attention + router + norms;
    s.weights = layersHere * ((attention + norms) * a.weightBytes / a.tp / shard(3) +
                              (mlp / a.ep + router) * a.weightBytes / a.tp / expertShard(3)) +
                embedding / a.tp * a.embeddingBytes / shard(3) + lastNorm * a.weightBytes / a.tp / shard(3);
    if (!current) {
        s.gradients = layersHere * (mlp / a.ep / expertShard(2) + others / shard(2)) * a.weightBytes / a.tp;
        s.optimizerState = layersHere * (mlp / a.ep / expertShard(1) + others / shard(1)) * 16 / a.tp;
        return s;
    }
    const double op = a.masterBytes + a.otherOptimizerBytes;
    s.optimizerState =
        layersHere * (op * mlp / a.ep / a.tp / expertShard(1) + op * others / a.tp / shard(1)) +
        op * embedding / a.tp / shard(1) + op * lastNorm / a.tp / shard(1);
    s.gradients = layersHere * (a.masterBytes * mlp / a.ep / a.tp / expertShard(2) +
                                a.masterBytes * others / a.tp / shard(2)) +
                  a.masterBytes * embedding / a.tp / shard(2) + a.masterBytes * lastNorm / a.tp / shard(2);
    return s;
}

PeerEstimate llmAnalysisEstimate(const AccountingInput& in, const AccountingResult& r) {
    PeerEstimate e;
    e.peer = "llm-analysis";
    e.source = source;
    e.conventions = {"Adam with fp32 master weights (12 B of optimizer state) and gradients upcast to fp32 "
                     "(4 B), whatever the recipe",
                     "weights in the recipe's parameter dtype; every term / tp",
                     "its activation and FLOP estimates are not reproduced here"};
    const ModelSpec& m = in.model;
    if (m.kind != ModelKind::transformer) {
        e.notApplicable = "llm-analysis models transformers";
        return e;
    }
    if (isLatentAttention(m) || isFineTuningSet(in.fineTuning)) {
        e.notApplicable = "llm-analysis has no multi-latent attention, adapters or offload";
        return e;
    }
    if (in.parallel.cp > 1) {
        e.notApplicable = "llm-analysis has no context parallelism";
        return e;
    }
    LlmAnalysisArgs a;
    a.hidden = m.dModel;
    a.heads = m.heads;
    a.kvHeads = kvHeadCount(m);
    a.ffn = isMixtureOfExperts(m) ? expertWidth(m) : ffnWidth(m);
    a.layers = m.layers;
    a.vocab = m.vocab;
    a.experts = m.experts;
    a.tp = in.parallel.tp;
    a.pp = in.parallel.pp;
    a.dp = dataParallelSize(in.parallel, in.gpus);
    a.ep = in.parallel.ep;
    a.weightBytes = a.embeddingBytes = bytesPerElement(r.precision.parameters);
    a.zero = in.zeroStage;
    const LlmAnalysisModelStates s = llmAnalysisModelStates(a);

    PeerQuantity q;
    q.name = "weights, gradients and optimizer per GPU";
    q.unit = "bytes";
    q.peer = s.weights + s.gradients + s.optimizerState;
    q.peerFormula = "weight " + n(s.weights) + " + gradient " + n(s.gradients) + " + optimizer_state " +
                    n(s.optimizerState) + " = " + n(q.peer) + " B (num_params_total " +
                    formatExact(s.parameters) + ")";
    q.napkin = r.memory.parameters.value + r.memory.gradients.value + r.memory.masterWeights.value +
               r.memory.optimizerState.value;
    q.napkinMeaning = "memory_bytes: parameters + gradients + master_weights + optimizer_state";
    const std::string counted = "; counting: " + countingReasons(in);
    q.terms = {
        {"weights", s.weights, r.memory.parameters.value, n(a.weightBytes) + " B per parameter" + counted},
        {"gradients", s.gradients, r.memory.gradients.value,
         "4 B: gradients counted in the master weights' fp32 (get_memory_optimizer_state_and_gradient_"
         "per_layer); Napkin: " +
             std::string(storageTypeName(r.precision.gradients))},
        {"optimizer state and master weights", s.optimizerState,
         r.memory.masterWeights.value + r.memory.optimizerState.value,
         "12 B: fp32 master weights and Adam's two moments, whatever the optimizer; Napkin: " +
             n(r.bytesPerParameter.masterWeights) + " B master weights + " +
             n(r.bytesPerParameter.optimizerState) + " B optimizer state"}};
    closeTerms(q);
    e.quantities.push_back(std::move(q));
    return e;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/peers/megatron_formulas.h"

#include <algorithm>
#include <cmath>

namespace napkin {
namespace {

double normSize(const MegatronArgs& a) {
    return a.rmsnorm ? 1.0 : 2.0; // "RMSNorm does not have bias, but LayerNorm has."
}

double gatedMultiplier(const MegatronArgs& a) {
    return a.swiglu ? 1.5 : 1.0;
}

double denseLayers(const MegatronArgs& a) {
    return a.experts ? a.layers - a.moeLayers : a.layers;
}

double moeLayers(const MegatronArgs& a) {
    return a.experts ? a.moeLayers : 0.0;
}

double selfAttentionParameters(const MegatronArgs& a) {
    const double ratio = a.kvChannels * a.heads / a.hidden;
    return 2 * a.hidden * a.hidden * ((1 + a.queryGroups / a.heads) * ratio);
}

double embeddingSize(const MegatronArgs& a) {
    return a.hidden * a.paddedVocab;
}

// The pipeline schedule's factor on the first stage: the interleaved penalty, or min(1, m/p).
double scheduleFactor(const MegatronArgs& a, std::optional<double> microbatches) {
    const double p = a.pp;
    if (a.virtualPipeline)
        return 1 + (p - 1) / (p * *a.virtualPipeline);
    if (p > 1 && microbatches)
        return std::min(1.0, *microbatches / p);
    return 1.0;
}

} // namespace

double megatronPaddedVocab(double vocab, double tp, double divisibleBy) {
    const double multiple = divisibleBy * tp;
    return std::ceil(vocab / multiple) * multiple;
}

double megatronTransformerBlockParameters(const MegatronArgs& a) {
    const double gated = gatedMultiplier(a), norm = normSize(a), attention = selfAttentionParameters(a);
    const double dense = 2 * a.hidden * (a.ffnHidden * gated + norm) + attention;
    const double moe =
        2 * a.hidden * (a.moeFfnHidden * a.experts.value_or(1) * gated + a.sharedExpertFfn * gated + norm) +
        attention;
    return dense * denseLayers(a) + moe * moeLayers(a) + norm * a.hidden;
}

double megatronParameters(const MegatronArgs& a) {
    const double embeddings = (a.untiedEmbeddings ? 2.0 : 1.0) * embeddingSize(a);
    return megatronTransformerBlockParameters(a) + embeddings;
}

double megatronMostLoadedShardParameters(const MegatronArgs& a) {
    double shard = (megatronTransformerBlockParameters(a) / a.pp + embeddingSize(a)) / a.tp;
    if (a.untiedEmbeddings && a.pp == 1)
        shard += embeddingSize(a) / a.tp;
    return shard;
}

double megatronBytesPerParameter(const MegatronArgs& a) {
    return a.distributedOptimizer ? 6 + 12 / a.dp : 18;
}

double megatronWeightAndOptimizerBytes(const MegatronArgs& a) {
    return megatronMostLoadedShardParameters(a) * megatronBytesPerParameter(a);
}

MegatronActivations megatronActivations(const MegatronArgs& a, std::optional<double> microbatches) {
    const double s = a.seq, b = a.microBatch, h = a.hidden, t = a.tp, p = a.pp;
    const double factor = scheduleFactor(a, microbatches);
    MegatronActivations m;
    m.withSequenceParallel = a.sequenceParallel && a.selectiveRecompute;
    const double embedding = 8 * s * b * p + s * b * h * p;
    if (m.withSequenceParallel) {
        // compute_activation_memory: Korthikanti's selective form, everything / t.
        m.layers = s * b * h * (18 + 4 * (a.ffnHidden / h)) * a.layers * factor / t;
        m.embedding = embedding * factor / t;
        if (p == 1)
            m.output = s * b * h * 4 * (1 + a.paddedVocab / h) / t;
    } else {
        // compute_activation_memory_without_sp: 10 + 24/t per layer whatever the MLP's width.
        m.layers = s * b * h * (10 + 24 / t) * a.layers * factor;
        m.embedding = embedding * factor;
        if (p == 1)
            m.output = (s * b * a.paddedVocab / t + s * b * h) * 2;
        m.overhead = 0.05 * (m.layers + m.embedding + m.output);
    }
    m.total = m.layers + m.embedding + m.output + m.overhead;
    return m;
}

double megatronAttentionScoreFlops(const MegatronArgs& a, double batchSize) {
    const double query = a.kvChannels * a.heads;
    return batchSize * a.seq * a.layers * 3 * 2 * (query * a.seq / 2 * 2);
}

double megatronLogitFlops(const MegatronArgs& a, double batchSize) {
    return batchSize * a.seq * 3 * 2 * a.hidden * a.paddedVocab;
}

double megatronFlops(const MegatronArgs& a, double batchSize) {
    const double query = a.kvChannels * a.heads, keyValue = a.kvChannels * a.queryGroups;
    const double projections = 3 * 2 * (a.hidden * (query + 2 * keyValue) + query * a.hidden);
    const double ffnExpansion = a.swiglu ? 3 : 2;
    const double routedTo = a.experts ? a.topK : 0.0;
    const double mlp = 3 * 2 * a.hidden *
                       (a.ffnHidden * ffnExpansion * denseLayers(a) +
                        a.moeFfnHidden * routedTo * ffnExpansion * moeLayers(a) +
                        a.sharedExpertFfn * ffnExpansion * moeLayers(a));
    return batchSize * a.seq * (mlp + projections * a.layers) + megatronAttentionScoreFlops(a, batchSize) +
           megatronLogitFlops(a, batchSize);
}

} // namespace napkin

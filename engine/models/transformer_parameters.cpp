// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/transformer_parameters.h"

namespace napkin {
namespace {

// Wq, Wk, Wv, Wo with a heads of d_h and g key/value heads; MLA's low-rank pieces when kvLoraRank > 0
// (DeepSeek-V2 paper, section 2.1.2): q_a d×q_lora and q_b q_lora×a·(nope + rope) (or q d×a·(nope + rope)),
// kv_a d×(kv_lora + rope), kv_b kv_lora×a·(nope + v), o a·v×d.
double attentionWeightsOf(const ModelSpec& m) {
    const double d = m.dModel, a = m.heads;
    const double qk = queryKeyHeadWidth(m), v = valueHeadWidth(m);
    if (isLatentAttention(m)) {
        const double q = m.qLoraRank > 0 ? d * m.qLoraRank + m.qLoraRank * a * qk : d * a * qk;
        const double kv = d * (m.kvLoraRank + m.qkRopeHeadDim) + m.kvLoraRank * a * (m.qkNopeHeadDim + v);
        return q + kv + a * v * d;
    }
    const double kvWidth = kvHeadCount(m) * headWidth(m); // d_kv = g·d_h
    return 2 * d * a * qk + 2 * d * kvWidth;
}

double attentionNormsOf(const ModelSpec& m) {
    if (isLatentAttention(m)) // the latent norms: q_a_layernorm (with a q bottleneck) and kv_a_layernorm
        return (m.qLoraRank > 0 ? m.qLoraRank : 0) + m.kvLoraRank;
    switch (m.qkNorm) {
    case QkNorm::none:
        return 0;
    case QkNorm::head:
        return 2 * headWidth(m);
    case QkNorm::whole:
        return (m.heads + kvHeadCount(m)) * headWidth(m);
    }
    return 0;
}

} // namespace

TransformerParameters transformerParameters(const ModelSpec& m) {
    const double d = m.dModel, f = ffnWidth(m), fe = expertWidth(m);
    const double kvWidth = kvHeadCount(m) * headWidth(m); // d_kv = g·d_h
    const double qWidth = m.heads * queryKeyHeadWidth(m);
    const bool gated = isGatedMlp(m), mlpBias = hasMlpBias(m);
    const double matrices = gated ? 3 : 2, inBiases = gated ? 2 : 1;
    // LayerNorm has a weight and a bias per channel; without biases (PyTorch's bias=False) only the
    // weight; RMSNorm has only a weight.
    const double normSize = m.norm == NormKind::layernorm && hasNormBias(m) ? 2 * d : d;
    const bool moe = isMixtureOfExperts(m);
    TransformerParameters p;
    p.layers = m.layers;
    p.denseLayers = moe ? m.denseLayers : 0;
    p.attentionWeights = attentionWeightsOf(m);
    p.attentionInBiases = hasQkvBias(m) && !isLatentAttention(m) ? qWidth + 2 * kvWidth : 0;
    if (m.attentionSinks) // gpt-oss: a learned logit per head joins each softmax (modeling_gpt_oss.py, sinks)
        p.attentionInBiases += m.heads;
    p.attentionOutBias = hasOutBias(m) ? d : 0;
    p.attentionNorms = attentionNormsOf(m);
    p.expertWeights = matrices * d * (moe ? fe : f);
    p.expertInBiases = mlpBias ? inBiases * (moe ? fe : f) : 0;
    p.expertOutBias = mlpBias ? d : 0;
    p.experts = moe ? m.experts : 1;
    p.activeExperts = moe ? m.topK : 1;
    p.router = moe ? d * m.experts : 0; // Mixtral's gate: a bias-free d×E linear
    p.routerBias = moe && m.routerBias ? m.experts : 0;
    if (moe && m.sharedFfnDim > 0) {
        p.sharedWeights = matrices * d * m.sharedFfnDim + (m.sharedExpertGate ? d : 0);
        p.sharedBiases = mlpBias ? inBiases * m.sharedFfnDim + d : 0;
    }
    if (p.denseLayers > 0) {
        p.denseMlpWeights = matrices * d * f;
        p.denseMlp = p.denseMlpWeights + (mlpBias ? inBiases * f + d : 0);
    }
    p.norms = normsPerLayer(m) * normSize;
    p.tokenEmbedding = m.vocab * d;
    p.positionEmbedding = m.position == PositionKind::learned ? m.seq * d : 0;
    p.finalNorm = normSize;
    p.outputHead = m.embeddings == EmbeddingTying::untied ? m.vocab * d : 0;
    return p;
}

} // namespace napkin

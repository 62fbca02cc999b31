#include "engine/accounting/transformer_parameters.h"

namespace napkin {

TransformerParameters transformerParameters(const ModelSpec& m) {
    const double d = m.dModel, f = ffnWidth(m);
    const double kvWidth = kvHeadCount(m) * d / m.heads; // d_kv = g·(d/a)
    const bool swiglu = m.mlp == MlpKind::swiglu;
    // LayerNorm has a weight and a bias per channel; without biases (PyTorch's bias=False) only the
    // weight; RMSNorm has only a weight.
    const double normSize = m.norm == NormKind::layernorm && m.bias ? 2 * d : d;
    TransformerParameters p;
    p.layers = m.layers;
    p.attentionWeights = 2 * d * d + 2 * d * kvWidth;
    p.attentionInBiases = m.bias ? d + 2 * kvWidth : 0;
    p.attentionOutBias = m.bias ? d : 0;
    p.expertWeights = (swiglu ? 3 : 2) * d * f;
    p.expertInBiases = m.bias ? (swiglu ? 2 : 1) * f : 0;
    p.expertOutBias = m.bias ? d : 0;
    p.experts = isMixtureOfExperts(m) ? m.experts : 1;
    p.activeExperts = isMixtureOfExperts(m) ? m.topK : 1;
    p.router = isMixtureOfExperts(m) ? d * m.experts : 0; // Mixtral's gate: a bias-free d×E linear
    p.norms = 2 * normSize;
    p.tokenEmbedding = m.vocab * d;
    p.positionEmbedding = m.position == PositionKind::learned ? m.seq * d : 0;
    p.finalNorm = normSize;
    p.outputHead = m.embeddings == EmbeddingTying::untied ? m.vocab * d : 0;
    return p;
}

} // namespace napkin

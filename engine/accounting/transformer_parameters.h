#pragma once
// A transformer's parameters piece by piece, as the layers hold them: what the total and the
// components sum, and what tensor and pipeline parallelism split (parallel_layout.h).
#include "engine/accounting/model_spec.h"

namespace napkin {

/// Parameter counts of one transformer before any parallel split. "Per layer" pieces are for one of
/// the L layers; an expert's pieces are for one expert MLP (a dense MLP is one expert).
struct TransformerParameters {
    double layers = 0;            ///< L
    double attentionWeights = 0;  ///< per layer: Wq d×d, Wk and Wv d×d_kv (d_kv = g·d/a), Wo d×d
    double attentionInBiases = 0; ///< per layer: q, k, v biases d + 2·d_kv (split by tensor parallelism)
    double attentionOutBias = 0;  ///< per layer: the output projection's bias d (replicated under TP)
    double expertWeights = 0;     ///< per expert: GELU 2·d·f, SwiGLU 3·d·f
    double expertInBiases = 0;    ///< per expert: GELU f, SwiGLU 2·f (split by TP)
    double expertOutBias = 0;     ///< per expert: d (replicated under TP)
    double experts = 1;           ///< E expert MLPs per layer (1: dense)
    double activeExperts = 1;     ///< K experts each token passes through (1: dense)
    double router = 0;            ///< per layer: the d×E router of a mixture of experts (no bias)
    double norms = 0;          ///< per layer, both norms: LayerNorm 2·2d (d with biases off), RMSNorm 2·d
    double tokenEmbedding = 0; ///< V·d
    double positionEmbedding = 0; ///< S·d when learned, 0 with RoPE
    double finalNorm = 0;         ///< d (RMSNorm, or LayerNorm without bias) or 2·d
    double outputHead = 0;        ///< V·d when untied, 0 when tied to the token embedding

    double attention() const { return attentionWeights + attentionInBiases + attentionOutBias; }
    double expert() const { return expertWeights + expertInBiases + expertOutBias; }
    /// Every parameter of one layer, all experts included.
    double perLayer() const { return attention() + experts * expert() + router + norms; }
    /// What one token touches in one layer: K experts instead of E.
    double perLayerActive() const { return attention() + activeExperts * expert() + router + norms; }
    double outsideLayers() const { return tokenEmbedding + positionEmbedding + finalNorm + outputHead; }
    double total() const { return layers * perLayer() + outsideLayers(); }
    double active() const { return layers * perLayerActive() + outsideLayers(); }
    /// Weights one token multiplies by (what 2·tokens·params counts): attention, K experts, the router
    /// and the head (the tied token embedding or the untied output matrix); no biases, norms or lookups.
    double activeMatmul() const {
        const double head = outputHead > 0 ? outputHead : tokenEmbedding;
        return layers * (attentionWeights + activeExperts * expertWeights + router) + head;
    }
};

/// The pieces of `model` (kind transformer). GPT-2 small: 12·(4d² + 4d + 8d² + 5d + 4d) + V·d + S·d + 2d
/// = 124,439,808 at d = 768, L = 12, V = 50257, S = 1024.
TransformerParameters transformerParameters(const ModelSpec& model);

} // namespace napkin

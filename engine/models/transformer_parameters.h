// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A transformer's parameters piece by piece, as the layers hold them: what the total and the
// components sum, and what tensor and pipeline parallelism split (parallel_layout.h).
#include "engine/models/model_spec.h"

namespace napkin {

/// Parameter counts of one transformer before any parallel split. "Per layer" pieces are for one of
/// the L layers; an expert's pieces are for one expert MLP (a dense MLP is one expert).
struct TransformerParameters {
    double layers = 0;            ///< L
    double denseLayers = 0;       ///< of the L layers, those with a dense MLP in a mixture of experts
    double attentionWeights = 0;  ///< per layer: Wq d×a·d_h, Wk and Wv d×g·d_h, Wo a·d_h×d (MLA: its five)
    double attentionInBiases = 0; ///< per layer: q, k, v biases d + 2·d_kv, and a sinks (split by TP, by head)
    double attentionOutBias = 0;  ///< per layer: the output projection's bias d (replicated under TP)
    double attentionNorms = 0;    ///< per layer: QK-norm weights, MLA's q and kv latent norms (replicated)
    double expertWeights = 0;     ///< per expert: GELU 2·d·f, SwiGLU 3·d·f
    double expertInBiases = 0;    ///< per expert: GELU f, SwiGLU 2·f (split by TP)
    double expertOutBias = 0;     ///< per expert: d (replicated under TP)
    double experts = 1;           ///< E expert MLPs per layer (1: dense)
    double activeExperts = 1;     ///< K experts each token passes through (1: dense)
    double router = 0;            ///< per MoE layer: the d×E router of a mixture of experts
    double routerBias = 0;        ///< per MoE layer: E router biases (DeepSeek-V3), no matmul
    double sharedWeights = 0;     ///< per MoE layer: the shared expert's matrices (+ Qwen2-MoE's d×1 gate)
    double sharedBiases = 0;      ///< per MoE layer: the shared expert's biases
    double denseMlp = 0;          ///< per dense-first layer: its MLP's weights and biases
    double denseMlpWeights = 0;   ///< per dense-first layer: its MLP's weights
    double norms = 0; ///< per layer, all its norms: LayerNorm 2d each (d with biases off), RMSNorm d each
    double tokenEmbedding = 0; ///< V·d
    double positionEmbedding = 0; ///< S·d when learned, 0 with RoPE
    double finalNorm = 0;         ///< d (RMSNorm, or LayerNorm without bias) or 2·d
    double outputHead = 0;        ///< V·d when untied, 0 when tied to the token embedding

    double attention() const { return attentionWeights + attentionInBiases + attentionOutBias + attentionNorms; }
    double expert() const { return expertWeights + expertInBiases + expertOutBias; }
    double shared() const { return sharedWeights + sharedBiases; }
    /// The layers with the routed experts (all L for a dense model, whose MLP is one "expert").
    double expertLayers() const { return layers - denseLayers; }
    /// Every parameter of one (MoE) layer, all experts included.
    double perLayer() const { return attention() + experts * expert() + shared() + router + routerBias + norms; }
    /// What one token touches in one (MoE) layer: K experts instead of E.
    double perLayerActive() const {
        return attention() + activeExperts * expert() + shared() + router + routerBias + norms;
    }
    /// One dense-first layer of a mixture of experts.
    double perDenseLayer() const { return attention() + denseMlp + norms; }
    double outsideLayers() const { return tokenEmbedding + positionEmbedding + finalNorm + outputHead; }
    double total() const { return expertLayers() * perLayer() + denseLayers * perDenseLayer() + outsideLayers(); }
    double active() const {
        return expertLayers() * perLayerActive() + denseLayers * perDenseLayer() + outsideLayers();
    }
    /// Weights one token multiplies by (what 2·tokens·params counts): attention, K experts, the shared
    /// expert, the router and the head (the tied token embedding or the untied output matrix); no
    /// biases, norms or lookups.
    double activeMatmul() const {
        const double head = outputHead > 0 ? outputHead : tokenEmbedding;
        return layers * attentionWeights + expertLayers() * (activeExperts * expertWeights + sharedWeights + router) +
               denseLayers * denseMlpWeights + head;
    }
};

/// The pieces of `model` (kind transformer). GPT-2 small: 12·(4d² + 4d + 8d² + 5d + 4d) + V·d + S·d + 2d
/// = 124,439,808 at d = 768, L = 12, V = 50257, S = 1024.
TransformerParameters transformerParameters(const ModelSpec& model);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The shape of the model being accounted for, and how its forward pass is executed.
#include "engine/models/architecture_options.h"
#include "engine/models/input_error.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace napkin {

enum class ModelKind {
    dense,      ///< only a parameter count N is known
    cruncher,   ///< the lecture's deep linear net: L bias-free D×D layers, then a D×1 head
    linear2,    ///< the lecture's two-layer example: B×D → D×D → D×K, no biases
    transformer ///< decoder-only transformer: GPT-2 by default; Llama-style and MoE through the options
};

enum class Recompute { none, selective, full }; ///< activation recomputation (Korthikanti et al. 2022)
enum class AttentionMask { causal, full };      ///< causal attention does half the score FLOPs

/// Sizes are doubles holding whole numbers (validated), so products never overflow an integer.
struct ModelSpec {
    ModelKind kind = ModelKind::dense;
    ActivationProfile activationsOf = ActivationProfile::megatron; ///< transformer: whose saved tensors the ledger lists
    double parameters = 0; ///< dense: N
    double dim = 0;        ///< cruncher, linear2: width D
    double layers = 0;     ///< cruncher, transformer: L
    double out = 0;        ///< linear2: output width K
    double dModel = 0;     ///< transformer: hidden size h (d)
    double heads = 0;      ///< transformer: attention heads a
    double vocab = 0;      ///< transformer: vocabulary V
    double seq = 1;        ///< transformer: context length S; dense: tokens per sequence
    double ffnMult = 4;    ///< transformer: MLP width as a multiple of d
    // Transformer architecture options; the defaults are GPT-2's.
    double kvHeads = 0;                  ///< key/value heads g (grouped-query attention); 0: = heads
    double ffnDim = 0;                   ///< MLP width f; 0: ffnMult·d
    MlpKind mlp = MlpKind::gelu;         ///< GELU (2 matrices) or SwiGLU (3)
    NormKind norm = NormKind::layernorm; ///< LayerNorm or RMSNorm
    bool bias = true;                    ///< biases in the linear layers (and LayerNorm)
    EmbeddingTying embeddings = EmbeddingTying::tied; ///< the output head shares the token embedding
    PositionKind position = PositionKind::learned;    ///< learned S×d table or RoPE (no parameters)
    double experts = 1;  ///< E expert MLPs per layer (mixture of experts); 1: dense
    double topK = 1;     ///< K experts each token is routed to
    bool dropout = true; ///< dropout layers (and their 1-byte masks) in training
    AttentionImpl attentionImpl = AttentionImpl::eager; ///< eager (keeps a·s² scores) or flash attention
    // What today's families add (Qwen, Gemma, OLMo-2, Falcon, DeepSeek). Every default leaves the numbers
    // of the fields above unchanged, so a model that does not use a knob is accounted as before.
    double headDim = 0;            ///< d_h per attention head; 0: d/a (Gemma 7B: 256 on d = 3072, a = 16)
    std::optional<bool> qkvBias;   ///< biases on the q, k, v projections; unset: `bias` (Qwen2: on alone)
    std::optional<bool> outBias;   ///< bias on the attention output projection; unset: `bias`
    std::optional<bool> mlpBias;   ///< biases in the MLP (and experts); unset: `bias`
    std::optional<bool> normBias;  ///< LayerNorm's bias; unset: `bias` (Falcon: on, with linear bias off)
    NormPlacement normPlacement = NormPlacement::pre; ///< norms per layer: pre/post 2, sandwich 4, parallel 1
    QkNorm qkNorm = QkNorm::none;  ///< RMSNorm on queries and keys (OLMo-2: whole, Qwen3/Gemma 3: per head)
    double slidingWindow = 0;      ///< W: a windowed layer attends to (and caches) the last W tokens; 0: none
    double globalEvery = 0;        ///< with a window: every k-th layer (k, 2k, ...) attends globally; 0: none
    std::vector<bool> windowedLayers; ///< explicit per-layer pattern (true: windowed); overrides globalEvery
    // Multi-head latent attention (DeepSeek-V2/V3), on when kvLoraRank > 0: queries through an optional
    // q_lora_rank bottleneck, keys and values from a kv_lora_rank latent; the cache keeps the latent and
    // one shared RoPE key, (kv_lora_rank + qk_rope_head_dim) values per token per layer.
    double qLoraRank = 0, kvLoraRank = 0, qkNopeHeadDim = 0, qkRopeHeadDim = 0, vHeadDim = 0;
    // Mixture-of-experts refinements (DeepSeek, Qwen-MoE): expert width apart from the dense width, an
    // always-on shared expert, the first layers dense, a router bias.
    double expertFfnDim = 0;       ///< each routed expert's width; 0: the dense width f
    double sharedFfnDim = 0;       ///< the shared expert(s)' width together (DeepSeek-V3 1·2048); 0: none
    bool sharedExpertGate = false; ///< Qwen2-MoE's d×1 sigmoid gate on the shared expert
    double denseLayers = 0;        ///< the first k layers have a dense MLP of width f (first_k_dense_replace)
    bool routerBias = false;       ///< E router biases per MoE layer (DeepSeek-V3's e_score_correction_bias)
    bool attentionSinks = false;   ///< one learned sink logit per head per layer (gpt-oss's self_attn.sinks)
    bool operator==(const ModelSpec&) const = default;
};

/// g: the key/value heads (kvHeads, or heads when 0).
double kvHeadCount(const ModelSpec& model);
/// f: the MLP width in elements (ffnDim, or ffnMult·d when 0).
double ffnWidth(const ModelSpec& model);
/// F: the MLP width as a multiple of d (ffnMult, or ffnDim/d when ffnDim is set).
double ffnMultiple(const ModelSpec& model);
/// More than one expert MLP per layer, with a router.
bool isMixtureOfExperts(const ModelSpec& model);
/// d_h: the width of one head (headDim, or d/a when 0).
double headWidth(const ModelSpec& model);
/// Multi-head latent attention: kvLoraRank > 0.
bool isLatentAttention(const ModelSpec& model);
/// Query/key width of one head (MLA: nope + rope) and value width of one head (MLA: v_head_dim); d_h else.
double queryKeyHeadWidth(const ModelSpec& model);
double valueHeadWidth(const ModelSpec& model);
/// SwiGLU or GeGLU: gate and up projections, three matrices.
bool isGatedMlp(const ModelSpec& model);
/// A routed expert's width (expertFfnDim, or f when 0).
double expertWidth(const ModelSpec& model);
/// The layers with routed experts: L − denseLayers for a mixture of experts, 0 for a dense model.
double moeLayerCount(const ModelSpec& model);
/// Norms in one layer: 2 (pre or post), 4 (sandwich) or 1 (parallel).
double normsPerLayer(const ModelSpec& model);
/// The per-projection biases, each its own setting or `bias`.
bool hasQkvBias(const ModelSpec& model);
bool hasOutBias(const ModelSpec& model);
bool hasMlpBias(const ModelSpec& model);
bool hasNormBias(const ModelSpec& model);
/// Layers that attend only to the last slidingWindow tokens (0 without a window).
double windowedLayerCount(const ModelSpec& model);
/// Key/value cache elements per token per layer: full attention 2·g·d_h; MLA kv_lora_rank + rope dim.
double kvCacheElementsPerLayer(const ModelSpec& model);
/// Any issue-26 knob away from its default: the GPT-2 and Korthikanti closed forms no longer apply.
bool hasModernArchitecture(const ModelSpec& model);
/// The block Korthikanti et al. 2022 count: GELU MLP, full multi-head attention, no experts, eager
/// attention with dropout. Their closed forms (34 + 5as/h, ...) apply exactly to it.
bool hasKorthikantiBlock(const ModelSpec& model);

/// Checks the transformer options (kv-heads dividing heads, a whole ffn-dim, 1 ≤ top-k ≤ experts ≤ 1024);
/// fields are the CLI's option names. The sizes (d-model, heads, ...) are checked by validate().
InputError validateArchitecture(const ModelSpec& model);

/// Tokens (examples for cruncher/linear2) processed per step for a batch of `batch` sequences.
double tokensPerStep(const ModelSpec& model, double batch);

/// Names as napkin-cli, JSON and scenario files spell them ("transformer", "selective", "causal").
std::string_view modelKindName(ModelKind kind);
std::optional<ModelKind> modelKindFromName(std::string_view name);
std::span<const ModelKind> allModelKinds();
std::string_view recomputeName(Recompute recompute);
std::optional<Recompute> recomputeFromName(std::string_view name);
std::span<const Recompute> allRecomputes();
std::string_view attentionMaskName(AttentionMask mask);
std::optional<AttentionMask> attentionMaskFromName(std::string_view name);
std::span<const AttentionMask> allAttentionMasks();

} // namespace napkin

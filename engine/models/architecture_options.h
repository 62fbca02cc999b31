// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The transformer design choices that separate GPT-2 from Llama and Mixtral, each with the one name
// napkin-cli, JSON and scenario files spell it with.
#include <optional>
#include <span>
#include <string_view>

namespace napkin {

/// The MLP: GELU (GPT-2: up d×f, GELU, down f×d), SwiGLU (Llama: gate and up d×f, SiLU(gate)·up, down)
/// or GeGLU (Gemma: the same three matrices, GELU on the gate). SwiGLU and GeGLU are the gated kinds.
enum class MlpKind { gelu, swiglu, geglu };
/// Where a layer's norms sit: before attention and before the MLP (pre: GPT-2, Llama; two per layer),
/// after them instead (post: OLMo-2; two), both (sandwich: Gemma 2 and 3; four), or one norm feeding
/// attention and MLP side by side (parallel: Falcon 7B; one).
enum class NormPlacement { pre, post, sandwich, parallel };
/// QK-norm: an RMSNorm on the queries and keys before the scores. Per head (Qwen3, Gemma 3: one d_h
/// weight for queries and one for keys, shared by the heads) or whole (OLMo-2: over all a·d_h query and
/// g·d_h key channels).
enum class QkNorm { none, head, whole };
/// The normalisation before attention, before the MLP and at the end: LayerNorm (weight and, with
/// biases, a bias) or RMSNorm (weight only; Zhang & Sennrich 2019).
enum class NormKind { layernorm, rmsnorm };
/// Positions: a learned S×d table (GPT-2) or rotary embeddings (RoPE, Su et al. 2021: no parameters).
enum class PositionKind { learned, rope };
/// Whether the output head reuses the token embedding (GPT-2) or has its own V×d matrix (Llama).
enum class EmbeddingTying { tied, untied };
/// Eager attention keeps the a·s² scores for backward; flash attention (Dao et al. 2022) keeps none,
/// only an fp32 log-sum-exp per row, and recomputes the scores in backward.
enum class AttentionImpl { eager, flash };
/// Whose saved activations the ledger lists: Megatron-LM's (Korthikanti et al. 2022, the default) or what
/// PyTorch eager autograd keeps for a nanoGPT-style model (tests/validation/ checks it against torch).
enum class ActivationProfile { megatron, pytorchEager };

std::string_view mlpKindName(MlpKind kind);
std::optional<MlpKind> mlpKindFromName(std::string_view name);
std::span<const MlpKind> allMlpKinds();
std::string_view normPlacementName(NormPlacement placement);
std::optional<NormPlacement> normPlacementFromName(std::string_view name);
std::span<const NormPlacement> allNormPlacements();
std::string_view qkNormName(QkNorm norm);
std::optional<QkNorm> qkNormFromName(std::string_view name);
std::span<const QkNorm> allQkNorms();
std::string_view normKindName(NormKind kind);
std::optional<NormKind> normKindFromName(std::string_view name);
std::span<const NormKind> allNormKinds();
std::string_view positionKindName(PositionKind kind);
std::optional<PositionKind> positionKindFromName(std::string_view name);
std::span<const PositionKind> allPositionKinds();
std::string_view embeddingTyingName(EmbeddingTying tying);
std::optional<EmbeddingTying> embeddingTyingFromName(std::string_view name);
std::span<const EmbeddingTying> allEmbeddingTyings();
std::string_view attentionImplName(AttentionImpl impl);
std::optional<AttentionImpl> attentionImplFromName(std::string_view name);
std::span<const AttentionImpl> allAttentionImpls();
std::string_view activationProfileName(ActivationProfile profile);
std::optional<ActivationProfile> activationProfileFromName(std::string_view name);
std::span<const ActivationProfile> allActivationProfiles();
/// "on" / "off", for the switches (--bias, --dropout).
std::string_view onOffName(bool on);
std::optional<bool> onOffFromName(std::string_view name);

} // namespace napkin

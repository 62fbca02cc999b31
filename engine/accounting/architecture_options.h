#pragma once
// The transformer design choices that separate GPT-2 from Llama and Mixtral, each with the one name
// napkin-cli, JSON and scenario files spell it with.
#include <optional>
#include <span>
#include <string_view>

namespace napkin {

/// The MLP: GELU (GPT-2: up d×f, GELU, down f×d) or SwiGLU (Llama: gate and up d×f, SiLU(gate)·up, down).
enum class MlpKind { gelu, swiglu };
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

std::string_view mlpKindName(MlpKind kind);
std::optional<MlpKind> mlpKindFromName(std::string_view name);
std::span<const MlpKind> allMlpKinds();
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
/// "on" / "off", for the switches (--bias, --dropout).
std::string_view onOffName(bool on);
std::optional<bool> onOffFromName(std::string_view name);

} // namespace napkin

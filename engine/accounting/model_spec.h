#pragma once
// The shape of the model being accounted for, and how its forward pass is executed.
#include "engine/accounting/architecture_options.h"
#include "engine/accounting/input_error.h"

#include <optional>
#include <span>
#include <string_view>

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

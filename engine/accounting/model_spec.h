#pragma once
// The shape of the model being accounted for, and how its forward pass is executed.
#include <optional>
#include <span>
#include <string_view>

namespace napkin {

enum class ModelKind {
    dense,      ///< only a parameter count N is known
    cruncher,   ///< the lecture's deep linear net: L bias-free D×D layers, then a D×1 head
    linear2,    ///< the lecture's two-layer example: B×D → D×D → D×K, no biases
    transformer ///< GPT-2 style decoder with tied embeddings
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
    bool operator==(const ModelSpec&) const = default;
};

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

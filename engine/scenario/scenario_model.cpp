// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario's model keys: the transformer's architecture (accounting.model and inference.model) and,
// for the Inference tab, its sizes. Keys are napkin-cli's options in snake case (--head-dim: head_dim),
// values its names ("swiglu", "sandwich", "on"). Each was added within version 2: absent, a key keeps the
// value the model had (GPT-2's defaults, or the preset's), which is what an older file meant.
#include "engine/scenario/scenario.h"
#include "engine/scenario/scenario_section.h"

#include "engine/models/model_spec.h"

#include <array>
#include <optional>
#include <string>

namespace napkin::scenario_detail {
namespace {

constexpr std::array<std::string_view, 33> kArchitectureKeys{"kv_heads",
                                                             "ffn_dim",
                                                             "mlp",
                                                             "norm",
                                                             "bias",
                                                             "embeddings",
                                                             "position",
                                                             "experts",
                                                             "top_k",
                                                             "dropout",
                                                             "attention_impl",
                                                             "activations_of",
                                                             "head_dim",
                                                             "qkv_bias",
                                                             "out_bias",
                                                             "mlp_bias",
                                                             "norm_bias",
                                                             "norm_placement",
                                                             "qk_norm",
                                                             "sliding_window",
                                                             "global_every",
                                                             "windowed_layers",
                                                             "q_lora_rank",
                                                             "kv_lora_rank",
                                                             "qk_nope_head_dim",
                                                             "qk_rope_head_dim",
                                                             "v_head_dim",
                                                             "expert_ffn_dim",
                                                             "shared_ffn_dim",
                                                             "shared_expert_gate",
                                                             "dense_layers",
                                                             "router_bias",
                                                             "attention_sinks"};

constexpr std::array<std::string_view, 6> kSizeKeys{"d_model", "layers", "heads", "vocab", "seq", "ffn_mult"};

// A per-projection bias: "on", "off", or "default" (unset: it follows `bias`).
constexpr std::string_view kFollowsBias = "default";

std::optional<std::optional<bool>> biasSwitchFromName(std::string_view name) {
    std::optional<std::optional<bool>> bias;
    if (name == kFollowsBias)
        bias.emplace(std::nullopt);
    else if (const auto on = onOffFromName(name))
        bias.emplace(*on);
    return bias;
}

std::string biasSwitchName(const std::optional<bool>& bias) {
    return bias ? std::string(onOffName(*bias)) : std::string(kFollowsBias);
}

// The per-layer window pattern from a config.json (layer_types, max_window_layers): one letter a layer,
// 'w' windowed, 'g' global; "" for none. Whether it has one letter per layer is the page's rule
// (validate(): windowed-layers), checked with the rest of the model.
constexpr char kWindowed = 'w', kGlobal = 'g';

void readWindowPattern(const Section& m, std::vector<bool>& pattern) {
    if (!m.find("windowed_layers"))
        return;
    std::string text;
    m.text("windowed_layers", text);
    std::vector<bool> layers;
    layers.reserve(text.size());
    for (const char c : text) {
        if (c != kWindowed && c != kGlobal)
            m.refuse("windowed_layers", "must hold one letter per layer, 'w' (windowed) or 'g' (global)");
        layers.push_back(c == kWindowed);
    }
    pattern = std::move(layers);
}

std::string windowPatternText(const std::vector<bool>& pattern) {
    std::string text;
    for (const bool windowed : pattern)
        text += windowed ? kWindowed : kGlobal;
    return text;
}

std::string str(std::string_view s) {
    return std::string(s);
}

} // namespace

std::span<const std::string_view> architectureKeys() {
    return kArchitectureKeys;
}

// The ranges are the controls' own (control_ranges.h): a loaded file never shows a clamped value.
void readArchitecture(const Section& m, ModelSpec& model) {
    m.wholeNumber("kv_heads", model.kvHeads, ranges::accounting::kvHeads);
    m.wholeNumber("ffn_dim", model.ffnDim, ranges::accounting::ffnDim);
    m.name("mlp", model.mlp, mlpKindFromName);
    m.name("norm", model.norm, normKindFromName);
    m.name("bias", model.bias, onOffFromName);
    m.name("embeddings", model.embeddings, embeddingTyingFromName);
    m.name("position", model.position, positionKindFromName);
    m.wholeNumber("experts", model.experts, ranges::accounting::experts);
    m.wholeNumber("top_k", model.topK, ranges::accounting::topK);
    m.name("dropout", model.dropout, onOffFromName);
    m.name("attention_impl", model.attentionImpl, attentionImplFromName);
    m.name("activations_of", model.activationsOf, activationProfileFromName);
    m.wholeNumber("head_dim", model.headDim, ranges::accounting::headDim);
    m.name("qkv_bias", model.qkvBias, biasSwitchFromName);
    m.name("out_bias", model.outBias, biasSwitchFromName);
    m.name("mlp_bias", model.mlpBias, biasSwitchFromName);
    m.name("norm_bias", model.normBias, biasSwitchFromName);
    m.name("norm_placement", model.normPlacement, normPlacementFromName);
    m.name("qk_norm", model.qkNorm, qkNormFromName);
    m.wholeNumber("sliding_window", model.slidingWindow, ranges::accounting::slidingWindow);
    m.wholeNumber("global_every", model.globalEvery, ranges::accounting::globalEvery);
    readWindowPattern(m, model.windowedLayers);
    m.wholeNumber("q_lora_rank", model.qLoraRank, ranges::accounting::latentRank);
    m.wholeNumber("kv_lora_rank", model.kvLoraRank, ranges::accounting::latentRank);
    m.wholeNumber("qk_nope_head_dim", model.qkNopeHeadDim, ranges::accounting::latentRank);
    m.wholeNumber("qk_rope_head_dim", model.qkRopeHeadDim, ranges::accounting::latentRank);
    m.wholeNumber("v_head_dim", model.vHeadDim, ranges::accounting::latentRank);
    m.wholeNumber("expert_ffn_dim", model.expertFfnDim, ranges::accounting::expertFfnDim);
    m.wholeNumber("shared_ffn_dim", model.sharedFfnDim, ranges::accounting::sharedFfnDim);
    m.name("shared_expert_gate", model.sharedExpertGate, onOffFromName);
    m.wholeNumber("dense_layers", model.denseLayers, ranges::accounting::denseLayers);
    m.name("router_bias", model.routerBias, onOffFromName);
    m.name("attention_sinks", model.attentionSinks, onOffFromName);
}

void writeArchitecture(const ModelSpec& m, json& o) {
    o["kv_heads"] = m.kvHeads;
    o["ffn_dim"] = m.ffnDim;
    o["mlp"] = str(mlpKindName(m.mlp));
    o["norm"] = str(normKindName(m.norm));
    o["bias"] = str(onOffName(m.bias));
    o["embeddings"] = str(embeddingTyingName(m.embeddings));
    o["position"] = str(positionKindName(m.position));
    o["experts"] = m.experts;
    o["top_k"] = m.topK;
    o["dropout"] = str(onOffName(m.dropout));
    o["attention_impl"] = str(attentionImplName(m.attentionImpl));
    o["activations_of"] = str(activationProfileName(m.activationsOf));
    o["head_dim"] = m.headDim;
    o["qkv_bias"] = biasSwitchName(m.qkvBias);
    o["out_bias"] = biasSwitchName(m.outBias);
    o["mlp_bias"] = biasSwitchName(m.mlpBias);
    o["norm_bias"] = biasSwitchName(m.normBias);
    o["norm_placement"] = str(normPlacementName(m.normPlacement));
    o["qk_norm"] = str(qkNormName(m.qkNorm));
    o["sliding_window"] = m.slidingWindow;
    o["global_every"] = m.globalEvery;
    o["windowed_layers"] = windowPatternText(m.windowedLayers);
    o["q_lora_rank"] = m.qLoraRank;
    o["kv_lora_rank"] = m.kvLoraRank;
    o["qk_nope_head_dim"] = m.qkNopeHeadDim;
    o["qk_rope_head_dim"] = m.qkRopeHeadDim;
    o["v_head_dim"] = m.vHeadDim;
    o["expert_ffn_dim"] = m.expertFfnDim;
    o["shared_ffn_dim"] = m.sharedFfnDim;
    o["shared_expert_gate"] = str(onOffName(m.sharedExpertGate));
    o["dense_layers"] = m.denseLayers;
    o["router_bias"] = str(onOffName(m.routerBias));
    o["attention_sinks"] = str(onOffName(m.attentionSinks));
}

void readTransformerModel(const Section& m, ModelSpec& model) {
    std::vector<std::string_view> known(kSizeKeys.begin(), kSizeKeys.end());
    known.insert(known.end(), kArchitectureKeys.begin(), kArchitectureKeys.end());
    m.expectKeys(known);
    m.wholeNumber("d_model", model.dModel, ranges::accounting::dModel);
    m.wholeNumber("layers", model.layers, ranges::accounting::layers);
    m.wholeNumber("heads", model.heads, ranges::accounting::heads);
    m.wholeNumber("vocab", model.vocab, ranges::accounting::vocab);
    m.wholeNumber("seq", model.seq, ranges::accounting::seq);
    m.number("ffn_mult", model.ffnMult, ranges::accounting::ffnMult);
    readArchitecture(m, model);
}

json transformerModelJson(const ModelSpec& m) {
    json o = {{"d_model", m.dModel}, {"layers", m.layers}, {"heads", m.heads},
              {"vocab", m.vocab},    {"seq", m.seq},       {"ffn_mult", m.ffnMult}};
    writeArchitecture(m, o);
    return o;
}

} // namespace napkin::scenario_detail

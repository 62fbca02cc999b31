// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/model_options.h"

#include "cli/config_option.h"
#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/setup_presets.h"

#include <CLI/CLI.hpp>

#include <optional>
#include <tuple>
#include <utility>

namespace napkin::cli {
namespace {

double required(const std::string& option, const std::string& text, const std::string& model) {
    if (text.empty())
        throw UsageError(option + ": required for --model " + model);
    return parseNumberOption(option, text);
}

// An enum option's text, through its one name table (CLI11 checked membership).
template <typename Enum>
void setEnum(Enum& target, const std::string& text, std::optional<Enum> (*fromName)(std::string_view)) {
    if (!text.empty())
        target = *fromName(text);
}

void setNumber(double& target, const char* option, const std::string& text) {
    if (!text.empty())
        target = parseNumberOption(option, text);
}

// The transformer options: the preset's values, then each flag given on top.
void applyArchitecture(const ModelOptions& o, ModelSpec& m) {
    setNumber(m.kvHeads, "--kv-heads", o.kvHeads);
    if (!o.ffnMult.empty() && o.ffnDim.empty())
        m.ffnDim = 0; // an explicit --ffn-mult replaces a preset's MLP width
    setNumber(m.ffnDim, "--ffn-dim", o.ffnDim);
    setEnum(m.mlp, o.mlp, mlpKindFromName);
    setEnum(m.norm, o.norm, normKindFromName);
    setEnum(m.bias, o.bias, onOffFromName);
    setEnum(m.embeddings, o.embeddings, embeddingTyingFromName);
    setEnum(m.position, o.position, positionKindFromName);
    setNumber(m.experts, "--experts", o.experts);
    setNumber(m.topK, "--top-k", o.topK);
    setEnum(m.dropout, o.dropout, onOffFromName);
    setEnum(m.attentionImpl, o.attentionImpl, attentionImplFromName);
    setEnum(m.activationsOf, o.activationsOf, activationProfileFromName);
    setNumber(m.headDim, "--head-dim", o.headDim);
    auto setSwitch = [](std::optional<bool>& target, const std::string& text) {
        if (!text.empty())
            target = *onOffFromName(text);
    };
    setSwitch(m.qkvBias, o.qkvBias);
    setSwitch(m.outBias, o.outBias);
    setSwitch(m.mlpBias, o.mlpBias);
    setSwitch(m.normBias, o.normBias);
    setEnum(m.normPlacement, o.normPlacement, normPlacementFromName);
    setEnum(m.qkNorm, o.qkNorm, qkNormFromName);
    setNumber(m.slidingWindow, "--sliding-window", o.slidingWindow);
    setNumber(m.globalEvery, "--global-every", o.globalEvery);
    if (!o.globalEvery.empty())
        m.windowedLayers.clear(); // an explicit pattern from a config gives way to the flag
    setNumber(m.qLoraRank, "--q-lora-rank", o.qLoraRank);
    setNumber(m.kvLoraRank, "--kv-lora-rank", o.kvLoraRank);
    setNumber(m.qkNopeHeadDim, "--qk-nope-head-dim", o.qkNopeHeadDim);
    setNumber(m.qkRopeHeadDim, "--qk-rope-head-dim", o.qkRopeHeadDim);
    setNumber(m.vHeadDim, "--v-head-dim", o.vHeadDim);
    setNumber(m.expertFfnDim, "--expert-ffn-dim", o.expertFfnDim);
    setNumber(m.sharedFfnDim, "--shared-ffn-dim", o.sharedFfnDim);
    setEnum(m.sharedExpertGate, o.sharedExpertGate, onOffFromName);
    setNumber(m.denseLayers, "--dense-layers", o.denseLayers);
    setEnum(m.routerBias, o.routerBias, onOffFromName);
    setEnum(m.attentionSinks, o.attentionSinks, onOffFromName);
}

// Options that only a transformer has: refused for the other kinds rather than silently ignored.
void refuseTransformerOptions(const ModelOptions& o, const std::string& kind) {
    const std::pair<const char*, bool> given[] = {{"--kv-heads", !o.kvHeads.empty()},
                                                  {"--ffn-dim", !o.ffnDim.empty()},
                                                  {"--mlp", !o.mlp.empty()},
                                                  {"--norm", !o.norm.empty()},
                                                  {"--bias", !o.bias.empty()},
                                                  {"--embeddings", !o.embeddings.empty()},
                                                  {"--position", !o.position.empty()},
                                                  {"--experts", !o.experts.empty()},
                                                  {"--top-k", !o.topK.empty()},
                                                  {"--dropout", !o.dropout.empty()},
                                                  {"--attention-impl", !o.attentionImpl.empty()},
                                                  {"--activations-of", !o.activationsOf.empty()},
                                                  {"--config", !o.config.empty()},
                                                  {"--head-dim", !o.headDim.empty()},
                                                  {"--qkv-bias", !o.qkvBias.empty()},
                                                  {"--out-bias", !o.outBias.empty()},
                                                  {"--mlp-bias", !o.mlpBias.empty()},
                                                  {"--norm-bias", !o.normBias.empty()},
                                                  {"--norm-placement", !o.normPlacement.empty()},
                                                  {"--qk-norm", !o.qkNorm.empty()},
                                                  {"--sliding-window", !o.slidingWindow.empty()},
                                                  {"--global-every", !o.globalEvery.empty()},
                                                  {"--q-lora-rank", !o.qLoraRank.empty()},
                                                  {"--kv-lora-rank", !o.kvLoraRank.empty()},
                                                  {"--qk-nope-head-dim", !o.qkNopeHeadDim.empty()},
                                                  {"--qk-rope-head-dim", !o.qkRopeHeadDim.empty()},
                                                  {"--v-head-dim", !o.vHeadDim.empty()},
                                                  {"--expert-ffn-dim", !o.expertFfnDim.empty()},
                                                  {"--shared-ffn-dim", !o.sharedFfnDim.empty()},
                                                  {"--shared-expert-gate", !o.sharedExpertGate.empty()},
                                                  {"--dense-layers", !o.denseLayers.empty()},
                                                  {"--router-bias", !o.routerBias.empty()},
                                                  {"--attention-sinks", !o.attentionSinks.empty()}};
    for (const auto& [option, isGiven] : given)
        if (isGiven)
            throw UsageError(std::string(option) + ": applies to --model transformer only, not --model " +
                             kind);
}

// The model a preset option or --config names, if any: a setup preset's (any kind), a published
// transformer's, a shipped config.json's (the zoo) or the user's config.json.
std::optional<ModelSpec> presetModel(const ModelOptions& o) {
    if (!o.preset.empty() && !o.modelPreset.empty())
        throw UsageError(
            "--model-preset: give --preset (a whole setup) or --model-preset (a model), not both");
    if (!o.config.empty()) {
        if (!o.preset.empty() || !o.modelPreset.empty())
            throw UsageError("--config: give either --config or a preset, not both");
        if (!o.model.empty() && o.model != "transformer")
            throw UsageError("--config: a config.json describes a transformer; drop --model " + o.model);
        return readConfigOption(o.config).model;
    }
    if (!o.preset.empty()) {
        const SetupPreset* preset = findSetupPreset(o.preset);
        if (!preset)
            throw UsageError("--preset: unknown preset '" + o.preset + "'; known: " + setupPresetIds() +
                             " (published models alone: --model-preset)");
        return preset->input.model;
    }
    if (!o.modelPreset.empty()) {
        if (const ModelPreset* preset = findModelPreset(o.modelPreset))
            return preset->model;
        if (const ZooModel* zoo = findZooModel(o.modelPreset)) { // its shipped config.json, read as --config
            const HfConfigResult read = zooModelConfig(*zoo);
            if (!read.ok())
                throw UsageError("--model-preset: " + read.error);
            return read.config->model;
        }
        throw UsageError("--model-preset: unknown model '" + o.modelPreset + "'; known: " + modelPresetIds() +
                         ", " + zooModelIds());
    }
    return std::nullopt;
}

// A size: the flag's value when given, else the preset's, else required.
void setSize(double& target, const char* option, const std::string& text, bool fromPreset,
             const std::string& model) {
    if (!text.empty() || !fromPreset)
        target = required(option, text, model);
}

} // namespace

ModelSpec toModelSpec(const ModelOptions& o) {
    ModelSpec model;
    const std::optional<ModelSpec> preset = presetModel(o);
    if (preset) {
        model = *preset;
        const std::string_view kind = modelKindName(model.kind);
        if (!o.model.empty() && o.model != kind)
            throw UsageError("--model: the preset is a " + std::string(kind) + " model; drop --model " +
                             o.model);
    } else if (o.model.empty()) {
        throw UsageError("--model is required (or give --preset or --model-preset)");
    } else {
        model.kind = *modelKindFromName(o.model); // CLI11 checked membership
    }
    const bool fromPreset = preset.has_value();
    const std::string kind(modelKindName(model.kind));
    switch (model.kind) {
    case ModelKind::dense:
        setSize(model.parameters, "--params", o.params, fromPreset, kind);
        if (!o.seq.empty())
            model.seq = parseNumberOption("--seq", o.seq);
        else if (!fromPreset)
            model.seq = 1;
        break;
    case ModelKind::cruncher:
        setSize(model.dim, "--dim", o.dim, fromPreset, kind);
        setSize(model.layers, "--layers", o.layers, fromPreset, kind);
        break;
    case ModelKind::linear2:
        setSize(model.dim, "--dim", o.dim, fromPreset, kind);
        setSize(model.out, "--out", o.out, fromPreset, kind);
        break;
    case ModelKind::transformer:
        setSize(model.dModel, "--d-model", o.dModel, fromPreset, kind);
        setSize(model.layers, "--layers", o.layers, fromPreset, kind);
        setSize(model.heads, "--heads", o.heads, fromPreset, kind);
        setSize(model.vocab, "--vocab", o.vocab, fromPreset, kind);
        setSize(model.seq, "--seq", o.seq, fromPreset, kind);
        if (!o.ffnMult.empty())
            model.ffnMult = parseNumberOption("--ffn-mult", o.ffnMult);
        applyArchitecture(o, model);
        break;
    }
    if (model.kind != ModelKind::transformer)
        refuseTransformerOptions(o, kind);
    return model;
}

void addModelOptions(CLI::App& sub, ModelOptions& o) {
    const std::vector<std::string> kinds = enumNames(allModelKinds(), modelKindName);
    sub.add_option("--model", o.model, joinNames(kinds) + " (required unless --preset or --model-preset)")
        ->check(CLI::IsMember(kinds));
    sub.add_option("--preset", o.preset,
                   "a whole setup, as the app's preset box offers it: " + setupPresetIds() +
                       "; other options override its fields");
    sub.add_option("--model-preset", o.modelPreset,
                   "a published model alone: " + modelPresetIds() + ", or a shipped config.json: " +
                       zooModelIds() + "; other options override its fields");
    sub.add_option("--params", o.params, "dense: parameter count N (70e9, 70B)");
    sub.add_option("--dim", o.dim, "cruncher, linear2: width D");
    sub.add_option("--layers", o.layers, "cruncher, transformer: number of layers L");
    sub.add_option("--out", o.out, "linear2: output width K");
    sub.add_option("--d-model", o.dModel, "transformer: hidden size d");
    sub.add_option("--heads", o.heads, "transformer: attention heads");
    sub.add_option("--vocab", o.vocab, "transformer: vocabulary size V");
    sub.add_option("--seq", o.seq, "transformer: context length S; dense: tokens per sequence (default 1)");
    sub.add_option("--ffn-mult", o.ffnMult, "transformer: MLP width / d (default 4)");
    sub.add_option("--ffn-dim", o.ffnDim, "transformer: MLP width f (overrides --ffn-mult)");
    sub.add_option("--kv-heads", o.kvHeads,
                   "transformer: key/value heads (grouped-query attention; default heads)");
    sub.add_option("--mlp", o.mlp, "transformer: MLP (default gelu)")
        ->check(CLI::IsMember(enumNames(allMlpKinds(), mlpKindName)));
    sub.add_option("--norm", o.norm, "transformer: normalisation (default layernorm)")
        ->check(CLI::IsMember(enumNames(allNormKinds(), normKindName)));
    const std::vector<std::string> onOff{std::string(onOffName(true)), std::string(onOffName(false))};
    sub.add_option("--bias", o.bias, "transformer: biases in linear layers and LayerNorm (default on)")
        ->check(CLI::IsMember(onOff));
    sub.add_option("--embeddings", o.embeddings,
                   "transformer: output head tied to the token embedding (default tied)")
        ->check(CLI::IsMember(enumNames(allEmbeddingTyings(), embeddingTyingName)));
    sub.add_option("--position", o.position, "transformer: position embeddings (default learned)")
        ->check(CLI::IsMember(enumNames(allPositionKinds(), positionKindName)));
    sub.add_option("--experts", o.experts,
                   "transformer: expert MLPs per layer, mixture of experts (default 1)");
    sub.add_option("--top-k", o.topK, "transformer: experts per token (default 1)");
    sub.add_option("--dropout", o.dropout, "transformer: dropout layers in training (default on)")
        ->check(CLI::IsMember(onOff));
    sub.add_option("--attention-impl", o.attentionImpl, "transformer: attention kernel (default eager)")
        ->check(CLI::IsMember(enumNames(allAttentionImpls(), attentionImplName)));
    sub.add_option("--activations-of", o.activationsOf,
                   "transformer: whose saved activations the ledger lists, megatron (Korthikanti et al., "
                   "default) or pytorch-eager (what PyTorch autograd keeps, checked by tests/validation/)")
        ->check(CLI::IsMember(enumNames(allActivationProfiles(), activationProfileName)));
    sub.add_option("--config", o.config,
                   "a Hugging Face config.json (llama, mistral, qwen2, gemma2, deepseek_v3, ...); other options "
                   "override what it says");
    sub.add_option("--head-dim", o.headDim, "transformer: width of one attention head (default d/heads)");
    for (auto [flag, target, what] :
         {std::tuple{"--qkv-bias", &o.qkvBias, "biases on the q, k, v projections"},
          std::tuple{"--out-bias", &o.outBias, "bias on the attention output projection"},
          std::tuple{"--mlp-bias", &o.mlpBias, "biases in the MLP and experts"},
          std::tuple{"--norm-bias", &o.normBias, "LayerNorm biases"}})
        sub.add_option(flag, *target, std::string("transformer: ") + what + " (default: --bias)")
            ->check(CLI::IsMember(onOff));
    sub.add_option("--norm-placement", o.normPlacement,
                   "transformer: norms per layer, pre 2, post 2, sandwich 4, parallel 1 (default pre)")
        ->check(CLI::IsMember(enumNames(allNormPlacements(), normPlacementName)));
    sub.add_option("--qk-norm", o.qkNorm, "transformer: RMSNorm on queries and keys (default none)")
        ->check(CLI::IsMember(enumNames(allQkNorms(), qkNormName)));
    sub.add_option("--sliding-window", o.slidingWindow,
                   "transformer: tokens a windowed layer attends to and caches (default none)");
    sub.add_option("--global-every", o.globalEvery,
                   "transformer: with a window, every k-th layer attends globally (default 0: all windowed)");
    sub.add_option("--q-lora-rank", o.qLoraRank, "transformer, MLA: query bottleneck rank (default none)");
    sub.add_option("--kv-lora-rank", o.kvLoraRank,
                   "transformer: multi-head latent attention's key/value latent rank (default 0: no MLA)");
    sub.add_option("--qk-nope-head-dim", o.qkNopeHeadDim, "transformer, MLA: query/key width without RoPE");
    sub.add_option("--qk-rope-head-dim", o.qkRopeHeadDim, "transformer, MLA: the shared RoPE key's width");
    sub.add_option("--v-head-dim", o.vHeadDim, "transformer, MLA: value width per head");
    sub.add_option("--expert-ffn-dim", o.expertFfnDim, "transformer: routed expert width (default --ffn-dim)");
    sub.add_option("--shared-ffn-dim", o.sharedFfnDim,
                   "transformer: always-on shared expert width (default 0: none)");
    sub.add_option("--shared-expert-gate", o.sharedExpertGate,
                   "transformer: d×1 gate on the shared expert (default off)")
        ->check(CLI::IsMember(onOff));
    sub.add_option("--dense-layers", o.denseLayers,
                   "transformer: the first k layers dense in a mixture of experts (default 0)");
    sub.add_option("--router-bias", o.routerBias, "transformer: E router biases per layer (default off)")
        ->check(CLI::IsMember(onOff));
    sub.add_option("--attention-sinks", o.attentionSinks,
                   "transformer: one learned sink logit per head per layer, gpt-oss (default off)")
        ->check(CLI::IsMember(onOff));
}

} // namespace napkin::cli

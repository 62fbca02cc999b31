// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/model_spec.h"

#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>
#include <utility>

namespace napkin {

double tokensPerStep(const ModelSpec& model, double batch) {
    switch (model.kind) {
    case ModelKind::cruncher:
    case ModelKind::linear2:
        return batch;
    case ModelKind::dense:
    case ModelKind::transformer:
        return batch * model.seq;
    }
    return batch;
}

double kvHeadCount(const ModelSpec& m) {
    return m.kvHeads > 0 ? m.kvHeads : m.heads;
}

double ffnWidth(const ModelSpec& m) {
    return m.ffnDim > 0 ? m.ffnDim : m.ffnMult * m.dModel;
}

double ffnMultiple(const ModelSpec& m) {
    return m.ffnDim > 0 ? m.ffnDim / m.dModel : m.ffnMult;
}

bool isMixtureOfExperts(const ModelSpec& m) {
    return m.experts > 1;
}

double headWidth(const ModelSpec& m) {
    return m.headDim > 0 ? m.headDim : m.dModel / m.heads;
}

bool isLatentAttention(const ModelSpec& m) {
    return m.kvLoraRank > 0;
}

double queryKeyHeadWidth(const ModelSpec& m) {
    return isLatentAttention(m) ? m.qkNopeHeadDim + m.qkRopeHeadDim : headWidth(m);
}

double valueHeadWidth(const ModelSpec& m) {
    return isLatentAttention(m) ? m.vHeadDim : headWidth(m);
}

bool isGatedMlp(const ModelSpec& m) {
    return m.mlp == MlpKind::swiglu || m.mlp == MlpKind::geglu;
}

double expertWidth(const ModelSpec& m) {
    return m.expertFfnDim > 0 ? m.expertFfnDim : ffnWidth(m);
}

double moeLayerCount(const ModelSpec& m) {
    return isMixtureOfExperts(m) ? m.layers - m.denseLayers : 0;
}

double normsPerLayer(const ModelSpec& m) {
    switch (m.normPlacement) {
    case NormPlacement::pre:
    case NormPlacement::post:
        return 2;
    case NormPlacement::sandwich:
        return 4;
    case NormPlacement::parallel:
        return 1;
    }
    return 2;
}

bool hasQkvBias(const ModelSpec& m) {
    return m.qkvBias.value_or(m.bias);
}
bool hasOutBias(const ModelSpec& m) {
    return m.outBias.value_or(m.bias);
}
bool hasMlpBias(const ModelSpec& m) {
    return m.mlpBias.value_or(m.bias);
}
bool hasNormBias(const ModelSpec& m) {
    return m.normBias.value_or(m.bias);
}

double windowedLayerCount(const ModelSpec& m) {
    if (m.slidingWindow <= 0)
        return 0;
    if (!m.windowedLayers.empty()) {
        double count = 0;
        for (std::size_t i = 0; i < m.windowedLayers.size() && static_cast<double>(i) < m.layers; ++i)
            count += m.windowedLayers[i] ? 1 : 0;
        return count;
    }
    if (m.globalEvery > 0)
        return m.layers - std::floor(m.layers / m.globalEvery);
    return m.layers;
}

double kvCacheElementsPerLayer(const ModelSpec& m) {
    return isLatentAttention(m) ? m.kvLoraRank + m.qkRopeHeadDim : 2 * kvHeadCount(m) * headWidth(m);
}

bool hasModernArchitecture(const ModelSpec& m) {
    // A knob set to what the older fields already say (a head width of d/a, a per-projection bias equal to
    // `bias`) is the same model, and keeps its closed forms.
    const bool ownHeadWidth = m.headDim > 0 && m.headDim * m.heads != m.dModel;
    const bool ownBias = hasQkvBias(m) != m.bias || hasOutBias(m) != m.bias || hasMlpBias(m) != m.bias ||
                         hasNormBias(m) != m.bias;
    return ownHeadWidth || ownBias || m.mlp == MlpKind::geglu ||
           m.normPlacement != NormPlacement::pre || m.qkNorm != QkNorm::none || m.slidingWindow > 0 ||
           isLatentAttention(m) || m.expertFfnDim > 0 || m.sharedFfnDim > 0 || m.sharedExpertGate ||
           m.denseLayers > 0 || m.routerBias || m.attentionSinks;
}

bool hasKorthikantiBlock(const ModelSpec& m) {
    return !hasModernArchitecture(m) && m.mlp == MlpKind::gelu && kvHeadCount(m) == m.heads && !isMixtureOfExperts(m) &&
           m.attentionImpl == AttentionImpl::eager && m.dropout && m.activationsOf == ActivationProfile::megatron;
}

namespace {
bool wholeIn(double v, double lo, double hi) {
    return std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi;
}
} // namespace

InputError validateArchitecture(const ModelSpec& m) {
    if (m.kvHeads != 0 && !wholeIn(m.kvHeads, 1, m.heads))
        return {"kv-heads", "must be a whole number from 1 to heads (" + formatNumber(m.heads) + "), got " +
                                formatNumber(m.kvHeads)};
    if (m.kvHeads != 0 && std::fmod(m.heads, m.kvHeads) != 0)
        return {"kv-heads", "must divide heads (" + formatNumber(m.heads) +
                                "): each key/value head serves a/g "
                                "query heads, got " +
                                formatNumber(m.kvHeads)};
    if (m.ffnDim != 0 && !wholeIn(m.ffnDim, 1, 1e7))
        return {"ffn-dim", "must be a whole number from 1 to 1e7, got " + formatNumber(m.ffnDim)};
    if (m.headDim != 0 && !wholeIn(m.headDim, 1, 1e5))
        return {"head-dim", "must be a whole number from 1 to 1e5, got " + formatNumber(m.headDim)};
    if (m.slidingWindow != 0 && !wholeIn(m.slidingWindow, 1, 1e8))
        return {"sliding-window", "must be a whole number from 1 to 1e8, got " + formatNumber(m.slidingWindow)};
    if (m.globalEvery != 0 && !wholeIn(m.globalEvery, 1, 1e5))
        return {"global-every", "must be a whole number from 1 to 1e5, got " + formatNumber(m.globalEvery)};
    if (!m.windowedLayers.empty() && static_cast<double>(m.windowedLayers.size()) != m.layers)
        return {"windowed-layers", "needs one entry per layer (" + formatNumber(m.layers) + "), got " +
                                       std::to_string(m.windowedLayers.size())};
    if (m.kvLoraRank != 0) {
        const std::pair<const char*, double> mla[] = {{"kv-lora-rank", m.kvLoraRank},
                                                      {"qk-nope-head-dim", m.qkNopeHeadDim},
                                                      {"qk-rope-head-dim", m.qkRopeHeadDim},
                                                      {"v-head-dim", m.vHeadDim}};
        for (const auto& [field, v] : mla)
            if (!wholeIn(v, 1, 1e5))
                return {field, "must be a whole number from 1 to 1e5 with multi-head latent attention, got " +
                                   formatNumber(v)};
    }
    if (m.qLoraRank != 0 && !wholeIn(m.qLoraRank, 1, 1e5))
        return {"q-lora-rank", "must be a whole number from 1 to 1e5, got " + formatNumber(m.qLoraRank)};
    for (const auto& [field, v] :
         {std::pair<const char*, double>{"expert-ffn-dim", m.expertFfnDim}, {"shared-ffn-dim", m.sharedFfnDim}})
        if (v != 0 && !wholeIn(v, 1, 1e7))
            return {field, "must be a whole number from 1 to 1e7, got " + formatNumber(v)};
    if (m.denseLayers != 0 && !wholeIn(m.denseLayers, 0, m.layers))
        return {"dense-layers", "must be a whole number from 0 to layers (" + formatNumber(m.layers) +
                                    "), got " + formatNumber(m.denseLayers)};
    if (!wholeIn(m.experts, 1, 1024))
        return {"experts", "must be a whole number from 1 to 1024, got " + formatNumber(m.experts)};
    if (!wholeIn(m.topK, 1, m.experts))
        return {"top-k", "must be a whole number from 1 to experts (" + formatNumber(m.experts) + "), got " +
                             formatNumber(m.topK)};
    return {};
}

namespace {
constexpr NameTable<ModelKind, 4> kModelKinds{{{ModelKind::dense, "dense"},
                                               {ModelKind::cruncher, "cruncher"},
                                               {ModelKind::linear2, "linear2"},
                                               {ModelKind::transformer, "transformer"}}};
constexpr NameTable<Recompute, 3> kRecomputes{
    {{Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}}};
constexpr NameTable<AttentionMask, 2> kAttentionMasks{
    {{AttentionMask::causal, "causal"}, {AttentionMask::full, "full"}}};
constexpr auto kAllModelKinds = valuesIn(kModelKinds);
constexpr auto kAllRecomputes = valuesIn(kRecomputes);
constexpr auto kAllAttentionMasks = valuesIn(kAttentionMasks);
} // namespace

std::string_view modelKindName(ModelKind kind) {
    return nameIn(kModelKinds, kind);
}
std::optional<ModelKind> modelKindFromName(std::string_view name) {
    return valueIn(kModelKinds, name);
}
std::span<const ModelKind> allModelKinds() {
    return kAllModelKinds;
}
std::string_view recomputeName(Recompute recompute) {
    return nameIn(kRecomputes, recompute);
}
std::optional<Recompute> recomputeFromName(std::string_view name) {
    return valueIn(kRecomputes, name);
}
std::span<const Recompute> allRecomputes() {
    return kAllRecomputes;
}
std::string_view attentionMaskName(AttentionMask mask) {
    return nameIn(kAttentionMasks, mask);
}
std::optional<AttentionMask> attentionMaskFromName(std::string_view name) {
    return valueIn(kAttentionMasks, name);
}
std::span<const AttentionMask> allAttentionMasks() {
    return kAllAttentionMasks;
}

} // namespace napkin

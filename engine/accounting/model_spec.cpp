#include "engine/accounting/model_spec.h"

#include "engine/numerics/name_table.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>

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

bool hasKorthikantiBlock(const ModelSpec& m) {
    return m.mlp == MlpKind::gelu && kvHeadCount(m) == m.heads && !isMixtureOfExperts(m) &&
           m.attentionImpl == AttentionImpl::eager && m.dropout;
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

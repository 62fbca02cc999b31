// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/architecture_options.h"

#include "engine/text/name_table.h"

namespace napkin {
namespace {
constexpr NameTable<MlpKind, 3> kMlpKinds{
    {{MlpKind::gelu, "gelu"}, {MlpKind::swiglu, "swiglu"}, {MlpKind::geglu, "geglu"}}};
constexpr NameTable<NormPlacement, 4> kNormPlacements{{{NormPlacement::pre, "pre"},
                                                       {NormPlacement::post, "post"},
                                                       {NormPlacement::sandwich, "sandwich"},
                                                       {NormPlacement::parallel, "parallel"}}};
constexpr NameTable<QkNorm, 3> kQkNorms{{{QkNorm::none, "none"}, {QkNorm::head, "head"}, {QkNorm::whole, "whole"}}};
constexpr NameTable<NormKind, 2> kNormKinds{
    {{NormKind::layernorm, "layernorm"}, {NormKind::rmsnorm, "rmsnorm"}}};
constexpr NameTable<PositionKind, 2> kPositionKinds{
    {{PositionKind::learned, "learned"}, {PositionKind::rope, "rope"}}};
constexpr NameTable<EmbeddingTying, 2> kEmbeddingTyings{
    {{EmbeddingTying::tied, "tied"}, {EmbeddingTying::untied, "untied"}}};
constexpr NameTable<AttentionImpl, 2> kAttentionImpls{
    {{AttentionImpl::eager, "eager"}, {AttentionImpl::flash, "flash"}}};
constexpr NameTable<ActivationProfile, 2> kActivationProfiles{
    {{ActivationProfile::megatron, "megatron"}, {ActivationProfile::pytorchEager, "pytorch-eager"}}};
constexpr NameTable<bool, 2> kOnOff{{{true, "on"}, {false, "off"}}};
constexpr auto kAllMlpKinds = valuesIn(kMlpKinds);
constexpr auto kAllNormKinds = valuesIn(kNormKinds);
constexpr auto kAllNormPlacements = valuesIn(kNormPlacements);
constexpr auto kAllQkNorms = valuesIn(kQkNorms);
constexpr auto kAllPositionKinds = valuesIn(kPositionKinds);
constexpr auto kAllEmbeddingTyings = valuesIn(kEmbeddingTyings);
constexpr auto kAllAttentionImpls = valuesIn(kAttentionImpls);
constexpr auto kAllActivationProfiles = valuesIn(kActivationProfiles);
} // namespace

std::string_view mlpKindName(MlpKind kind) {
    return nameIn(kMlpKinds, kind);
}
std::optional<MlpKind> mlpKindFromName(std::string_view name) {
    return valueIn(kMlpKinds, name);
}
std::span<const MlpKind> allMlpKinds() {
    return kAllMlpKinds;
}
std::string_view normPlacementName(NormPlacement placement) {
    return nameIn(kNormPlacements, placement);
}
std::optional<NormPlacement> normPlacementFromName(std::string_view name) {
    return valueIn(kNormPlacements, name);
}
std::span<const NormPlacement> allNormPlacements() {
    return kAllNormPlacements;
}
std::string_view qkNormName(QkNorm norm) {
    return nameIn(kQkNorms, norm);
}
std::optional<QkNorm> qkNormFromName(std::string_view name) {
    return valueIn(kQkNorms, name);
}
std::span<const QkNorm> allQkNorms() {
    return kAllQkNorms;
}
std::string_view normKindName(NormKind kind) {
    return nameIn(kNormKinds, kind);
}
std::optional<NormKind> normKindFromName(std::string_view name) {
    return valueIn(kNormKinds, name);
}
std::span<const NormKind> allNormKinds() {
    return kAllNormKinds;
}
std::string_view positionKindName(PositionKind kind) {
    return nameIn(kPositionKinds, kind);
}
std::optional<PositionKind> positionKindFromName(std::string_view name) {
    return valueIn(kPositionKinds, name);
}
std::span<const PositionKind> allPositionKinds() {
    return kAllPositionKinds;
}
std::string_view embeddingTyingName(EmbeddingTying tying) {
    return nameIn(kEmbeddingTyings, tying);
}
std::optional<EmbeddingTying> embeddingTyingFromName(std::string_view name) {
    return valueIn(kEmbeddingTyings, name);
}
std::span<const EmbeddingTying> allEmbeddingTyings() {
    return kAllEmbeddingTyings;
}
std::string_view attentionImplName(AttentionImpl impl) {
    return nameIn(kAttentionImpls, impl);
}
std::optional<AttentionImpl> attentionImplFromName(std::string_view name) {
    return valueIn(kAttentionImpls, name);
}
std::span<const AttentionImpl> allAttentionImpls() {
    return kAllAttentionImpls;
}
std::string_view activationProfileName(ActivationProfile profile) {
    return nameIn(kActivationProfiles, profile);
}
std::optional<ActivationProfile> activationProfileFromName(std::string_view name) {
    return valueIn(kActivationProfiles, name);
}
std::span<const ActivationProfile> allActivationProfiles() {
    return kAllActivationProfiles;
}
std::string_view onOffName(bool on) {
    return nameIn(kOnOff, on);
}
std::optional<bool> onOffFromName(std::string_view name) {
    return valueIn(kOnOff, name);
}

} // namespace napkin

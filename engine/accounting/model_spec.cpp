#include "engine/accounting/model_spec.h"

#include "engine/numerics/name_table.h"

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

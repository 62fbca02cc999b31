#include "engine/accounting/model_spec.h"

namespace napkin {

double tokensPerStep(const ModelSpec& model, double batch) {
    switch (model.kind) {
    case ModelKind::cruncher:
    case ModelKind::linear2: return batch;
    case ModelKind::dense:
    case ModelKind::transformer: return batch * model.seq;
    }
    return batch;
}

std::string_view modelKindName(ModelKind kind) {
    switch (kind) {
    case ModelKind::dense: return "dense";
    case ModelKind::cruncher: return "cruncher";
    case ModelKind::linear2: return "linear2";
    case ModelKind::transformer: return "transformer";
    }
    return "dense";
}

std::optional<ModelKind> modelKindFromName(std::string_view name) {
    for (ModelKind k : {ModelKind::dense, ModelKind::cruncher, ModelKind::linear2, ModelKind::transformer})
        if (modelKindName(k) == name)
            return k;
    return std::nullopt;
}

std::string_view recomputeName(Recompute recompute) {
    switch (recompute) {
    case Recompute::none: return "none";
    case Recompute::selective: return "selective";
    case Recompute::full: return "full";
    }
    return "none";
}

std::optional<Recompute> recomputeFromName(std::string_view name) {
    for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full})
        if (recomputeName(r) == name)
            return r;
    return std::nullopt;
}

std::string_view attentionMaskName(AttentionMask mask) {
    return mask == AttentionMask::causal ? "causal" : "full";
}

std::optional<AttentionMask> attentionMaskFromName(std::string_view name) {
    if (name == "causal")
        return AttentionMask::causal;
    if (name == "full")
        return AttentionMask::full;
    return std::nullopt;
}

} // namespace napkin

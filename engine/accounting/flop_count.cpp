#include "engine/accounting/flop_count.h"

#include "engine/accounting/parameter_count.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// At most this many "layer i" rows; deeper networks are summarised as one row.
constexpr double kMaxListedLayers = 64;

void addLayerComponents(StepFlops& flops, double layers, double perLayer,
                        const std::string& perLayerFormula) {
    if (layers <= kMaxListedLayers) {
        for (int i = 1; i <= static_cast<int>(layers); ++i)
            flops.components.push_back({"layer " + std::to_string(i), perLayer, perLayerFormula});
    } else {
        flops.components.push_back(
            {"layers 1–" + n(layers), layers * perLayer, n(layers) + " × (" + perLayerFormula + ")"});
    }
}

void transformerComponents(StepFlops& flops, const ModelSpec& m, double batch, AttentionMask mask) {
    const double d = m.dModel, L = m.layers, F = m.ffnMult, s = m.seq, T = flops.tokens;
    const double maskFactor = mask == AttentionMask::causal ? 0.5 : 1.0;
    const double scoresPerLayer = maskFactor * 4 * batch * s * s * d; // QKᵀ and A·V, 2·b·s²·d each
    flops.attentionScores = L * scoresPerLayer;
    const double projections = L * 2 * T * 4 * d * d;
    const std::string scoreFormula = std::string(mask == AttentionMask::causal ? "½ × " : "") + "4·b·s²·d";
    flops.components.push_back({"attention", projections + flops.attentionScores,
                                "L·(2·T·4d² + " + scoreFormula + ") = " + n(L) + " × (2 × " + n(T) +
                                    " × 4 × " + n(d) + "² + " + n(scoresPerLayer) +
                                    ") = " + n(projections + flops.attentionScores)});
    const double mlp = L * 2 * T * 2 * F * d * d;
    flops.components.push_back(
        {"mlp", mlp,
         "L·2·T·2F·d² = " + n(L) + " × 2 × " + n(T) + " × 2 × " + n(F) + " × " + n(d) + "² = " + n(mlp)});
    const double head = 2 * T * d * m.vocab;
    flops.components.push_back(
        {"head", head, "2·T·d·V = 2 × " + n(T) + " × " + n(d) + " × " + n(m.vocab) + " = " + n(head)});
}

} // namespace

StepFlops countStepFlops(const ModelSpec& m, double batch, Recompute recompute, AttentionMask mask) {
    StepFlops flops;
    flops.tokens = tokensPerStep(m, batch);
    const double T = flops.tokens;
    const ParameterCount params = countParameters(m);
    double headForward = 0; // the head is never recomputed

    switch (m.kind) {
    case ModelKind::dense:
        flops.components.push_back(
            {"model", 2 * T * m.parameters,
             "2·T·N = 2 × " + n(T) + " × " + n(m.parameters) + " = " + n(2 * T * m.parameters)});
        break;
    case ModelKind::cruncher: {
        const double perLayer = 2 * T * m.dim * m.dim;
        addLayerComponents(flops, m.layers, perLayer,
                           "2·B·D² = 2 × " + n(T) + " × " + n(m.dim) + "² = " + n(perLayer));
        headForward = 2 * T * m.dim;
        flops.components.push_back(
            {"head", headForward, "2·B·D = 2 × " + n(T) + " × " + n(m.dim) + " = " + n(headForward)});
        break;
    }
    case ModelKind::linear2: {
        const double first = 2 * T * m.dim * m.dim, second = 2 * T * m.dim * m.out;
        flops.components.push_back(
            {"layer 1", first,
             "2·B·D·D = 2 × " + n(T) + " × " + n(m.dim) + " × " + n(m.dim) + " = " + n(first)});
        flops.components.push_back(
            {"layer 2", second,
             "2·B·D·K = 2 × " + n(T) + " × " + n(m.dim) + " × " + n(m.out) + " = " + n(second)});
        break;
    }
    case ModelKind::transformer:
        transformerComponents(flops, m, batch, mask);
        headForward = flops.components.back().forward;
        break;
    }

    for (const ComponentFlops& c : flops.components)
        flops.forward += c.forward;
    flops.backward = 2 * flops.forward;

    if (m.kind == ModelKind::transformer) {
        flops.forwardFormula = "2·T·P_matmul + attention scores = 2 × " + n(T) + " × " +
                               n(params.matmulParameters) + " + " + n(flops.attentionScores) + " = " +
                               n(flops.forward) + " FLOPs";
    } else {
        flops.forwardFormula =
            "2·T·P = 2 × " + n(T) + " × " + n(params.matmulParameters) + " = " + n(flops.forward) + " FLOPs";
    }
    flops.backwardFormula = "2 × forward = 2 × " + n(flops.forward) + " = " + n(flops.backward) + " FLOPs";

    const bool recomputes = m.kind == ModelKind::transformer; // activations are modelled per layer there only
    if (recomputes && recompute == Recompute::full) {
        flops.recompute = flops.forward - headForward;
        flops.recomputeFormula = "forward without the head, again = " + n(flops.recompute) + " FLOPs";
    } else if (recomputes && recompute == Recompute::selective) {
        flops.recompute = flops.attentionScores;
        flops.recomputeFormula = "attention scores again = " + n(flops.recompute) + " FLOPs";
    } else {
        flops.recomputeFormula = "no recompute = 0 FLOPs";
    }

    flops.total = flops.forward + flops.backward + flops.recompute;
    flops.totalFormula = "forward + backward + recompute = " + n(flops.forward) + " + " + n(flops.backward) +
                         " + " + n(flops.recompute) + " = " + n(flops.total) + " FLOPs";
    return flops;
}

} // namespace napkin

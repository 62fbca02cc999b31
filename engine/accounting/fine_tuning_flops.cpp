// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/fine_tuning_flops.h"

#include "engine/models/transformer_parameters.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// Layer 1's attention scores forward (QKᵀ and A·V), windowed or not.
double firstLayerScores(const ModelSpec& m, double batch, AttentionMask mask) {
    bool windowed = m.slidingWindow > 0;
    if (windowed && !m.windowedLayers.empty())
        windowed = m.windowedLayers.front();
    else if (windowed && m.globalEvery == 1)
        windowed = false;
    const double scoreWidth = m.heads * (queryKeyHeadWidth(m) + valueHeadWidth(m));
    return 2 * batch * scoredPairs(m.seq, windowed ? m.slidingWindow : 0, mask) * scoreWidth;
}

// The backward FLOPs of layer 1 that autograd skips because nothing before them trains (the embedding is
// frozen): a frozen matmul whose input needs no gradient has no backward at all, an adapter on it only
// its weight gradients.
double firstLayerSkipped(const ModelSpec& m, const FineTuning& ft, double T, double batch,
                         AttentionMask mask) {
    const double d = m.dModel, r = ft.rank;
    const double q = m.heads * queryKeyHeadWidth(m), kv = kvHeadCount(m) * queryKeyHeadWidth(m);
    const double values = kvHeadCount(m) * valueHeadWidth(m), attended = m.heads * valueHeadWidth(m);
    const bool tq = targets(ft, LoraTarget::q), tk = targets(ft, LoraTarget::k),
               tv = targets(ft, LoraTarget::v);
    const bool to = targets(ft, LoraTarget::o), tg = targets(ft, LoraTarget::gate);
    const bool tu = targets(ft, LoraTarget::up);

    // q, k, v read the first norm's output, which needs no gradient.
    double skipped = 2 * T * d * (q + kv + values);
    skipped += 2 * T * r * d * ((tq ? 1 : 0) + (tk ? 1 : 0) + (tv ? 1 : 0));
    const double scores = firstLayerScores(m, batch, mask);
    const double qk = scores * queryKeyHeadWidth(m) / (queryKeyHeadWidth(m) + valueHeadWidth(m));
    const double av = scores - qk;
    // QKᵀ's backward gives dQ and dK, each only where it leads to an adapter; A·V's gives d(softmax)
    // where Q or K trains, and dV where V does.
    skipped += (tq ? 0.0 : qk) + (tk ? 0.0 : qk) + (tq || tk ? 0.0 : av) + (tv ? 0.0 : av);
    const bool attentionTrains = tq || tk || tv;
    if (!attentionTrains)
        skipped += 2 * T * attended * d + (to ? 2 * T * r * attended : 0.0);
    if (attentionTrains || to)
        return skipped; // the residual stream needs its gradient from here on

    // Nothing in attention trains: the MLP's input needs no gradient either. Layer 1's MLP is dense
    // (width f), or K routed experts (width f_e), the router and a shared expert (width f_s).
    const TransformerParameters p = transformerParameters(m);
    const double gatedShare = isGatedMlp(m) ? 2.0 / 3.0 : 1.0 / 2.0; // gate and up, or up, of the matrices
    double inWeights = 0, downInputs = 0, passes = 1; // downInputs: Σ width over the MLPs a token passes
    if (!isMixtureOfExperts(m)) {
        inWeights = gatedShare * p.expertWeights;
        downInputs = ffnWidth(m);
    } else if (m.denseLayers > 0) {
        inWeights = gatedShare * p.denseMlpWeights;
        downInputs = ffnWidth(m);
    } else {
        const double shared = m.sharedFfnDim > 0 ? 1.0 : 0.0;
        inWeights = m.topK * gatedShare * p.expertWeights + p.router +
                    shared * ((isGatedMlp(m) ? 2 : 1) * d * m.sharedFfnDim + (m.sharedExpertGate ? d : 0.0));
        downInputs = m.topK * expertWidth(m) + m.sharedFfnDim;
        passes = m.topK + shared;
    }
    const bool td = targets(ft, LoraTarget::down);
    skipped += 2 * T * inWeights;
    skipped += 2 * T * r * d * ((tg && isGatedMlp(m) ? 1 : 0) + (tu ? 1 : 0)) * passes;
    if (!tg && !tu) // the down projection's input needs no gradient either
        skipped += 2 * T * downInputs * d + (td ? 2 * T * r * downInputs : 0.0);
    return skipped;
}

} // namespace

StepFlops fineTuneStepFlops(const StepFlops& full, const ModelSpec& m, const FineTuning& ft, double batch,
                            Recompute recompute, AttentionMask mask) {
    StepFlops f = full;
    const double T = full.tokens;
    const AdapterCount adapters = countAdapters(m, ft);
    const double adapterForward = T * adapters.forwardPerToken;
    f.components.push_back({"LoRA adapters", adapterForward,
                            "2·T·Σ r·(in + out) per matrix a token passes = 2 × " + n(T) + " × " +
                                n(adapters.forwardPerToken / 2) + " = " + n(adapterForward)});
    f.forward = full.forward + adapterForward;
    const double frozenMatmuls = full.forward - full.attentionScores;
    const double skipped = firstLayerSkipped(m, ft, T, batch, mask);
    f.backward = frozenMatmuls + 2 * full.attentionScores + 2 * adapterForward - skipped;
    f.forwardFormula = "frozen base + adapters = " + n(full.forward) + " + " + n(adapterForward) + " = " +
                       n(f.forward) + " FLOPs";
    f.backwardFormula =
        "dL/dx through the frozen matmuls + 2 × scores + 2 × adapters − layer 1's unneeded = " +
        n(frozenMatmuls) + " + 2 × " + n(full.attentionScores) + " + 2 × " + n(adapterForward) + " − " +
        n(skipped) + " = " + n(f.backward) +
        " FLOPs (no weight gradient for a frozen "
        "matrix)";
    if (recompute == Recompute::full) {
        f.recompute = full.recompute + adapterForward;
        f.recomputeFormula = full.recomputeFormula + " + the adapters' forward " + n(adapterForward) + " = " +
                             n(f.recompute) + " FLOPs";
    }
    f.total = f.forward + f.backward + f.recompute;
    f.totalFormula = "forward + backward + recompute = " + n(f.forward) + " + " + n(f.backward) + " + " +
                     n(f.recompute) + " = " + n(f.total) + " FLOPs";
    return f;
}

} // namespace napkin

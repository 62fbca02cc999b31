// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/parameter_sharding.h"

#include "engine/models/parameter_count.h"
#include "engine/models/transformer_parameters.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

GpuParameters parametersOnGpu(const ModelSpec& m, const ParallelLayout& l, PipelineStage stage) {
    GpuParameters g;
    if (m.kind != ModelKind::transformer) {
        g.dense = parameterTotals(m).total;
        g.formula = "P = " + formatExact(g.dense);
        return g;
    }
    const TransformerParameters p = transformerParameters(m);
    const double t = l.tp, layers = stageLayers(l, m.layers, stage);
    const double attention =
        (p.attentionWeights + p.attentionInBiases) / t + p.attentionOutBias + p.attentionNorms;
    const double expert = (p.expertWeights + p.expertInBiases) / t + p.expertOutBias;
    const bool moe = isMixtureOfExperts(m);
    // A shared expert is split like a dense MLP (its output bias, d, replicated); the router and its bias
    // on every GPU.
    const double shared = p.shared() > 0 ? (p.shared() - (p.sharedBiases > 0 ? m.dModel : 0)) / t +
                                               (p.sharedBiases > 0 ? m.dModel : 0)
                                         : 0.0;
    double layerDense = attention + p.norms + p.router + p.routerBias + shared + (moe ? 0.0 : expert);
    double layerExperts = moe ? p.experts / l.ep * expert : 0.0;
    if (p.denseLayers > 0) {
        // Dense-first layers hold a dense MLP instead of experts, router and shared expert; spread here as
        // an average over the layers (the first stage holds them all under pipeline parallelism).
        const double denseShare = p.denseLayers / p.layers;
        layerDense += denseShare * (p.denseMlp / t - p.router - p.routerBias - shared);
        layerExperts *= 1 - denseShare;
    }

    const bool first = stage == PipelineStage::first || l.pp == 1;
    const bool last = stage == PipelineStage::last || l.pp == 1;
    double outside = 0;
    std::string outsideText;
    const bool formulas = formulasWanted(); // a search's probe reads the counts alone
    auto add = [&](double count, const char* symbol) {
        outside += count;
        if (formulas)
            concatTo(outsideText, {" + ", symbol});
    };
    if (first) {
        add(p.tokenEmbedding / t, t > 1 ? "V·d/t" : "V·d");
        if (p.positionEmbedding > 0)
            add(p.positionEmbedding, "S·d");
    }
    if (last) {
        add(p.finalNorm, "final norm");
        if (p.outputHead > 0)
            add(p.outputHead / t, t > 1 ? "V·d/t (output)" : "V·d (output)");
        else if (!first)
            add(p.tokenEmbedding / t, t > 1 ? "V·d/t (tied copy)" : "V·d (tied copy)");
    }
    g.perLayer = layerDense + layerExperts;
    g.outside = outside;
    g.dense = layers * layerDense + outside;
    g.experts = layers * layerExperts;
    if (!formulas)
        return g;
    // A layer's share on this GPU: matrices, column biases and E/ep experts divided, the rest replicated.
    g.formula = concat({l.pp == 1 ? "L" : hasUnevenStages(l) ? "L_stage" : "(L/p)", " × layer share", outsideText, " = ", n(layers), " × ",
                        n(layerDense + layerExperts), " + ", n(outside), " = ", n(g.total())});
    if (moe)
        concatTo(g.formula, {" (experts ", n(g.experts), ": ", n(p.experts / l.ep), " of ", n(p.experts),
                             " per layer on this GPU)"});
    return g;
}

} // namespace napkin

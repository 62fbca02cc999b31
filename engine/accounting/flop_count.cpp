// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/flop_count.h"

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

// The formula `spell` writes, or nothing in a search's probe, which reads the FLOPs alone (the searches
// count a step's FLOPs per probe: the literal text around the numbers is most of the cost).
template <typename Spell> std::string text(Spell spell) {
    return formulasWanted() ? spell() : std::string();
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

} // namespace

double scoredPairs(double s, double window, AttentionMask mask) {
    const double maskFactor = mask == AttentionMask::causal ? 0.5 : 1.0;
    if (window <= 0 || window >= s)
        return maskFactor * s * s;
    return maskFactor * 2 * (s * window - window * window / 2);
}

namespace {

// Today's families (head_dim, MLA, windows, shared experts, dense-first layers): projections from the
// layers' matmul weights, scores 2·b·pairs·a·(d_qk + d_v) per layer with windowed layers capped.
void modernTransformerComponents(StepFlops& flops, const ModelSpec& m, double batch, AttentionMask mask) {
    const TransformerParameters p = transformerParameters(m);
    const double L = m.layers, T = flops.tokens, s = m.seq, a = m.heads;
    const double Lw = windowedLayerCount(m), Lg = L - Lw;
    const double scoreWidth = a * (queryKeyHeadWidth(m) + valueHeadWidth(m)); // QKᵀ over d_qk, A·V over d_v
    const double globalScores = 2 * batch * scoredPairs(s, 0, mask) * scoreWidth;
    const double windowScores = 2 * batch * scoredPairs(s, m.slidingWindow, mask) * scoreWidth;
    flops.attentionScores = Lg * globalScores + Lw * windowScores;
    const double projections = 2 * T * L * p.attentionWeights;
    std::string scoreText = text([&] {
        return concat({"2·b·pairs·a·(d_qk + d_v) = ", n(Lg), " × ", n(globalScores)});
    });
    if (Lw > 0 && formulasWanted())
        concatTo(scoreText, {" + ", n(Lw), " windowed (W = ", n(m.slidingWindow), ") × ", n(windowScores)});
    flops.components.push_back({"attention", projections + flops.attentionScores, text([&] {
                                    return concat({"2·T·L·P_attn + scores = 2 × ", n(T), " × ", n(L), " × ",
                                                   n(p.attentionWeights), " + ", scoreText, " = ",
                                                   n(projections + flops.attentionScores)});
                                })});
    if (isMixtureOfExperts(m)) {
        const double Lm = p.expertLayers();
        const double experts = 2 * T * Lm * p.activeExperts * p.expertWeights;
        flops.components.push_back({"experts", experts, text([&] {
                                        return concat({"2·T·L_moe·K·P_expert = 2 × ", n(T), " × ", n(Lm),
                                                       " × ", n(p.activeExperts), " × ", n(p.expertWeights),
                                                       " = ", n(experts)});
                                    })});
        if (p.sharedWeights > 0) {
            const double shared = 2 * T * Lm * p.sharedWeights;
            flops.components.push_back({"shared expert", shared, text([&] {
                                            return concat({"2·T·L_moe·P_shared = 2 × ", n(T), " × ", n(Lm),
                                                           " × ", n(p.sharedWeights), " = ", n(shared)});
                                        })});
        }
        const double router = 2 * T * Lm * p.router;
        flops.components.push_back({"router", router, text([&] {
                                        return concat({"2·T·L_moe·d·E = 2 × ", n(T), " × ", n(Lm), " × ",
                                                       n(p.router), " = ", n(router)});
                                    })});
        if (p.denseLayers > 0) {
            const double dense = 2 * T * p.denseLayers * p.denseMlpWeights;
            flops.components.push_back({"dense-layer mlp", dense, text([&] {
                                            return concat({"2·T·L_dense·P_mlp = 2 × ", n(T), " × ",
                                                           n(p.denseLayers), " × ", n(p.denseMlpWeights),
                                                           " = ", n(dense)});
                                        })});
        }
    } else {
        const double mlp = 2 * T * L * p.expertWeights;
        flops.components.push_back({"mlp", mlp, text([&] {
                                        return concat({"2·T·L·P_mlp = 2 × ", n(T), " × ", n(L), " × ",
                                                       n(p.expertWeights), " = ", n(mlp)});
                                    })});
    }
    const double head = 2 * T * m.dModel * m.vocab;
    flops.components.push_back(
        {"head", head, text([&] {
             return concat({"2·T·d·V = 2 × ", n(T), " × ", n(m.dModel), " × ", n(m.vocab), " = ", n(head)});
         })});
}

void transformerComponents(StepFlops& flops, const ModelSpec& m, double batch, AttentionMask mask) {
    if (hasModernArchitecture(m))
        return modernTransformerComponents(flops, m, batch, mask);
    const double d = m.dModel, L = m.layers, F = ffnMultiple(m), s = m.seq, T = flops.tokens;
    const double maskFactor = mask == AttentionMask::causal ? 0.5 : 1.0;
    const double scoresPerLayer = maskFactor * 4 * batch * s * s * d; // QKᵀ and A·V, 2·b·s²·d each
    flops.attentionScores = L * scoresPerLayer;
    const std::string scoreFormula = text([&] {
        return concat({mask == AttentionMask::causal ? "½ × " : "", "4·b·s²·d"});
    });
    const double kv = kvHeadCount(m) * d / m.heads;
    if (kv == d) {
        const double projections = L * 2 * T * 4 * d * d;
        flops.components.push_back({"attention", projections + flops.attentionScores, text([&] {
                                        return concat({"L·(2·T·4d² + ", scoreFormula, ") = ", n(L),
                                                       " × (2 × ", n(T), " × 4 × ", n(d), "² + ",
                                                       n(scoresPerLayer),
                                                       ") = ", n(projections + flops.attentionScores)});
                                    })});
    } else { // grouped-query attention: K and V project to d_kv = g·d/a; the scores are as many
        const double projections = L * 2 * T * (2 * d * d + 2 * d * kv);
        flops.components.push_back(
            {"attention", projections + flops.attentionScores, text([&] {
                 return concat({"L·(2·T·(2d² + 2·d·d_kv) + ", scoreFormula, ") = ", n(L), " × (2 × ", n(T),
                                " × (2 × ", n(d), "² + 2 × ", n(d), " × ", n(kv), ") + ", n(scoresPerLayer),
                                ") = ", n(projections + flops.attentionScores)});
             })});
    }
    if (m.mlp == MlpKind::gelu && !isMixtureOfExperts(m)) {
        const double mlp = L * 2 * T * 2 * F * d * d;
        flops.components.push_back({"mlp", mlp, text([&] {
                                        return concat({"L·2·T·2F·d² = ", n(L), " × 2 × ", n(T), " × 2 × ",
                                                       n(F), " × ", n(d), "² = ", n(mlp)});
                                    })});
    } else {
        const double matrices = m.mlp == MlpKind::swiglu ? 3 : 2, f = ffnWidth(m);
        const double active = isMixtureOfExperts(m) ? m.topK : 1;
        const double mlp = L * 2 * T * active * matrices * d * f;
        const std::string k = isMixtureOfExperts(m) ? "K·" : "",
                          kNumber = isMixtureOfExperts(m) ? n(active) + " × " : "";
        flops.components.push_back({isMixtureOfExperts(m) ? "experts" : "mlp", mlp, text([&] {
                                        return concat({"L·2·T·", k, n(matrices), "·d·f = ", n(L), " × 2 × ",
                                                       n(T), " × ", kNumber, n(matrices), " × ", n(d), " × ",
                                                       n(f), " = ", n(mlp)});
                                    })});
        if (isMixtureOfExperts(m)) {
            const double router = L * 2 * T * d * m.experts;
            flops.components.push_back({"router", router, text([&] {
                                            return concat({"L·2·T·d·E = ", n(L), " × 2 × ", n(T), " × ", n(d),
                                                           " × ", n(m.experts), " = ", n(router)});
                                        })});
        }
    }
    const double head = 2 * T * d * m.vocab;
    flops.components.push_back(
        {"head", head, text([&] {
             return concat({"2·T·d·V = 2 × ", n(T), " × ", n(d), " × ", n(m.vocab), " = ", n(head)});
         })});
}

} // namespace

StepFlops countStepFlops(const ModelSpec& m, double batch, Recompute recompute, AttentionMask mask) {
    StepFlops flops;
    flops.tokens = tokensPerStep(m, batch);
    const double T = flops.tokens;
    const ParameterTotals params = parameterTotals(m);
    double headForward = 0; // the head is never recomputed

    switch (m.kind) {
    case ModelKind::dense:
        flops.components.push_back({"model", 2 * T * m.parameters, text([&] {
                                        return concat({"2·T·N = 2 × ", n(T), " × ", n(m.parameters), " = ",
                                                       n(2 * T * m.parameters)});
                                    })});
        break;
    case ModelKind::cruncher: {
        const double perLayer = 2 * T * m.dim * m.dim;
        addLayerComponents(flops, m.layers, perLayer,
                           "2·B·D² = 2 × " + n(T) + " × " + n(m.dim) + "² = " + n(perLayer));
        headForward = 2 * T * m.dim;
        flops.components.push_back(
            {"head", headForward, text([&] {
                 return concat({"2·B·D = 2 × ", n(T), " × ", n(m.dim), " = ", n(headForward)});
             })});
        break;
    }
    case ModelKind::linear2: {
        const double first = 2 * T * m.dim * m.dim, second = 2 * T * m.dim * m.out;
        flops.components.push_back(
            {"layer 1", first, text([&] {
                 return concat({"2·B·D·D = 2 × ", n(T), " × ", n(m.dim), " × ", n(m.dim), " = ", n(first)});
             })});
        flops.components.push_back(
            {"layer 2", second, text([&] {
                 return concat({"2·B·D·K = 2 × ", n(T), " × ", n(m.dim), " × ", n(m.out), " = ", n(second)});
             })});
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
        flops.forwardFormula = text([&] {
            return concat({"2·T·P_matmul + attention scores = 2 × ", n(T), " × ", n(params.matmulParameters),
                           " + ", n(flops.attentionScores), " = ", n(flops.forward), " FLOPs"});
        });
    } else {
        flops.forwardFormula = text([&] {
            return concat(
                {"2·T·P = 2 × ", n(T), " × ", n(params.matmulParameters), " = ", n(flops.forward), " FLOPs"});
        });
    }
    flops.backwardFormula = text([&] {
        return concat({"2 × forward = 2 × ", n(flops.forward), " = ", n(flops.backward), " FLOPs"});
    });

    const bool recomputes = m.kind == ModelKind::transformer; // activations are modelled per layer there only
    // Flash attention keeps no scores: its backward recomputes QKᵀ (half the score FLOPs) whatever the
    // recompute setting (Dao et al. 2022, algorithm 4).
    const bool flash = recomputes && m.attentionImpl == AttentionImpl::flash;
    const double flashScores = flash ? flops.attentionScores / 2 : 0.0;
    const std::string flashText = " + QKᵀ in flash attention's backward";
    if (recomputes && recompute == Recompute::full) {
        flops.recompute = flops.forward - headForward + flashScores;
        flops.recomputeFormula = text([&] {
            return concat({"forward without the head, again",
                           flash ? std::string_view(flashText) : std::string_view(), " = ",
                           n(flops.recompute), " FLOPs"});
        });
    } else if (recomputes && recompute == Recompute::selective && !flash) {
        flops.recompute = flops.attentionScores;
        flops.recomputeFormula = text([&] {
            return concat({"attention scores again = ", n(flops.recompute), " FLOPs"});
        });
    } else if (flash) {
        flops.recompute = flashScores;
        flops.recomputeFormula = text([&] {
            return concat({"QKᵀ again in flash attention's backward = ½ × ", n(flops.attentionScores), " = ",
                           n(flops.recompute), " FLOPs"});
        });
    } else {
        flops.recomputeFormula = text([&] { return "no recompute = 0 FLOPs"; });
    }

    flops.total = flops.forward + flops.backward + flops.recompute;
    flops.totalFormula = text([&] {
        return concat({"forward + backward + recompute = ", n(flops.forward), " + ", n(flops.backward), " + ",
                       n(flops.recompute), " = ", n(flops.total), " FLOPs"});
    });
    return flops;
}

StepFlops perGpu(const StepFlops& replica, double gpus) {
    if (gpus == 1)
        return replica;
    StepFlops f = replica;
    const std::string share = concat({" ÷ ", n(gpus), " GPUs (tp·pp·cp) = "});
    f.forward /= gpus;
    f.backward /= gpus;
    f.recompute /= gpus;
    f.total /= gpus;
    f.attentionScores /= gpus;
    concatTo(f.forwardFormula, {share, n(f.forward), " FLOPs per GPU"});
    concatTo(f.backwardFormula, {share, n(f.backward), " FLOPs per GPU"});
    concatTo(f.recomputeFormula, {share, n(f.recompute), " FLOPs per GPU"});
    concatTo(f.totalFormula, {share, n(f.total), " FLOPs per GPU"});
    for (ComponentFlops& c : f.components) {
        c.forward /= gpus;
        concatTo(c.formula, {share, n(c.forward)});
    }
    return f;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/models/parameter_count.h"

#include "engine/models/model_fingerprint.h"
#include "engine/models/transformer_parameters.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"
#include "engine/text/text_concat.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// GPT-2's own shape: the closed form 12·L·d² + 13·L·d + V·d + S·d + 2·d (generalised to F) applies.
bool isGpt2Shape(const ModelSpec& m) {
    return !hasModernArchitecture(m) && m.mlp == MlpKind::gelu && kvHeadCount(m) == m.heads &&
           !isMixtureOfExperts(m) && m.bias && m.norm == NormKind::layernorm &&
           m.embeddings == EmbeddingTying::tied && m.position == PositionKind::learned;
}

std::string gpt2Formula(const ModelSpec& m, double total) {
    const double d = m.dModel, L = m.layers, F = ffnMultiple(m), V = m.vocab, S = m.seq;
    const std::string quadratic = n(4 + 2 * F), linear = n(9 + F);
    std::string text;
    text.reserve(192); // the symbols and the numbers, in one allocation
    concatTo(text, {quadratic, "·L·d² + ", linear, "·L·d + V·d + S·d + 2·d = ", quadratic, " × ", n(L), " × ",
                    n(d), "² + ", linear, " × ", n(L), " × ", n(d)});
    concatTo(text, {" + ", n(V), " × ", n(d), " + ", n(S), " × ", n(d), " + 2 × ", n(d), " = ",
                    formatExact(total)});
    return text;
}

// The per-layer pieces in symbols: "2·d² + 2·d·d_kv + 3·d·f + 2·d" for Llama.
std::string layerSymbols(const ModelSpec& m, bool activeOnly) {
    const bool gqa = kvHeadCount(m) != m.heads, swiglu = m.mlp == MlpKind::swiglu;
    std::string attention = gqa ? "2·d² + 2·d·d_kv" : "4·d²";
    if (m.bias)
        attention += gqa ? " + 2·d + 2·d_kv" : " + 4·d";
    std::string mlp = swiglu ? "3·d·f" : "2·d·f";
    if (m.bias)
        mlp += swiglu ? " + 2·f + d" : " + f + d";
    if (isMixtureOfExperts(m))
        mlp = std::string(activeOnly ? "K" : "E") + "·(" + mlp + ") + d·E";
    const std::string norms = m.norm == NormKind::layernorm && m.bias ? "4·d" : "2·d";
    return attention + " + " + mlp + " + " + norms;
}

std::string outsideSymbols(const ModelSpec& m) {
    std::string s = m.embeddings == EmbeddingTying::untied ? "2·V·d" : "V·d";
    if (m.position == PositionKind::learned)
        s += " + S·d";
    s += m.norm == NormKind::layernorm && m.bias ? " + 2·d" : " + d";
    return s;
}

// "L·(…) + V·d + … , d_kv = g·d/a = 1024: 32 × (41943040 + 176160768 + 8192) + 525336576 + … = total"
std::string generalFormula(const ModelSpec& m, const TransformerParameters& p, bool activeOnly) {
    const double experts = activeOnly ? p.activeExperts : p.experts;
    const double mlp = experts * p.expert() + p.router;
    std::string text;
    text.reserve(320); // the symbols and the numbers below, in one allocation
    concatTo(text, {"L·(", layerSymbols(m, activeOnly), ") + ", outsideSymbols(m)});
    std::string where;
    if (kvHeadCount(m) != m.heads)
        where += "d_kv = g·d/a = " + n(kvHeadCount(m) * m.dModel / m.heads);
    if (m.ffnDim > 0 || m.mlp == MlpKind::swiglu)
        where += std::string(where.empty() ? "" : ", ") + "f = " + n(ffnWidth(m));
    if (isMixtureOfExperts(m))
        where += std::string(where.empty() ? "" : ", ") +
                 (activeOnly ? "K = " + n(p.activeExperts) + ", " : "") + "E = " + n(p.experts);
    if (!where.empty())
        concatTo(text, {" with ", where});
    concatTo(text, {": ", n(p.layers), " × (", n(p.attention()), " + ", n(mlp), " + ", n(p.norms), ") + ",
                    n(p.tokenEmbedding)});
    if (p.positionEmbedding > 0)
        concatTo(text, {" + ", n(p.positionEmbedding)});
    if (p.outputHead > 0)
        concatTo(text, {" + ", n(p.outputHead)});
    concatTo(text, {" + ", n(p.finalNorm), " = ", formatExact(activeOnly ? p.active() : p.total())});
    return text;
}

// The knobs of today's families (head_dim, MLA, shared experts, dense-first layers, sandwich norms):
// the sum by pieces, named, with each piece's number.
std::string modernFormula(const TransformerParameters& p, bool activeOnly) {
    const double experts = activeOnly ? p.activeExperts : p.experts;
    std::string text = "L_moe·(attention + " + std::string(activeOnly ? "K" : "E") + "·expert";
    std::string numbers =
        n(p.expertLayers()) + " × (" + n(p.attention()) + " + " + n(experts) + " × " + n(p.expert());
    if (p.experts <= 1) {
        text = "L·(attention + mlp";
        numbers = n(p.layers) + " × (" + n(p.attention()) + " + " + n(p.expert());
    }
    if (p.shared() > 0) {
        text += " + shared";
        numbers += " + " + n(p.shared());
    }
    if (p.router > 0) {
        text += " + router";
        numbers += " + " + n(p.router + p.routerBias);
    }
    text += " + norms)";
    numbers += " + " + n(p.norms) + ")";
    if (p.denseLayers > 0) {
        text += " + L_dense·(attention + dense mlp + norms)";
        numbers += " + " + n(p.denseLayers) + " × (" + n(p.attention()) + " + " + n(p.denseMlp) + " + " +
                   n(p.norms) + ")";
    }
    text += " + embeddings + final norm";
    numbers += " + " + n(p.tokenEmbedding + p.positionEmbedding) + " + " + n(p.finalNorm);
    if (p.outputHead > 0) {
        text += " + output";
        numbers += " + " + n(p.outputHead);
    }
    return text + " = " + numbers + " = " + formatExact(activeOnly ? p.active() : p.total());
}

ParameterCount transformerParameterCount(const ModelSpec& m) {
    const TransformerParameters p = transformerParameters(m);
    ParameterCount count;
    count.total = p.total();
    count.active = p.active();
    count.matmulParameters = p.activeMatmul();
    // Positions, biases and norms do no matmul work; the head's matmul weight is the tied token
    // embedding or the untied output matrix (V·d either way).
    count.components = {{"attention", p.layers * p.attention()}};
    if (isMixtureOfExperts(m)) {
        count.components.push_back({"experts", p.expertLayers() * p.experts * p.expert()});
        if (p.shared() > 0)
            count.components.push_back({"shared expert", p.expertLayers() * p.shared()});
        count.components.push_back({"router", p.expertLayers() * (p.router + p.routerBias)});
        if (p.denseLayers > 0)
            count.components.push_back({"dense-layer mlp", p.denseLayers * p.denseMlp});
    } else {
        count.components.push_back({"mlp", p.layers * p.expert()});
    }
    count.components.push_back({"layer norms", p.layers * p.norms + p.finalNorm});
    count.components.push_back({"embeddings", p.tokenEmbedding + p.positionEmbedding});
    if (p.outputHead > 0)
        count.components.push_back({"output", p.outputHead});
    if (!formulasWanted()) // a search's probe: the counts alone
        return count;
    if (hasModernArchitecture(m)) {
        count.formula = modernFormula(p, false);
        count.activeFormula = isMixtureOfExperts(m)
                                  ? modernFormula(p, true)
                                  : "every parameter is active = " + formatExact(count.active);
        return count;
    }
    count.formula = isGpt2Shape(m) ? gpt2Formula(m, count.total) : generalFormula(m, p, false);
    count.activeFormula = isMixtureOfExperts(m) ? generalFormula(m, p, true)
                                                : "every parameter is active = " + formatExact(count.active);
    return count;
}

} // namespace

ParameterCount countParameters(const ModelSpec& m) {
    ParameterCount count;
    switch (m.kind) {
    case ModelKind::dense:
        count.total = count.matmulParameters = m.parameters;
        count.components = {{"model", m.parameters}};
        count.formula = "N = " + formatExact(m.parameters);
        break;
    case ModelKind::cruncher: {
        const double layers = m.layers * m.dim * m.dim;
        count.total = count.matmulParameters = layers + m.dim;
        count.components = {{"layers", layers}, {"head", m.dim}};
        count.formula = "L·D² + D = " + n(m.layers) + " × " + n(m.dim) + "² + " + n(m.dim) + " = " +
                        formatExact(count.total);
        break;
    }
    case ModelKind::linear2: {
        const double first = m.dim * m.dim, second = m.dim * m.out;
        count.total = count.matmulParameters = first + second;
        count.components = {{"layer 1 (D×D)", first}, {"layer 2 (D×K)", second}};
        count.formula = "D·D + D·K = " + n(m.dim) + " × " + n(m.dim) + " + " + n(m.dim) + " × " + n(m.out) +
                        " = " + formatExact(count.total);
        break;
    }
    case ModelKind::transformer:
        return transformerParameterCount(m);
    }
    count.active = count.total;
    count.activeFormula = "every parameter is active = " + formatExact(count.active);
    return count;
}

ParameterTotals parameterTotals(const ModelSpec& model) {
    struct Entry {
        ModelSpec model;
        std::uint64_t fingerprint = 0; ///< modelFingerprint(model): compared before the whole spec
        ParameterTotals totals;
    };
    constexpr std::size_t kSlots = 8;
    thread_local std::array<Entry, kSlots> entries;
    thread_local std::array<std::size_t, kSlots> order{0, 1, 2, 3, 4, 5, 6, 7}; // most recently used first
    thread_local std::size_t used = 0;
    const auto toFront = [](std::size_t i) { // order[i] becomes the most recent; the slots stay in place
        std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(i),
                    order.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    };
    const std::uint64_t fingerprint = modelFingerprint(model);
    for (std::size_t i = 0; i < used; ++i) {
        const Entry& entry = entries[order[i]];
        if (entry.fingerprint == fingerprint && entry.model == model) {
            toFront(i);
            return entries[order.front()].totals;
        }
    }
    used = std::min(used + 1, kSlots);
    toFront(used - 1); // the least recently used slot, or a blank one
    Entry& slot = entries[order.front()];
    const ValuesOnly numbersOnly;
    const ParameterCount count = countParameters(model);
    slot = {model, fingerprint, {count.total, count.matmulParameters, count.active}};
    return slot.totals;
}

} // namespace napkin

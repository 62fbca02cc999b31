#include "engine/accounting/parameter_count.h"

#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

ParameterCount transformerParameters(const ModelSpec& m) {
    const double d = m.dModel, L = m.layers, F = m.ffnMult, V = m.vocab, S = m.seq;
    // Per layer: attention qkv (3d² + 3d) and output projection (d² + d); MLP up (F·d² + F·d) and down
    // (F·d² + d); two LayerNorms (2 × 2d). Then token and position embeddings and the final LayerNorm.
    const double attention = L * (4 * d * d + 4 * d);
    const double mlp = L * (2 * F * d * d + F * d + d);
    const double norms = L * 4 * d + 2 * d;
    const double embeddings = V * d + S * d;
    ParameterCount count;
    count.total = attention + mlp + norms + embeddings;
    // The tied token embedding is the LM head's matmul weight; position embeddings, biases and norms
    // do no matmul work.
    count.matmulParameters = L * (4 + 2 * F) * d * d + V * d;
    count.components = {
        {"attention", attention}, {"mlp", mlp}, {"layer norms", norms}, {"embeddings", embeddings}};
    const std::string quadratic = n(4 + 2 * F), linear = n(9 + F);
    count.formula = quadratic + "·L·d² + " + linear + "·L·d + V·d + S·d + 2·d = " + quadratic + " × " + n(L) +
                    " × " + n(d) + "² + " + linear + " × " + n(L) + " × " + n(d) + " + " + n(V) + " × " +
                    n(d) + " + " + n(S) + " × " + n(d) + " + 2 × " + n(d) + " = " + formatExact(count.total);
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
        return transformerParameters(m);
    }
    return count;
}

} // namespace napkin

#include "engine/accounting/activation_memory.h"

#include "engine/numerics/quantity_format.h"

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

ActivationMemory transformerActivations(const ModelSpec& m, double b, StorageType type, Recompute recompute) {
    const double s = m.seq, h = m.dModel, a = m.heads, L = m.layers, V = m.vocab;
    // Korthikanti et al. count 16-bit tensors (and 1-byte dropout masks); other dtypes scale the whole term.
    const double scale = bytesPerElement(type) / 2.0;
    const double linearCoefficient = 18 + 4 * m.ffnMult; // 34 for the usual F = 4
    double perLayerPerSample = 0;
    std::string perLayerText;
    switch (recompute) {
    case Recompute::none:
        perLayerPerSample = s * h * (linearCoefficient + 5 * a * s / h);
        perLayerText = "s·b·h·(" + n(linearCoefficient) + " + 5·a·s/h)";
        break;
    case Recompute::selective:
        perLayerPerSample = s * h * linearCoefficient;
        perLayerText = n(linearCoefficient) + "·s·b·h";
        break;
    case Recompute::full:
        perLayerPerSample = 2 * s * h;
        perLayerText = "2·s·b·h";
        break;
    }
    const double logitsPerSample = 4 * s * V;
    ActivationMemory memory;
    memory.bytesPerSample = L * perLayerPerSample * scale + logitsPerSample;
    memory.bytes = b * memory.bytesPerSample;
    const std::string scaleText =
        scale == 1.0 ? "" : " × " + n(scale) + " (" + std::string(storageTypeName(type)) + ")";
    memory.formula = "L·" + perLayerText + scaleText + " + 4·s·b·V = " + n(L) + " × " +
                     n(b * perLayerPerSample) + scaleText + " + " + n(b * logitsPerSample) + " = " +
                     n(memory.bytes) + " B";
    return memory;
}

} // namespace

ActivationMemory activationMemory(const ModelSpec& m, double batch, StorageType type, Recompute recompute) {
    const double elementBytes = bytesPerElement(type);
    ActivationMemory memory;
    switch (m.kind) {
    case ModelKind::dense:
        memory.modelled = false;
        memory.formula = "not modelled: a dense parameter count has no layers to store activations of "
                         "(choose cruncher, linear2 or transformer)";
        return memory;
    case ModelKind::cruncher:
        memory.bytesPerSample = m.dim * m.layers * elementBytes;
        memory.bytes = batch * memory.bytesPerSample;
        memory.formula = "B·D·L × " + n(elementBytes) + " B = " + n(batch) + " × " + n(m.dim) + " × " +
                         n(m.layers) + " × " + n(elementBytes) + " = " + n(memory.bytes) + " B";
        return memory;
    case ModelKind::linear2:
        memory.bytesPerSample = m.dim * elementBytes;
        memory.bytes = batch * memory.bytesPerSample;
        memory.formula = "B·D × " + n(elementBytes) + " B = " + n(batch) + " × " + n(m.dim) + " × " +
                         n(elementBytes) + " = " + n(memory.bytes) + " B";
        return memory;
    case ModelKind::transformer:
        return transformerActivations(m, batch, type, recompute);
    }
    return memory;
}

} // namespace napkin

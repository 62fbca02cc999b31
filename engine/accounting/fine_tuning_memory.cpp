// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/fine_tuning_memory.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/models/transformer_parameters.h"
#include "engine/numerics/quantity_format.h"

#include <algorithm>

namespace napkin {
namespace {

std::string n(double v) {
    return formatNumber(v);
}

// The weights bitsandbytes stores in NF4: every matrix inside the layers (attention, experts, shared
// expert, router); embeddings, head, norms and biases stay in the recipe's dtype.
double layerMatrixWeights(const ModelSpec& m) {
    if (m.kind != ModelKind::transformer)
        return 0;
    const TransformerParameters p = transformerParameters(m);
    return p.layers * p.attentionWeights +
           p.expertLayers() * (p.experts * p.expertWeights + p.sharedWeights + p.router) +
           p.denseLayers * p.denseMlpWeights;
}

// The most a layer holds (a routed-expert layer or a dense-first one): the weights streamed in at a time
// when they live on the host.
double largestLayerParameters(const ModelSpec& m) {
    if (m.kind == ModelKind::transformer) {
        const TransformerParameters p = transformerParameters(m);
        return std::max(p.expertLayers() > 0 ? p.perLayer() : 0.0,
                        p.denseLayers > 0 ? p.perDenseLayer() : 0.0);
    }
    if (m.kind == ModelKind::cruncher)
        return m.dim * m.dim;
    return 0;
}

Quantity shard(double bytes, const std::string& symbols, const std::string& numbers, bool sharded,
               double gpus) {
    const bool divided = sharded && gpus > 1;
    const double value = divided ? bytes / gpus : bytes;
    return {value, symbols + (divided ? " / GPUs" : "") + " = " + numbers +
                       (divided ? " / " + n(gpus) : std::string()) + " = " + n(value) + " B"};
}

Quantity onHost(const char* what) {
    return {0, std::string(what) + " on the host (offload) = 0 B on the GPU"};
}

} // namespace

FineTuneMemory fineTuneMemory(const ModelSpec& m, const FineTuning& ft, double parameters,
                              const BytesPerParameter& b, StorageType parameterType, int zeroStage,
                              double gpus, bool recomputeFull) {
    FineTuneMemory r;
    const bool adapters = hasAdapters(ft);
    r.adapters = countAdapters(m, ft);
    // Whole frozen layers (the Cruncher's, frozen_layers.h) are P_frozen as the base is under LoRA.
    const double frozenLayers = adapters ? 0.0 : frozenLayerParameters(m, ft.frozenLayers);
    const double trainable = adapters ? r.adapters.parameters : parameters - frozenLayers;
    const double frozen = adapters ? parameters : frozenLayers;
    const bool someFrozen = frozen > 0;
    if (adapters)
        r.trainableParameters = {trainable, "adapters: " + r.adapters.formula};
    else if (someFrozen)
        r.trainableParameters = {trainable, "P − P_frozen = " + formatExact(parameters) + " − " +
                                                formatExact(frozen) + " = " + formatExact(trainable)};
    else
        r.trainableParameters = {trainable, "every parameter trains = " + formatExact(parameters)};
    if (adapters)
        r.frozenParameters = {frozen, "the base model, frozen = " + formatExact(frozen)};
    else if (someFrozen)
        r.frozenParameters = {frozen, "layers " + frozenLayersText(ft.frozenLayers) + " frozen: " +
                                          formatExact(static_cast<double>(ft.frozenLayers.size())) +
                                          " × D² = " + formatExact(frozen)};
    else
        r.frozenParameters = {frozen, "none frozen = 0"};
    r.allParameters = {parameters + r.adapters.parameters,
                       formatExact(parameters) + " + " + formatExact(r.adapters.parameters) + " = " +
                           formatExact(parameters + r.adapters.parameters)};

    // The frozen base as stored.
    const double elementBytes = bytesPerElement(parameterType);
    const std::string dtype(storageTypeName(parameterType));
    std::string frozenSymbols = "0", frozenNumbers = "0";
    if (ft.method == FineTuneMethod::qlora) {
        const double matrices = layerMatrixWeights(m), rest = frozen - matrices;
        r.frozenWeightBytes = {matrices * nf4BytesPerWeight() + rest * elementBytes,
                               "P_layers × (0.5 + 1/64 + 4/(64·256)) B (NF4) + P_rest × " + n(elementBytes) +
                                   " B = " + formatExact(matrices) + " × " + n(nf4BytesPerWeight()) + " + " +
                                   formatExact(rest) + " × " + n(elementBytes)};
        r.frozenWeightFormat = "NF4 layer matrices + " + dtype + " embeddings, head and norms";
        frozenSymbols = "P_layers × " + n(nf4BytesPerWeight()) + " B + P_rest × " + n(elementBytes) + " B";
        frozenNumbers = formatExact(matrices) + " × " + n(nf4BytesPerWeight()) + " + " + formatExact(rest) +
                        " × " + n(elementBytes);
    } else if (someFrozen) {
        r.frozenWeightBytes = {frozen * elementBytes, "P_frozen × " + n(elementBytes) + " B = " +
                                                          formatExact(frozen) + " × " + n(elementBytes)};
        r.frozenWeightFormat = dtype;
        frozenSymbols = "P_frozen × " + n(elementBytes) + " B";
        frozenNumbers = formatExact(frozen) + " × " + n(elementBytes);
    }
    r.frozenWeightBytes.formula += " = " + n(r.frozenWeightBytes.value) + " B";

    const std::string t = adapters ? "P_lora" : someFrozen ? "P_trainable" : "P";
    const std::string tn = formatExact(trainable);
    const auto trainableShare = [&](double bytes, const char* what, bool sharded) -> Quantity {
        if (bytes == 0)
            return {0, std::string("no ") + what + " = 0 B"};
        return shard(trainable * bytes, t + " × " + n(bytes) + " B", tn + " × " + n(bytes), sharded, gpus);
    };
    // Weights: the frozen base plus the trainable copies, both sharded by ZeRO-3.
    const double weightBytes = r.frozenWeightBytes.value + trainable * b.parameters;
    r.states.parameters =
        someFrozen ? shard(weightBytes, frozenSymbols + " + " + t + " × " + n(b.parameters) + " B",
                           frozenNumbers + " + " + tn + " × " + n(b.parameters), zeroStage >= 3, gpus)
                   : trainableShare(b.parameters, "parameters", zeroStage >= 3);
    r.states.gradients = trainableShare(b.gradients, "gradients", zeroStage >= 2);
    r.states.masterWeights = trainableShare(b.masterWeights, "master weights", zeroStage >= 1);
    r.states.optimizerState = trainableShare(b.optimizerState, "optimizer state", zeroStage >= 1);

    // ZeRO-Offload: the states the CPU updates live in host memory; the GPU sends its gradients and takes
    // back the updated weights every step. With the weights on the host too, each layer's are streamed
    // in for forward, backward (and recompute), and the GPU holds one layer's at a time.
    double host = 0;
    std::string hostText;
    if (ft.offload != Offload::none) {
        host = r.states.masterWeights.value + r.states.optimizerState.value;
        hostText = "master weights + optimizer state = " + n(r.states.masterWeights.value) + " + " +
                   n(r.states.optimizerState.value);
        r.states.masterWeights = onHost("master weights");
        r.states.optimizerState = onHost("optimizer state");
        const double updated = trainable * b.parameters / (zeroStage >= 1 ? gpus : 1.0);
        r.linkBytesToHost = {r.states.gradients.value,
                             "the gradients this GPU holds = " + n(r.states.gradients.value) + " B"};
        r.linkBytesToGpu = {updated, "updated weights " + t + " × " + n(b.parameters) + " B" +
                                         (zeroStage >= 1 && gpus > 1 ? " / GPUs" : "") + " = " + n(updated) +
                                         " B"};
    }
    if (ft.offload == Offload::optimizerAndParams) {
        const double all = r.states.parameters.value;
        host += all;
        hostText += " + weights " + n(all);
        const double perParameterBytes =
            parameters > 0 ? weightBytes / (parameters + r.adapters.parameters) : 0;
        const double layer = largestLayerParameters(m) * perParameterBytes;
        r.states.parameters = {
            layer, "one layer's weights at a time, the rest on the host = " + n(largestLayerParameters(m)) +
                       " × " + n(perParameterBytes) + " B = " + n(layer) + " B"};
        const double passes = recomputeFull ? 3 : 2;
        const double streamed = passes * weightBytes;
        r.linkBytesToGpu = {r.linkBytesToGpu.value + streamed,
                            r.linkBytesToGpu.formula + " + every weight " + n(passes) + " times (forward, " +
                                (recomputeFull ? "recompute, " : "") + "backward) = " + n(passes) + " × " +
                                n(weightBytes) + " B = " + n(r.linkBytesToGpu.value + streamed) + " B"};
    }
    if (host > 0)
        r.hostBytes = {host, hostText + " = " + n(host) + " B"};

    // What "the largest model" scales: model states per base parameter.
    const double states = r.states.parameters.value + r.states.gradients.value +
                          r.states.masterWeights.value + r.states.optimizerState.value;
    r.states.bytesPerParameterPerGpu = parameters > 0 ? states / parameters : 0;
    r.states.bytesPerParameterPerGpuFormula = "model states on the GPU / P = " + n(states) + " / " +
                                              formatExact(parameters) + " = " +
                                              n(r.states.bytesPerParameterPerGpu) + " B";
    return r;
}

Quantity frozenBytesPerParameter(const FineTuneMemory& fineTune) {
    const double frozen = fineTune.frozenParameters.value;
    if (frozen <= 0)
        return {};
    const double bytes = fineTune.frozenWeightBytes.value / frozen;
    return {bytes, "frozen base as stored / frozen parameters = " +
                       formatNumber(fineTune.frozenWeightBytes.value) + " / " + formatExact(frozen) + " = " +
                       formatNumber(bytes) + " B (" + fineTune.frozenWeightFormat + ")"};
}

} // namespace napkin

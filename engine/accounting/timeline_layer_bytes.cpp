// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/timeline_layer_bytes.h"

#include "engine/models/model_fingerprint.h"
#include "engine/models/parameter_count.h"
#include "engine/text/formula_text.h"

#include <cstdint>
#include <optional>

namespace napkin {
namespace {

/// Batch-free sums of one model: bytes(b) = b · perSample + fixed for each activationMemory() asked.
struct LinearBytes {
    double perSample = 0, fixed = 0;
    double at(double batch) const { return batch * perSample + fixed; } // activationMemory()'s own expression
};

// activationMemory() sums bytes = b·bytesPerSample + fixed: at b = 0 that is `fixed` exactly, and the
// bytes per sample do not depend on b.
LinearBytes linearBytes(const ModelSpec& model, StorageType activations, Recompute recompute,
                        double adapters) {
    const ValuesOnly bytesOnly; // read for their bytes alone
    const ActivationMemory a = activationMemory(model, 0, activations, recompute, adapters);
    return {a.bytesPerSample, a.bytes};
}

ModelSpec withLayers(ModelSpec m, double layers) {
    m.layers = layers;
    return m;
}

struct Sums {
    ModelSpec model;
    std::uint64_t fingerprint = 0;
    StorageType activations = StorageType::fp32;
    Recompute recompute = Recompute::none;
    double adapters = 0;
    LinearBytes logits, layer, layerWhole;
    double layerParameters = 0;
};

Sums sumsFor(const ModelSpec& m, std::uint64_t fingerprint, StorageType type, Recompute recompute,
             double adapters) {
    const ModelSpec one = withLayers(m, 1), none = withLayers(m, 0);
    Sums s;
    s.model = m;
    s.fingerprint = fingerprint;
    s.activations = type;
    s.recompute = recompute;
    s.adapters = adapters;
    s.logits = linearBytes(none, type, recompute, 0);
    s.layer = linearBytes(one, type, recompute, adapters);
    s.layerWhole = recompute == Recompute::none ? s.layer : linearBytes(one, type, Recompute::none, adapters);
    s.layerParameters = parameterTotals(one).total - parameterTotals(none).total;
    return s;
}

} // namespace

TimelineLayerBytes timelineLayerBytes(const ModelSpec& model, double batch, StorageType activations,
                                      Recompute recompute, double adapterElementsPerToken) {
    thread_local std::optional<Sums> last; // a search's probes ask for the same model again and again
    const std::uint64_t fingerprint = modelFingerprint(model);
    if (!last || last->fingerprint != fingerprint || last->activations != activations ||
        last->recompute != recompute || last->adapters != adapterElementsPerToken || !(last->model == model))
        last = sumsFor(model, fingerprint, activations, recompute, adapterElementsPerToken);
    const double logits = last->logits.at(batch);
    return {logits, last->layer.at(batch) - logits, last->layerWhole.at(batch) - logits,
            last->layerParameters};
}

} // namespace napkin

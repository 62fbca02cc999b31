// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Frozen layers of a chain of bias-free matmuls (the Cruncher: L layers then a head that always trains):
// which layers train, what backward must still run through, and which activations autograd keeps. One
// rule, read by the accounting's prediction (memory_timeline.cpp, stage_memory.cpp) and by every trainer.
//
// A frozen layer has no weight gradient, no optimizer state and no master weights; its weights stay as
// stored. Backward runs from the head down to the lowest layer that trains and no further: that layer
// computes no gradient of its input, since nothing below it trains. y = x·W keeps its input x for
// backward only when W trains (dW = xᵀ·dy); passing dL/dy back through a frozen layer (dx = dy·Wᵀ)
// needs its weights alone, as torch.mm's autograd saves them. So a frozen layer's input is not kept: it
// is a temporary from the forward of the layer that made it to the forward of the frozen layer.
#include "engine/accounting/activation_memory.h"
#include "engine/models/model_spec.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// Layer `layer` (counted from 1) trains: it is not in `frozen`.
bool layerTrains(std::span<const long> frozen, long layer);
/// The lowest layer that trains; `layers` + 1 when none does (the head alone trains).
long lowestTrainingLayer(std::span<const long> frozen, long layers);
/// Layer `layer` computes dL/d(its input): some layer below it trains.
bool computesInputGradient(std::span<const long> frozen, long layers, long layer);
/// h_l, the output of layer `layer` (1 to L), is kept for backward: the layer it feeds (or the head, for
/// l = L) trains.
bool outputKept(std::span<const long> frozen, long layers, long layer);
/// How many of h_1 … h_L are kept.
long keptOutputs(std::span<const long> frozen, long layers);

/// Parameters of the frozen layers: |frozen|·D² for the Cruncher.
double frozenLayerParameters(const ModelSpec& model, std::span<const long> frozen);

/// The Cruncher's activations with `frozen` layers: B·D bytes per kept output (B·D·L when all train).
ActivationMemory cruncherActivations(const ModelSpec& model, double batch, StorageType type,
                                     std::span<const long> frozen);

/// "1-3,5" or "2": layer numbers and inclusive ranges, counted from 1, each in 1..`layers`; nullopt for
/// anything else (empty parts, a range backwards, a layer named twice, a number out of range). Sorted.
std::optional<std::vector<long>> frozenLayersFromText(std::string_view text, long layers);
/// The same list as text, runs written as ranges: {1, 2, 3, 5} → "1-3,5"; "" for none.
std::string frozenLayersText(std::span<const long> frozen);

} // namespace napkin

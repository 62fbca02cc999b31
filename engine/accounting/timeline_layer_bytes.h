// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the memory timeline adds and frees per transformer layer: a layer's kept and recreated activations,
// the head's logits and a layer's parameter count. A search probes one model at several batches and
// builds a timeline per probe; the bytes are linear in the batch (b·per-sample + fixed), so the last
// model's per-sample sums are kept per thread and each probe is a few multiplications, bit for bit the
// activationMemory() bytes it would have asked for.
#include "engine/accounting/activation_memory.h"

namespace napkin {

struct TimelineLayerBytes {
    double logits = 0; ///< activationMemory(model with 0 layers): the head's tensors (fp32 4·s·b·V)
    double kept = 0;   ///< one layer's saved tensors under the recompute mode
    double whole = 0;  ///< one layer's tensors with no recompute (what a recomputed layer re-creates)
    double layerParameters = 0; ///< parameters of one layer (1 layer less 0 layers)
};

/// For `model` at `batch` sequences with `activations` and `recompute`, and LoRA's adapter elements per
/// token per layer; the same numbers as the activationMemory() calls they stand for.
TimelineLayerBytes timelineLayerBytes(const ModelSpec& model, double batch, StorageType activations,
                                      Recompute recompute, double adapterElementsPerToken);

} // namespace napkin

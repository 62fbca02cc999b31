#pragma once
// Bytes of activations kept for the backward pass.
#include "engine/accounting/model_spec.h"
#include "engine/numerics/storage_type.h"

#include <string>

namespace napkin {

struct ActivationMemory {
    bool modelled = true;      ///< false for `dense`, which has no architecture to count
    double bytes = 0;          ///< for the whole batch
    double bytesPerSample = 0; ///< for a batch of one (activations are linear in the batch)
    std::string formula;
};

/// cruncher: B·D·L elements (the lecture's count: each layer's B×D output).
/// linear2: B·D elements (the hidden activation).
/// transformer (Korthikanti et al. 2022, 16-bit activations, scaled by dtype bytes / 2):
///   per layer s·b·h·(18 + 4F + 5·a·s/h) bytes with no recompute (34 + 5as/h for F = 4),
///   s·b·h·(18 + 4F) selective, 2·s·b·h full; plus the fp32 logits 4·s·b·V.
ActivationMemory activationMemory(const ModelSpec& model, double batch, StorageType activations,
                                  Recompute recompute);

} // namespace napkin

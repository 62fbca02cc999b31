// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bytes of activations kept for the backward pass, on one GPU.
#include "engine/accounting/activation_ledger.h"
#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout.h"
#include "engine/numerics/storage_type.h"

#include <string>
#include <vector>

namespace napkin {

/// One tensor of the ledger as one GPU holds it.
struct ActivationLedgerRow {
    std::string name, savedFor, dtype;
    double elements = 0;  ///< on this GPU: per layer and micro-batch (`perLayer`), else once
    double bytes = 0;     ///< elements × bytes per element
    bool perLayer = true; ///< false for the logits, kept once on the last stage
    bool routed = false;  ///< ActivationTensor::routed: in PyTorch one tensor per expert, summed here
};

struct ActivationMemory {
    bool modelled = true;      ///< false for `dense`, which has no architecture to count
    double bytes = 0;          ///< for the whole batch
    double bytesPerSample = 0; ///< for a batch of one (activations are linear in the batch)
    std::string formula;
    std::vector<ActivationLedgerRow> ledger; ///< transformer: the tensors behind `bytes`, on this GPU
    double layers = 0;                       ///< transformer: layers on this GPU (L/p)
    /// transformer: the parts of `bytes` (pipeline_stages.h rebuilds other stages from them): one
    /// micro-batch's L/p layers, what the layers hold whatever the batch (masks), and the head's (logits)
    double layerBytesPerMicroBatch = 0, layerFixedBytes = 0, headBytes = 0;
    double microBatchesInFlight = 1;         ///< transformer: micro-batches whose activations are held
    std::string describes; ///< transformer: whose saved tensors the ledger lists, and what checks them
    /// What PyTorch's caching allocator adds by rounding each saved tensor up to 512 bytes
    /// (caching_allocator.h), summed over the tensors `bytes` counts; computed in a search's probe too.
    double allocatorRoundingBytes = 0;
};

/// cruncher: B·D·L elements (the lecture's count: each layer's B×D output).
/// linear2: B·D elements (the hidden activation).
/// transformer (Korthikanti et al. 2022, 16-bit activations):
///   per layer s·b·h·(18 + 4F + 5·a·s/h) bytes with no recompute (34 + 5as/h for F = 4),
///   s·b·h·(18 + 4F) selective, 2·s·b·h full; plus the fp32 logits 4·s·b·V. Other architectures, and
///   every architecture with fp32 activations (1-byte masks, 4-byte tensors), sum layerActivationLedger().
/// adapterElementsPerToken: LoRA's r-wide x·A per layer per token (fine_tuning.h), a ledger row of its
/// own unless full recompute drops it.
ActivationMemory activationMemory(const ModelSpec& model, double batch, StorageType activations,
                                  Recompute recompute, double adapterElementsPerToken = 0);

/// As above on one GPU of `stage` under `layout` (Korthikanti et al. 2022, Table 2): per layer
/// s·b·h·(10 + 24/t + 5·a·s/(h·t)) with tensor parallelism, s·b·h·(34 + 5·a·s/h)/t with sequence
/// parallelism too, 34·s·b·h/t selective, 2·s·b·h (/t with sp) full; everything /cp; L/p layers; the
/// first stage holds min(p, m) micro-batches, the last one plus the logits 4·s·b·V/t.
ActivationMemory activationMemory(const ModelSpec& model, double batch, StorageType activations,
                                  Recompute recompute, const ParallelLayout& layout, PipelineStage stage,
                                  double adapterElementsPerToken = 0);

} // namespace napkin

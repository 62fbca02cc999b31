// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What fine-tuning does to the model states of one data-parallel GPU: gradients, master weights and
// optimizer state for the trainable parameters only, the frozen base in its storage format (NF4 for
// QLoRA), and the states ZeRO-Offload moves to the host with the bytes its link carries each step.
#include "engine/accounting/fine_tuning.h"
#include "engine/accounting/model_state_memory.h"

#include <optional>
#include <string>

namespace napkin {

struct FineTuneMemory {
    AdapterCount adapters;
    Quantity trainableParameters;             ///< adapters (LoRA, QLoRA) or every parameter (full)
    Quantity frozenParameters;                ///< the base under LoRA and QLoRA, frozen layers; else 0
    Quantity allParameters;                   ///< base + adapters: PEFT's "all params"
    Quantity frozenWeightBytes;               ///< the frozen base as stored, before ZeRO-3 sharding
    std::string frozenWeightFormat;           ///< "bf16", "NF4 layers + bf16 embeddings, head and norms"
    ModelStateMemory states;                  ///< on the GPU (offloaded states are 0 here)
    Quantity hostBytes;                       ///< what the host holds for this GPU's process (offload)
    Quantity linkBytesToHost, linkBytesToGpu; ///< per step, over the host link (offload)
};

/// `parameters`: the base model's count (countParameters); `perParameter`: the recipe's bytes per
/// trainable parameter; over `gpus` data-parallel GPUs at `zeroStage`. `recomputeFull`: the layer's
/// weights are streamed once more for recompute when they live on the host.
FineTuneMemory fineTuneMemory(const ModelSpec& model, const FineTuning& fineTuning, double parameters,
                              const BytesPerParameter& perParameter, StorageType parameterType, int zeroStage,
                              double gpus, bool recomputeFull);

/// The frozen base's bytes per parameter as stored (QLoRA's NF4 layers with their scales and the bf16
/// embeddings, LoRA's bf16 base): what "bytes per parameter" is for the parameters that are not trained,
/// beside the recipe's ledger for those that are. 0 (and no formula) when nothing is frozen.
Quantity frozenBytesPerParameter(const FineTuneMemory& fineTune);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bytes per parameter as a ledger, and the model states (params, grads, master, optimizer state)
// held by one GPU under ZeRO sharding.
#include "engine/accounting/optimizer_kind.h"
#include "engine/accounting/precision_recipe.h"

#include <span>
#include <string>

namespace napkin {

struct BytesPerParameter {
    double parameters = 0, gradients = 0, masterWeights = 0;
    double optimizerStatePerTensor = 0;
    int optimizerStateTensors = 0;
    double optimizerState = 0; ///< optimizerStatePerTensor × optimizerStateTensors
    double total = 0;
    std::string ledger; ///< "2 + 4 + 4 + 4 + 4 = 18 B" (params + grads + master + each state tensor)
};

/// The unsharded bytes each parameter costs under a precision recipe and optimizer.
BytesPerParameter bytesPerParameter(const PrecisionLedger& ledger, OptimizerKind optimizer);

struct Quantity {
    double value = 0;
    std::string formula;
};

struct ModelStateMemory {
    Quantity parameters, gradients, masterWeights, optimizerState;
    double bytesPerParameterPerGpu = 0; ///< after sharding
    std::string bytesPerParameterPerGpuFormula;
};

/// ZeRO (Rajbhandari et al. 2020) over `gpus` data-parallel GPUs: stage 1 shards optimizer state and
/// master weights, stage 2 also gradients, stage 3 also parameters. Stage 0 replicates everything.
ModelStateMemory modelStateMemory(double parameters, const BytesPerParameter& perParameter, int zeroStage,
                                  double gpus);

/// Parameters one GPU holds that `ranks` GPUs replicate (and ZeRO shards over), with the symbols its
/// formula uses ("P_dense", "dp·cp").
struct ParameterShard {
    double parameters = 0;
    double ranks = 1;
    std::string symbol = "P";
    std::string ranksSymbol = "GPUs";
};

/// As above for a GPU holding several such groups (a mixture of experts under expert parallelism: the
/// dense weights replicated over dp·cp GPUs, the experts over dp·cp/ep); each is sharded over its own.
/// bytesPerParameterPerGpu is that of the first group. `twoGradientCopies` (ZeRO-1/2 as DeepSpeed's
/// stage_1_and_2.py keeps them): the gradients are the recipe's gradient buffer whole plus an fp32
/// partition, P × g B + P × 4 B / ranks (estimate_zero2_model_states_mem_needs: 4Ψ + 16Ψ/N with bf16).
ModelStateMemory modelStateMemory(std::span<const ParameterShard> groups,
                                  const BytesPerParameter& perParameter, int zeroStage,
                                  bool twoGradientCopies = false);

} // namespace napkin

#pragma once
// The napkin math of training: memory per GPU, FLOPs per step, training time, and the inverse
// questions (largest model, largest batch). Pure functions of plain structs; microseconds per call.
#include "engine/accounting/activation_memory.h"
#include "engine/accounting/flop_count.h"
#include "engine/accounting/model_spec.h"
#include "engine/accounting/model_state_memory.h"
#include "engine/accounting/optimizer_kind.h"
#include "engine/accounting/parameter_count.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct AccountingInput {
    ModelSpec model;
    double batch = 1;                     ///< sequences (examples) per GPU per step
    std::optional<double> trainingTokens; ///< total tokens (examples) trained on; unset: no training totals
    PrecisionRecipe precision = PrecisionRecipe::fp32;
    bool fp32Gradients = false; ///< keep gradients in fp32 under a 16-bit recipe
    OptimizerKind optimizer = OptimizerKind::adamw;
    std::string gpu = "H100-SXM";
    double gpus = 1;
    double mfu = 0.5; ///< model FLOPs utilisation in (0, 1]
    int zeroStage = 0;
    Recompute recompute = Recompute::none;
    AttentionMask attention = AttentionMask::causal;
    bool operator==(const AccountingInput&) const = default;
};

/// A rejected input: `field` names the input ("mfu", "dim", ...), `message` says why.
struct InputError {
    std::string field;
    std::string message;
    bool ok() const { return field.empty(); }
};

struct MemoryPerGpu {
    Quantity parameters, gradients, masterWeights, optimizerState, activations, total;
};

struct AccountingResult {
    ParameterCount parameters;
    PrecisionLedger precision;
    BytesPerParameter bytesPerParameter;
    MemoryPerGpu memory; ///< bytes on each GPU
    bool activationsModelled = true;
    StepFlops flopsPerStep; ///< per GPU (each GPU runs `batch` sequences)
    Quantity flopsPerToken; ///< flopsPerStep.total / tokens per step
    std::optional<Quantity> trainingFlops, trainingSeconds, trainingDays, gpuDays;
    Quantity densePeakFlopsPerSecond; ///< of the GPU for the recipe's compute dtype
    Quantity capacityBytes;           ///< of one GPU, as the datasheet states it
    bool fits = false;
    Quantity maxParameters;           ///< largest N whose model states fit on each GPU
    std::optional<Quantity> maxBatch; ///< largest batch that fits; unset when activations are not modelled
    std::vector<std::string> notes;   ///< assumptions worth knowing about this result
};

/// Checks every input; the first problem found, or an InputError with an empty field.
InputError validate(const AccountingInput& input, const GpuCatalog& catalog = GpuCatalog::builtIn());

/// The full accounting. Precondition: validate(input, catalog).ok() and `gpu` is the input's GPU.
AccountingResult account(const AccountingInput& input, const GpuSpec& gpu);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The napkin math of training: memory per GPU, FLOPs per step, training time, and the inverse
// questions (largest model, largest batch, longest sequence). Pure functions of plain structs; microseconds
// per call.
#include "engine/accounting/activation_memory.h"
#include "engine/accounting/communication.h"
#include "engine/accounting/fine_tuning_memory.h"
#include "engine/accounting/flop_count.h"
#include "engine/accounting/gathered_layers.h"
#include "engine/models/input_error.h"
#include "engine/accounting/memory_overheads.h"
#include "engine/models/model_spec.h"
#include "engine/accounting/model_state_memory.h"
#include "engine/accounting/optimizer_implementation.h"
#include "engine/accounting/optimizer_kind.h"
#include "engine/accounting/parallel_layout.h"
#include "engine/models/parameter_count.h"
#include "engine/accounting/pipeline_stage_row.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/accounting/run_cost.h"
#include "engine/accounting/sharding_options.h"
#include "engine/hardware/gpu_catalog.h"

#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct AccountingInput {
    ModelSpec model;
    double batch = 1; ///< micro-batch: sequences (examples) per model replica per micro-step
    std::optional<double> trainingTokens; ///< total tokens (examples) trained on; unset: no training totals
    PrecisionRecipe precision = PrecisionRecipe::fp32;
    bool fp32Gradients = false; ///< keep gradients in fp32 under a 16-bit recipe
    OptimizerKind optimizer = OptimizerKind::adamw;
    /// How torch.optim runs it, for the pytorch-eager profile's optimizer step: torch ≥ 2.0's default on a
    /// GPU (foreach) unless set; single-tensor is its default on the CPU (optimizer_implementation.h).
    OptimizerImplementation optimizerImplementation = OptimizerImplementation::forEach;
    std::string gpu = "H100-SXM";
    double gpus = 1;
    double mfu = 0.5; ///< model FLOPs utilisation in (0, 1]
    int zeroStage = 0;
    Recompute recompute = Recompute::none;
    AttentionMask attention = AttentionMask::causal;
    ParallelLayout parallel; ///< tp, pp, cp, ep, sp, micro-batches; data parallel over the rest of `gpus`
    ShardingOptions sharding; ///< DeepSpeed's two gradient copies, ZeRO-3/FSDP's gathered layers, HSDP
    FineTuning fineTuning;   ///< full training by default; LoRA/QLoRA adapters, offloading (fine_tuning.h)
    RunCostInput cost;       ///< price per GPU-hour, power fraction, PUE, grid intensity (run_cost.h)
    /// What "fits" is judged against and which overhead lines count (memory_overheads.h): usable memory
    /// with the overheads by default; datasheetOverheads() for the lecture's 80 GB = 80e9 and none.
    MemoryOverheadSettings overheads;
    bool operator==(const AccountingInput&) const = default;
};

struct MemoryPerGpu {
    Quantity parameters, gradients, masterWeights, optimizerState, activations, total;
};

struct AccountingResult {
    ParameterCount parameters;
    PrecisionLedger precision;
    BytesPerParameter bytesPerParameter;
    MemoryPerGpu memory; ///< bytes on each GPU (the most loaded pipeline stage's)
    bool activationsModelled = true;
    StepFlops flopsPerStep;         ///< per GPU: a replica's batch·microbatches sequences ÷ (tp·pp·cp)
    Quantity flopsPerToken;         ///< the replica's FLOPs per step / its tokens per step
    Quantity hardwareFlopsPerToken; ///< as flopsPerToken with the recompute included
    /// Model FLOPs (forward + backward, recompute excluded: PaLM's MFU numerator) over the training
    /// tokens, and the hardware FLOPs (recompute included) the GPUs actually run.
    std::optional<Quantity> trainingFlops, trainingHardwareFlops, trainingSeconds, trainingDays, gpuDays;
    Quantity hfu;                     ///< hardware FLOPs utilisation: MFU × hardware FLOPs / model FLOPs
    Quantity densePeakFlopsPerSecond; ///< of the GPU for the recipe's compute dtype; 0 where it has none
    /// Why the time answers (training time and days, GPU-days, the run's cost, an offloaded step's compute
    /// seconds) are missing although the tokens are given: the part has no dense peak for the recipe's
    /// compute dtype (gpu_capabilities.h: fp8 on Ampere, a peak no source gives, as on Apple's M4 Max).
    /// Memory, fits, the largest model and batch need no peak and are answered. Empty when the peak stands.
    std::string timeUnavailable;
    Quantity capacityBytes;           ///< of one GPU, as the datasheet states it
    /// The largest total over one steady training step (memory_timeline.h): what the allocator must hold.
    /// The sum `memory.total` can be above it (activations are freed while gradients appear) or below it
    /// (backward's temporaries, recompute's re-created activations).
    Quantity peakMemory;
    std::string peakEvent;        ///< "backward layer 96": the first event at the peak
    bool peakFromTimeline = true; ///< false: the step's order is not modelled, the peak is the sum
    bool fits = false;            ///< predictedBytes ≤ usableBytes
    std::string fitsFormula;      ///< "peak 95.4e9 B at backward layer 96 > 80e9 B; the sum is 65.65e9 B"
    MemoryOverheads overheads;    ///< the overhead ledger (memory_overheads.h): its lines, usable memory
    Quantity usableBytes; ///< what `fits` is judged against: the datasheet's, or what the driver reports
    Quantity
        predictedBytes;     ///< peakMemory + the counted overhead lines (= peakMemory in the datasheet basis)
    Quantity maxParameters; ///< largest N whose model states (the peak at the optimizer step) fit
    std::optional<Quantity>
        maxBatch; ///< largest batch whose peak fits; unset when activations are not modelled
    /// Largest sequence length whose peak fits at this batch (max_sequence.h); unset as maxBatch is, and
    /// for models without a sequence.
    std::optional<Quantity> maxSequence;
    std::vector<std::string> notes; ///< assumptions worth knowing about this result

    // Parallel layouts (parallel_layout.h): what they do to the answers above.
    Quantity dataParallel;                    ///< dp = GPUs / (tp·pp·cp)
    Quantity globalBatch;                     ///< sequences per step over all GPUs: batch·microbatches·dp
    Quantity pipelineBubbleFraction;          ///< (p − 1)/(m + p − 1) of the step idle
    std::optional<PipelineStage> memoryStage; ///< the stage `memory` describes when pp > 1
    Quantity parametersOnGpu;                 ///< weights on that GPU before ZeRO (parameter_sharding.h)
    ActivationMemory activations;             ///< the activation ledger behind memory.activations
    CommunicationLedger communication;        ///< bytes and seconds one GPU sends per step
    /// ZeRO-3/FSDP's gathered layers and reduce buffers above the shards (gathered_layers.h), counted in
    /// memory.total and the timeline; empty without --gathered-layers.
    GatheredWorkingSet gathered;
    /// Every pipeline stage's GPU, first to last (pipeline_stages.h); empty without a pipeline and in a
    /// search's probe.
    std::vector<PipelineStageRow> pipelineStages;
    Quantity maxParametersPooled;             ///< largest N whose model states fit all GPUs' memory pooled
    std::string fitAdvice;                    ///< when even batch 1 does not fit: what would; else empty

    // Fine-tuning (fine_tuning.h); set when isFineTuningSet(input.fineTuning).
    std::optional<FineTuneMemory> fineTune; ///< trainable and frozen counts, the frozen base, host memory
    /// Offload: the seconds one step's host-link traffic takes, and those of its compute at the MFU; the
    /// step takes the longer. Unset without offload, or where the catalog gives no host-link figure.
    std::optional<Quantity> hostLinkSecondsPerStep, computeSecondsPerStep;
    double trainableParameters = 0; ///< what gets gradients: parameters.total, or the adapters

    /// GPU-hours, money, energy and emissions of the training run (run_cost.h); set with trainingSeconds.
    std::optional<RunCost> runCost;
};

/// Checks every input; the first problem found, or an InputError with an empty field.
InputError validate(const AccountingInput& input, const GpuCatalog& catalog = GpuCatalog::builtIn());

/// The full accounting. Precondition: validate(input, catalog).ok() and `gpu` is the input's GPU.
AccountingResult account(const AccountingInput& input, const GpuSpec& gpu);
/// As account() without searching for `fitAdvice`.
AccountingResult accountWithoutAdvice(const AccountingInput& input, const GpuSpec& gpu);
/// As account() without `fitAdvice`, `maxBatch` and `maxSequence`: the memory, the step's peak and `fits` at
/// the input's own batch and seq (what the searches for the largest batch and sequence and for fit advice
/// evaluate at each candidate).
AccountingResult accountStep(const AccountingInput& input, const GpuSpec& gpu);
/// As accountStep() with only what the step's peak depends on: parameters, precision, bytes per parameter,
/// capacity, fine-tuning memory, `memory`, `peakMemory` and `fits`; the FLOPs, times, layout, communication
/// and notes are left empty. What the searches evaluate at each candidate, at a fraction of the cost.
AccountingResult accountPeak(const AccountingInput& input, const GpuSpec& gpu);
/// accountPeak(input, gpu).peakMemory.value to the bit, computed without a formula, ledger row or note
/// (formula_text.h): what the searches for the largest batch and sequence and the fit advice's candidates
/// evaluate, each probe a few microseconds.
double peakBytes(const AccountingInput& input, const GpuSpec& gpu);
/// accountPeak(input, gpu).predictedBytes.value: the peak plus the counted overheads, what `fits` compares
/// with usableBytes and what the searches probe; computed as peakBytes() is, with no text.
double requiredBytes(const AccountingInput& input, const GpuSpec& gpu);
/// The capacity `fits` is judged against (memory_overheads.h): accountPeak(input, gpu).usableBytes.value.
double usableBytes(const AccountingInput& input, const GpuSpec& gpu);
/// requiredBytes(input, gpu) ≤ usableBytes(input, gpu): accountPeak(input, gpu).fits.
bool peakFits(const AccountingInput& input, const GpuSpec& gpu);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The memory of one GPU of a pipeline stage: its share of the model states after tensor, pipeline and
// expert parallelism and ZeRO, and the activations it holds at the peak of the step.
#include "engine/accounting/accounting.h"
#include "engine/accounting/parameter_sharding.h"

namespace napkin {

struct StageMemory {
    PipelineStage stage = PipelineStage::first;
    GpuParameters parameters; ///< weights on this GPU before ZeRO
    ModelStateMemory states;
    ActivationMemory activations;
    GatheredWorkingSet gathered; ///< ZeRO-3/FSDP's working set above the shards (gathered_layers.h)
    double statesBytes = 0; ///< parameters + gradients + master weights + optimizer state
    double totalBytes = 0;  ///< statesBytes + activations + the gathered working set's peak
};

/// The model states of a GPU holding `onGpu` under tensor, pipeline, context and expert parallelism (not
/// fine-tuning): sharded by ZeRO over zeroShardGpus(input), the experts over dp·cp/ep.
ModelStateMemory layoutStates(const AccountingInput& input, const GpuParameters& onGpu,
                              const BytesPerParameter& perParameter);

/// The GPUs ZeRO shards one GPU's parameters over: HSDP's shard group when set, else the dp·cp GPUs that
/// replicate them (all GPUs on data parallelism alone).
double zeroShardGpus(const AccountingInput& input);

/// One GPU of `stage`. With data parallelism only, the model states are modelStateMemory(P, …, GPUs);
/// otherwise this GPU's parameters (parametersOnGpu) sharded by ZeRO over the dp·cp GPUs that replicate
/// them (dp·cp/ep for the experts), or over HSDP's shard group; DeepSpeed's two gradient copies and the
/// gathered working set as `input.sharding` asks.
StageMemory stageMemory(const AccountingInput& input, double totalParameters,
                        const BytesPerParameter& perParameter, StorageType activations, PipelineStage stage);

} // namespace napkin

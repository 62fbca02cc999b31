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
    double statesBytes = 0; ///< parameters + gradients + master weights + optimizer state
    double totalBytes = 0;  ///< statesBytes + activations
};

/// One GPU of `stage`. With data parallelism only, the model states are modelStateMemory(P, …, GPUs);
/// otherwise this GPU's parameters (parametersOnGpu) sharded by ZeRO over the dp·cp GPUs that replicate
/// them (dp·cp/ep for the experts).
StageMemory stageMemory(const AccountingInput& input, double totalParameters,
                        const BytesPerParameter& perParameter, StorageType activations, PipelineStage stage);

} // namespace napkin

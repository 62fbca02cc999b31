// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/stage_memory.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/accounting/pytorch_eager_lora.h"

#include <array>

namespace napkin {

double zeroShardGpus(const AccountingInput& in) {
    if (in.sharding.shardGroup > 0)
        return in.sharding.shardGroup;
    return isDataParallelOnly(in.parallel) ? in.gpus : dataParallelSize(in.parallel, in.gpus) * in.parallel.cp;
}

ModelStateMemory layoutStates(const AccountingInput& in, const GpuParameters& onGpu,
                              const BytesPerParameter& perParameter) {
    const ParallelLayout& l = in.parallel;
    // The GPUs holding the same weights: dp data-parallel replicas times the cp context-parallel ranks
    // (Megatron-LM's distributed optimizer shards over both), or HSDP's shard group; experts over dp·cp/ep.
    const double replicas = zeroShardGpus(in);
    const std::string replicasText = in.sharding.shardGroup > 0 ? "shard group"
                                     : l.cp > 1                 ? "dp·cp"
                                                                : "dp";
    const bool two = in.sharding.twoGradientCopies;
    if (onGpu.experts > 0 && l.ep > 1) {
        const std::array<ParameterShard, 2> groups{
            ParameterShard{onGpu.dense, replicas, "P_dense", replicasText},
            ParameterShard{onGpu.experts, replicas / l.ep, "P_experts", "(" + replicasText + "/ep)"}};
        return modelStateMemory(groups, perParameter, in.zeroStage, two);
    }
    const ParameterShard group{onGpu.total(), replicas, "P_gpu", replicasText};
    return modelStateMemory(std::span(&group, 1), perParameter, in.zeroStage, two);
}

StageMemory stageMemory(const AccountingInput& in, double totalParameters,
                        const BytesPerParameter& perParameter, StorageType activations, PipelineStage stage) {
    const ParallelLayout& l = in.parallel;
    StageMemory s;
    s.stage = stage;
    s.parameters = parametersOnGpu(in.model, l, stage);
    if (isFineTuningSet(in.fineTuning)) { // data parallelism alone (validateFineTuning)
        const PrecisionLedger ledger = ledgerFor(in.precision, in.fp32Gradients);
        s.states = fineTuneMemory(in.model, in.fineTuning, totalParameters, perParameter, ledger.parameters,
                                  in.zeroStage, in.gpus, in.recompute == Recompute::full)
                       .states;
    } else if (isDataParallelOnly(l)) {
        const bool hsdp = in.sharding.shardGroup > 0;
        const ParameterShard all{totalParameters, zeroShardGpus(in), "P", hsdp ? "shard group" : "GPUs"};
        s.states = modelStateMemory(std::span(&all, 1), perParameter, in.zeroStage,
                                    in.sharding.twoGradientCopies);
    } else {
        s.states = layoutStates(in, s.parameters, perParameter);
    }
    if (!in.fineTuning.frozenLayers.empty())
        s.activations = cruncherActivations(in.model, in.batch, activations, in.fineTuning.frozenLayers);
    else if (in.model.activationsOf == ActivationProfile::pytorchEager && hasAdapters(in.fineTuning))
        // Layer 1 keeps less than the others under LoRA: not a per-layer ledger times L.
        s.activations =
            pytorchEagerLoraActivations(in.model, in.fineTuning, in.batch, activations, in.recompute);
    else
        s.activations = activationMemory(in.model, in.batch, activations, in.recompute, l, stage,
                                         countAdapters(in.model, in.fineTuning).elementsPerToken);
    s.statesBytes = s.states.parameters.value + s.states.gradients.value + s.states.masterWeights.value +
                    s.states.optimizerState.value;
    s.gathered = gatheredWorkingSet(in.sharding, in.model, l.tp, s.parameters, perParameter);
    s.totalBytes = s.statesBytes + s.activations.bytes + s.gathered.peakBytes();
    return s;
}

} // namespace napkin

#include "engine/accounting/stage_memory.h"

#include "engine/accounting/frozen_layers.h"
#include "engine/accounting/pytorch_eager_lora.h"

#include <array>

namespace napkin {

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
        s.states = modelStateMemory(totalParameters, perParameter, in.zeroStage, in.gpus);
    } else {
        // The GPUs holding the same weights: dp data-parallel replicas times the cp context-parallel ranks
        // (Megatron-LM's distributed optimizer shards over both); experts over dp·cp/ep.
        const double replicas = dataParallelSize(l, in.gpus) * l.cp;
        const std::string replicasText = l.cp > 1 ? "dp·cp" : "dp";
        const bool splitExperts = s.parameters.experts > 0 && l.ep > 1;
        if (splitExperts) {
            const std::array<ParameterShard, 2> groups{
                ParameterShard{s.parameters.dense, replicas, "P_dense", replicasText},
                ParameterShard{s.parameters.experts, replicas / l.ep, "P_experts",
                               "(" + replicasText + "/ep)"}};
            s.states = modelStateMemory(groups, perParameter, in.zeroStage);
        } else {
            const ParameterShard group{s.parameters.total(), replicas, "P_gpu", replicasText};
            s.states = modelStateMemory(std::span(&group, 1), perParameter, in.zeroStage);
        }
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
    s.totalBytes = s.statesBytes + s.activations.bytes;
    return s;
}

} // namespace napkin

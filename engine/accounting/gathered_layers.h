// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// ZeRO-3 / FSDP's working set: what a GPU holds unsharded above its shards while it computes.
#include "engine/accounting/model_state_memory.h"
#include "engine/accounting/parameter_sharding.h"
#include "engine/accounting/sharding_options.h"

#include <string>

namespace napkin {

struct GatheredWorkingSet {
    double forwardBytes = 0;  ///< held while a layer runs forward (gathered weights)
    double backwardBytes = 0; ///< held while a layer runs backward: the weights above plus its gradients
    double parameterBytes = 0; ///< the gathered weights' part of both (the timeline's parameters)
    double peakBytes() const { return forwardBytes > backwardBytes ? forwardBytes : backwardBytes; }
    std::string formula; ///< with the numbers substituted; empty when nothing is gathered
};

/// The working set of one GPU holding `onGpu` (parametersOnGpu) under `options.gathered`, with `perParameter`
/// the recipe's bytes (weights gathered in its parameter dtype, gradients in its gradient dtype).
///   fsdp (PyTorch FSDP2, fully_shard per transformer layer and on the root; torch/distributed/_composable/
///   fsdp/_fsdp_state.py: the root is not resharded after forward): the root's weights (embeddings, final
///   norm, output layer) gathered through forward and backward, plus min(1 + k, L) layers' weights
///   (the layer computed and k prefetched); in backward also the layer's unsharded gradients and the
///   reduce-scatter's input in the reduce dtype (_fsdp_collectives.py foreach_reduce: torch.empty(…,
///   dtype=reduce_dtype), filled from the unsharded gradients before they are freed):
///     forward  = (outside + min(1 + k, L)·P_layer)·p_B
///     backward = forward + P_layer·(g_B + r_B),  r_B = 4 with --fp32-reduce, else g_B
///   deepspeed (deepspeed/runtime/zero/stage3.py, estimate_zero3_model_states_mem_needs): 4 B × the largest
///   layer's parameters, the largest single weight matrix on this GPU: max(V·d, d·F, d·F_expert)/t.
GatheredWorkingSet gatheredWorkingSet(const ShardingOptions& options, const ModelSpec& model, double tp,
                                      const GpuParameters& onGpu, const BytesPerParameter& perParameter);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which parameters one GPU holds under tensor, pipeline and expert parallelism, before ZeRO shards
// them over the data-parallel GPUs.
#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout.h"

#include <string>

namespace napkin {

struct GpuParameters {
    double dense = 0;   ///< replicated over the dp·cp GPUs that hold the same shard
    double experts = 0; ///< expert MLPs, replicated over dp·cp/ep GPUs
    double perLayer = 0; ///< transformer: one layer's share on this GPU (dense and experts)
    double outside = 0;  ///< transformer: the embeddings, final norm and output layer on this GPU
    std::string formula;
    double total() const { return dense + experts; }
};

/// The parameters on one GPU of `stage` (Megatron-LM's placement, Shoeybi et al. 2019; Narayanan et al.
/// 2021): L/p layers, whose matrices, column-parallel biases and vocabulary are split by t while norms,
/// row-parallel biases, the router and learned positions are replicated; E/ep experts per layer; the
/// token embedding on the first stage; the final norm and the output layer on the last — a tied
/// embedding is kept a second time there when p > 1 (its gradient is all-reduced between the two).
/// Models other than transformers sit whole on every GPU.
GpuParameters parametersOnGpu(const ModelSpec& model, const ParallelLayout& layout, PipelineStage stage);

} // namespace napkin

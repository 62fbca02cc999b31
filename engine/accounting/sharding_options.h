// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How ZeRO and FSDP lay out the data-parallel model states beyond the stage number: DeepSpeed's second
// gradient copy, the layers ZeRO-3/FSDP gather while they compute, the reduce dtype, and HSDP's shard groups.
// Every option defaults off, so a setup that does not name them keeps the ZeRO paper's numbers.
#include "engine/models/input_error.h"

#include <optional>
#include <span>
#include <string_view>

namespace napkin {

/// What ZeRO-3 / FSDP hold unsharded while a layer runs (the "working set" above the shards).
enum class GatheredLayers {
    none,      ///< the shards alone: the ZeRO paper's (2Ψ + 2Ψ + KΨ)/N_d
    fsdp,      ///< PyTorch FSDP with one unit per transformer layer: the layer being computed and
               ///< `prefetchLayers` next ones gathered in the parameters' dtype; in backward the layer's
               ///< unsharded gradients and the reduce-scatter's input in the reduce dtype
    deepspeed, ///< DeepSpeed's estimator (estimate_zero3_model_states_mem_needs): 4 B × the largest
               ///< layer's parameters (its 16-bit gathered weights and gradients)
};
std::string_view gatheredLayersName(GatheredLayers g);
std::optional<GatheredLayers> gatheredLayersFromName(std::string_view name);
std::span<const GatheredLayers> allGatheredLayers();

struct ShardingOptions {
    /// ZeRO-1/2 as DeepSpeed's stage_1_and_2.py keeps them: the 16-bit gradients whole and the fp32
    /// gradient partition (estimate_zero2_model_states_mem_needs: 4Ψ + 16Ψ/N).
    bool twoGradientCopies = false;
    GatheredLayers gathered = GatheredLayers::none; ///< ZeRO-3 only
    double prefetchLayers = 1; ///< fsdp: layers gathered ahead of the one computed (0 to 8)
    bool fp32Reduce = false;   ///< fsdp: FSDP2's MixedPrecisionPolicy(reduce_dtype=torch.float32)
    /// HSDP (FSDP's HYBRID_SHARD, FSDP2's 2-D mesh): the GPUs of one shard group; ZeRO shards over them and
    /// the groups replicate, all-reducing the gradient shards. 0: one group of all dp·cp GPUs.
    double shardGroup = 0;
    bool operator==(const ShardingOptions&) const = default;
};

/// Checks the options against the ZeRO stage, the recipe (`masterWeights`: a 16-bit recipe with fp32
/// master weights) and the dp·cp GPUs they shard over; fields are the CLI's option names.
InputError validateSharding(const ShardingOptions& options, int zeroStage, bool masterWeights,
                            double dataParallelGpus);

} // namespace napkin

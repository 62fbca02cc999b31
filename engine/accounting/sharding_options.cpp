// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/sharding_options.h"

#include "engine/text/name_table.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {
namespace {

constexpr NameTable<GatheredLayers, 3> kGathered{{{GatheredLayers::none, "none"},
                                                  {GatheredLayers::fsdp, "fsdp"},
                                                  {GatheredLayers::deepspeed, "deepspeed"}}};
constexpr auto kAllGathered = valuesIn(kGathered);

std::string n(double v) {
    return formatNumber(v);
}

} // namespace

std::string_view gatheredLayersName(GatheredLayers g) {
    return nameIn(kGathered, g);
}

std::optional<GatheredLayers> gatheredLayersFromName(std::string_view name) {
    return valueIn(kGathered, name);
}

std::span<const GatheredLayers> allGatheredLayers() {
    return kAllGathered;
}

InputError validateSharding(const ShardingOptions& o, int zeroStage, bool masterWeights, double dpcp) {
    if (o.twoGradientCopies && (zeroStage < 1 || zeroStage > 2))
        return {"two-gradient-copies", "DeepSpeed keeps a 16-bit and an fp32 gradient copy under ZeRO-1 "
                                       "and ZeRO-2 (stage_1_and_2.py); it needs --zero 1 or 2"};
    if (o.twoGradientCopies && !masterWeights)
        return {"two-gradient-copies", "the fp32 gradient partition goes with fp32 master weights; it "
                                       "needs a 16-bit mixed-precision recipe (mixed-bf16, mixed-fp16)"};
    if (o.gathered != GatheredLayers::none && zeroStage != 3)
        return {"gathered-layers", "only ZeRO-3 (FSDP's FULL_SHARD) gathers layers while it computes; "
                                   "it needs --zero 3"};
    if (!(std::isfinite(o.prefetchLayers) && o.prefetchLayers == std::floor(o.prefetchLayers) &&
          o.prefetchLayers >= 0 && o.prefetchLayers <= 8))
        return {"prefetch-layers", "must be a whole number from 0 to 8, got " + n(o.prefetchLayers)};
    if (o.fp32Reduce && o.gathered != GatheredLayers::fsdp)
        return {"fp32-reduce", "FSDP2's reduce dtype applies to its gathered layers; it needs "
                               "--gathered-layers fsdp"};
    if (o.shardGroup != 0) {
        if (!(std::isfinite(o.shardGroup) && o.shardGroup == std::floor(o.shardGroup) && o.shardGroup >= 1))
            return {"shard-group", "must be a whole number of GPUs (0: all), got " + n(o.shardGroup)};
        if (zeroStage == 0)
            return {"shard-group", "HSDP shards ZeRO's states within a group; it needs --zero 1, 2 or 3"};
        if (std::fmod(dpcp, o.shardGroup) != 0)
            return {"shard-group", "must divide the data-parallel GPUs dp·cp = " + n(dpcp) +
                                       " into whole replicas, got " + n(o.shardGroup)};
    }
    return {};
}

} // namespace napkin

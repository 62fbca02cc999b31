// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Bytes each GPU sends per training step, collective by collective, and the seconds they take at the
// catalog's link bandwidths: the communication ledger beside the memory ledger.
#include "engine/models/model_spec.h"
#include "engine/accounting/parallel_layout.h"
#include "engine/accounting/parameter_sharding.h"
#include "engine/hardware/gpu_catalog.h"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// The parallel dimensions whose collectives the ledger groups ("data_parallel", ... in JSON).
enum class CommunicationGroup {
    dataParallel,
    tensorParallel,
    contextParallel,
    expertParallel,
    pipelineParallel
};
std::string_view communicationGroupName(CommunicationGroup group);
std::span<const CommunicationGroup> allCommunicationGroups();

struct CommunicationItem {
    std::string name; ///< "gradient all-reduce"
    CommunicationGroup group = CommunicationGroup::dataParallel;
    double bytes = 0;              ///< sent by one GPU per step (= received, for the ring collectives)
    std::optional<double> seconds; ///< bytes / link bandwidth; unset when the catalog has no figure
    std::string link;              ///< "NVLink 4, 450 GB/s per direction" or why there is none
    std::string formula;           ///< with the numbers substituted
};

struct CommunicationTotal {
    double bytes = 0;
    std::optional<double> seconds; ///< unset when any of its items' is
    std::string formula;
};

struct CommunicationLedger {
    std::vector<CommunicationItem> items;
    std::array<CommunicationTotal, 5> perGroup; ///< indexed by CommunicationGroup
    CommunicationTotal total; ///< seconds as if nothing overlapped with compute or other traffic
};

/// What the ledger needs about one step on one GPU.
struct CommunicationInput {
    ModelSpec model;
    ParallelLayout layout;
    double gpus = 1;
    double batch = 1; ///< micro-batch size (sequences)
    int zeroStage = 0;
    Recompute recompute = Recompute::none;
    double parameterBytes = 4, gradientBytes = 4, activationBytes = 4; ///< per element
    GpuParameters onGpu;                                               ///< this GPU's weights
    PipelineStage stage = PipelineStage::first;                        ///< which stage's GPU
    double shardGroup = 0; ///< HSDP: ZeRO's collectives within groups of this many GPUs; 0: all dp·cp
};

/// Ring collectives over n GPUs send (n−1)/n of the data per reduce-scatter or all-gather and twice
/// that per all-reduce (Patarasuk & Yuan 2009). Data parallel (over dp·cp; experts over dp·cp/ep):
/// all-reduce of the gradients (ZeRO-0), reduce-scatter of gradients + all-gather of parameters
/// (ZeRO-1/2), the parameters gathered twice (ZeRO-3; Rajbhandari et al. 2020). HSDP (shardGroup g):
/// those collectives within the g GPUs of a group, and the gradient shard P·g_B/g all-reduced across the
/// dp·cp/g groups that replicate it (PyTorch FSDP's HYBRID_SHARD; FSDP2's foreach_reduce all_reduce after
/// the reduce-scatter). ZeRO-2's reduce-scatter and ZeRO-3's three collectives repeat for each micro-batch
/// (DeepSpeed and FSDP under gradient accumulation, without FSDP's no_sync, whose unsharded gradients the
/// memory does not count); ZeRO-1's and DDP's run once a step. Tensor parallel:
/// per layer and micro-batch 2 all-reduces forward and 2 backward of s·b·h (with sequence parallelism
/// the same volume as all-gathers and reduce-scatters; Korthikanti et al. 2022), one more forward's worth
/// with full recompute, plus the vocabulary-parallel embedding and output layer. Context parallel: the
/// K and V chunks passed round the ring, forward once and backward twice (K/V and their gradients).
/// Expert parallel: 4 all-to-alls of the routed tokens per MoE layer and micro-batch. Pipeline: one
/// s·b·h activation (or gradient) per micro-batch to the neighbouring stage. A group within the node's
/// GPU link (tp fastest, then cp, then dp, then pp) runs at that link, otherwise at the network's.
CommunicationLedger communicationPerStep(const CommunicationInput& input, const GpuSpec& gpu);

} // namespace napkin

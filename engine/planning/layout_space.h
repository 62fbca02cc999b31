// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The candidates the layout search considers for one setup: every layout Napkin models that keeps the
// global batch and the constraints the user sets, before the engine's validation judges them.
#include "engine/hardware/gpu_catalog.h"
#include "engine/planning/layout_choice.h"

#include <cstddef>
#include <string>
#include <vector>

namespace napkin {

/// What the user fixes besides the base setup.
struct PlanConstraints {
    /// GPUs one node joins by its fast link; tensor parallelism stays inside a node (tp divides it).
    /// 0: the GPU's catalog figure (gpuLinkGpus, 8 for an HGX/DGX part).
    double gpusPerNode = 0;
    /// Sequences per optimizer step, over all GPUs; 0: the base's batch · micro-batches · dp.
    double globalBatch = 0;
    bool operator==(const PlanConstraints&) const = default;
};

/// The candidate layouts of a base setup. A *shape* fixes everything a step's FLOPs per GPU and its
/// pipeline bubble depend on (tp, pp, v, cp, ep, micro-batch size and count, recompute, attention kernel);
/// its *variants* add what only memory and communication depend on (sp, ZeRO stage, HSDP shard group).
/// Candidates, in a fixed order: tp dividing the node's GPUs and the GPU count; pp dividing the GPUs left
/// (at most the layers), its stages even (pp dividing the layers; v dividing the layers per stage, at most
/// 64) or, with v 1, the first and/or the last stage a layer fewer than the others (Megatron-LM's
/// embedding and loss counted as a layer each; where pp does not divide the layers); cp with flash attention
/// only, on a part that runs it; ep dividing the experts of a mixture; dp = GPUs / (tp·pp·cp) dividing the
/// global batch; every micro-batch size b dividing global / dp, with m = global / (dp·b) micro-batches;
/// recompute none, selective and full; eager and flash attention; sp off and on when tp > 1; ZeRO 0–3 and,
/// under ZeRO-3, HSDP with one shard group per node. Models other than transformers are split by data
/// parallelism only.
class LayoutSpace {
public:
    LayoutSpace(const AccountingInput& base, const GpuSpec& gpu, const PlanConstraints& constraints);

    /// Why there are no candidates at all (the global batch is not whole, the constraints contradict
    /// each other); empty otherwise.
    const std::string& whyEmpty() const { return m_whyEmpty; }
    double globalBatch() const { return m_globalBatch; }
    double gpusPerNode() const { return m_gpusPerNode; }

    /// Every shape, with sp off, ZeRO 0 and no shard group.
    const std::vector<LayoutChoice>& shapes() const { return m_shapes; }
    /// The variants of `shape`, in order; the first is the shape itself.
    std::vector<LayoutChoice> variants(const LayoutChoice& shape) const;
    /// Every candidate: each shape's variants in turn (what a brute force evaluates).
    std::vector<LayoutChoice> candidates() const;
    /// candidates().size(), without building them.
    std::size_t size() const;

private:
    void addShapes(const AccountingInput& base, const GpuSpec& gpu);

    double m_gpus = 1;
    double m_globalBatch = 0;
    double m_gpusPerNode = 1;
    std::string m_whyEmpty;
    std::vector<LayoutChoice> m_shapes;
};

/// The whole divisors of `value` (a whole number ≥ 1), ascending.
std::vector<double> wholeDivisors(double value);

} // namespace napkin

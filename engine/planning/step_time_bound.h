// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The seconds no layout's predicted step can beat, from its FLOPs alone: what lets the layout search skip a
// candidate without accounting it (branch and bound). A bound above the predicted time would prune a
// candidate that could win; the search counts any such case (PlanCounts::boundAboveTime) and the tests hold
// that count at 0.
#include "engine/accounting/accounting.h"
#include "engine/steptime/hardware_profile.h"
#include "engine/steptime/step_time.h"

namespace napkin {

/// A lower bound on predictStepTime(input, …, profile).seconds: the GEMM FLOPs one GPU must run in a step,
/// at the fastest measured GEMM rate, stretched by the pipeline bubble:
///   (F + B + R) / (tp·pp·cp) / R_max × (1 + (p − 1)/(v·m))
/// with F, B, R the replica's forward, backward and recompute FLOPs (countStepFlops; for the lecture's
/// linear stacks F + F/1, whose first layer computes no input gradient). Every term of the step time is
/// at least its share of this: each GEMM takes at least FLOPs / R_max, the bubble is (p − 1)/v micro-batches
/// of the compute, and the memory-bound ops, overheads and exposed communication only add. 0 when the
/// profile has no GEMM rate in the recipe's compute dtype (nothing is pruned then). Computes no text.
double stepTimeLowerBound(const AccountingInput& input, const HardwareProfile& profile);

/// Lower bounds, from one timed variant's step (`time`, predicted for `layout`), on the steps of the other
/// variants of its shape (layout_space.h: the same tp, pp, v, cp, ep, micro-batches, recompute and attention
/// kernel, differing in sp, the ZeRO stage or the HSDP shard group), each stretched by the bubble as
/// stepTimeLowerBound() is:
struct SameShapeBounds {
    /// The GEMM rows (those with FLOPs) and the per-op overhead of the forward, backward and recompute
    /// phases, which none of the three changes (sp splits only norms', dropouts' and residuals' tensors,
    /// never a GEMM's; ZeRO and HSDP change the optimizer update, the gradient accumulation's bytes and the
    /// data-parallel collectives): a bound on every variant.
    double everyVariant = 0;
    /// With the forward and recompute phases' memory-bound ops added (no ZeRO or HSDP choice touches them;
    /// sp only shrinks them): a bound on the variants with sp off, and on all when `layout` has sp on.
    double splitNoMore = 0;
};
SameShapeBounds sameShapeLowerBounds(const StepTime& time, const ParallelLayout& layout);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/planning/step_time_bound.h"

#include "engine/text/formula_text.h"

namespace napkin {
namespace {

// The bubble as a share of the compute phases: (p − 1)/v micro-batches of m (step_time.cpp's 1F1B row).
double bubbleShare(const ParallelLayout& l) {
    return l.pp > 1 ? (l.pp - 1) / (l.virtualStages * l.microbatches) : 0;
}

} // namespace

double stepTimeLowerBound(const AccountingInput& in, const HardwareProfile& profile) {
    const double rate = fastestGemmFlopsPerSecond(profile, ledgerFor(in.precision, in.fp32Gradients).compute);
    if (rate <= 0)
        return 0;
    const ValuesOnly valuesOnly; // the FLOPs alone: called once per candidate shape
    const ParallelLayout& l = in.parallel;
    const StepFlops f = countStepFlops(in.model, in.batch * l.microbatches, in.recompute, in.attention);
    // The linear stacks' first layer computes its weight's gradient only (step_ops_builder.cpp): their
    // backward is bounded by one forward's worth, the weights' gradients.
    const bool linearStack = in.model.kind == ModelKind::cruncher || in.model.kind == ModelKind::linear2;
    const double gemmFlops = linearStack ? 2 * f.forward : f.forward + f.backward + f.recompute;
    return gemmFlops / modelParallelSize(l) / rate * (1 + bubbleShare(l));
}

SameShapeBounds sameShapeLowerBounds(const StepTime& time, const ParallelLayout& layout) {
    double invariant = 0, memory = 0;
    for (const StepTimeRow& row : time.ledger) {
        const bool gemm = row.flops > 0;
        switch (row.phase) {
        case StepTimePhase::forward:
        case StepTimePhase::recompute:
            (gemm || row.kind == StepTimeKind::overhead ? invariant : memory) += row.seconds;
            break;
        case StepTimePhase::backward: // its memory-bound rows include the gradient accumulation, which ZeRO shards
            if (gemm || row.kind == StepTimeKind::overhead)
                invariant += row.seconds;
            break;
        case StepTimePhase::optimizer:
        case StepTimePhase::communication:
        case StepTimePhase::pipeline:
            break;
        }
    }
    const double stretch = 1 + bubbleShare(layout);
    return {invariant * stretch, (invariant + memory) * stretch};
}

} // namespace napkin

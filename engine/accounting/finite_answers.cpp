// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/accounting/finite_answers.h"

#include "engine/accounting/fine_tuning.h"
#include "engine/accounting/fine_tuning_flops.h"
#include "engine/hardware/gpu_capabilities.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {

InputError checkFiniteAnswers(const AccountingInput& in, const GpuSpec& gpu) {
    if (!in.trainingTokens)
        return {};
    // The same arithmetic as account()'s training time (adapters' FLOPs included), so the check and the
    // answer cannot disagree. (An offloaded run that waits on the host link takes longer; the catalog's
    // link figures, at least 1 B/s, keep that finite.)
    const double sequences = in.batch * in.parallel.microbatches;
    StepFlops replica;
    {
        const ValuesOnly valuesOnly; // the FLOPs alone: the searches call this per probe
        replica = countStepFlops(in.model, sequences, in.recompute, in.attention);
        if (hasAdapters(in.fineTuning))
            replica =
                fineTuneStepFlops(replica, in.model, in.fineTuning, sequences, in.recompute, in.attention);
    }
    const double flops = replica.total / replica.tokens * *in.trainingTokens;
    const EffectivePeak effective =
        effectiveDensePeak(gpu, ledgerFor(in.precision, in.fp32Gradients).compute);
    if (effective.refused) // no time is answered (accounting.h: timeUnavailable), so none can be infinite
        return {};
    const double peak = effective.flopsPerSecond;
    const double seconds = flops / (in.gpus * peak * in.mfu);
    if (!(std::isfinite(seconds) && seconds <= kMaxAnsweredSeconds))
        return {"mfu", "at MFU " + formatNumber(in.mfu) + " the run never ends: time exceeds " +
                           formatNumber(kMaxAnsweredSeconds) + " s (" + formatNumber(flops) + " FLOPs / (" +
                           formatNumber(in.gpus) + " × " + formatNumber(peak) + " FLOP/s × " +
                           formatNumber(in.mfu) + "))"};
    return {};
}

} // namespace napkin

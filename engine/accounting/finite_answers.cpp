#include "engine/accounting/finite_answers.h"

#include "engine/numerics/quantity_format.h"

#include <cmath>

namespace napkin {

InputError checkFiniteAnswers(const AccountingInput& in, const GpuSpec& gpu) {
    if (!in.trainingTokens)
        return {};
    // The same arithmetic as account()'s training time, so the check and the answer cannot disagree.
    const StepFlops replica =
        countStepFlops(in.model, in.batch * in.parallel.microbatches, in.recompute, in.attention);
    const double flops = replica.total / replica.tokens * *in.trainingTokens;
    const double peak = densePeakFlopsPerSecond(gpu, ledgerFor(in.precision, in.fp32Gradients).compute);
    const double seconds = flops / (in.gpus * peak * in.mfu);
    if (!(std::isfinite(seconds) && seconds <= kMaxAnsweredSeconds))
        return {"mfu", "at MFU " + formatNumber(in.mfu) + " the run never ends: time exceeds " +
                           formatNumber(kMaxAnsweredSeconds) + " s (" + formatNumber(flops) + " FLOPs / (" +
                           formatNumber(in.gpus) + " × " + formatNumber(peak) + " FLOP/s × " +
                           formatNumber(in.mfu) + "))"};
    return {};
}

} // namespace napkin

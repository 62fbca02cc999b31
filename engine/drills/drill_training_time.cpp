// SPDX-License-Identifier: GPL-3.0-or-later
// Training time: 6·N·T FLOPs (forward 2·N·T, backward 4·N·T) at GPUs × peak × MFU.
#include "engine/drills/drill_accounting.h"
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/numerics/quantity_format.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion trainingTimeDrill(DrillRandom& dice) {
    static constexpr double kParameters[] = {1.3e9, 7e9, 13e9, 70e9, 175e9, 405e9};
    static constexpr double kTokensPerParameter[] = {20, 20, 50, 100};
    static constexpr double kGpus[] = {64, 256, 512, 1024, 2048, 4096};
    static constexpr const char* kGpuIds[] = {"H100-SXM", "A100-SXM", "H200", "B200"};
    static constexpr double kMfu[] = {0.3, 0.4, 0.5, 0.6};
    const double parameters = dice.pick(kParameters);
    AccountingInput in = denseTrainingInput(parameters, dice.pick(kGpuIds), dice.pick(kGpus));
    in.trainingTokens = parameters * dice.pick(kTokensPerParameter);
    in.precision = PrecisionRecipe::mixedBf16;
    in.mfu = dice.pick(kMfu);
    const AccountingResult r = accountDrill(in);
    const double peak = r.densePeakFlopsPerSecond.value;

    DrillQuestion q;
    q.topic = DrillTopic::trainingTime;
    q.kind = "days";
    q.text = "Training a " + formatNumber(parameters) + "-parameter model on " +
             formatNumber(*in.trainingTokens) + " tokens on " + formatExact(in.gpus) + " " + in.gpu +
             " (bf16 dense peak " + formatFlops(peak, true) + ") at " + formatNumber(in.mfu * 100) +
             " % MFU: how many days?";
    q.unit = DrillUnit::days;
    q.answer = r.trainingDays->value;
    q.answerText = formatNumber(q.answer) + " days";
    q.relativeTolerance = 0.05; // a napkin estimate: "144 days" for 143.9
    q.formula = r.trainingFlops->formula + "\n" + r.trainingSeconds->formula + "\n" + r.trainingDays->formula;
    q.page = ScenarioPage::accounting;
    q.setupJson = nlohmann::json{{"accounting",
                                  {{"model", {{"kind", "dense"}, {"parameters", parameters}}},
                                   {"count_tokens", true},
                                   {"training_tokens", *in.trainingTokens},
                                   {"gpu", in.gpu},
                                   {"gpus", in.gpus},
                                   {"mfu", in.mfu},
                                   {"precision", "mixed-bf16"},
                                   {"preset", ""}}}}
                      .dump();
    q.parameters = {numberParameter("parameters", parameters),
                    numberParameter("tokens", *in.trainingTokens),
                    numberParameter("gpus", in.gpus),
                    textParameter("gpu", in.gpu),
                    numberParameter("peak_flops_per_second", peak),
                    numberParameter("mfu", in.mfu)};
    return q;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
// The largest model whose model states fit one GPU: ⌊capacity / bytes per parameter⌋.
#include "engine/drills/drill_accounting.h"
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/numerics/quantity_format.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion largestModelDrill(DrillRandom& dice) {
    static constexpr const char* kGpuIds[] = {"H100-SXM", "H200", "A100-SXM", "L40S", "RTX-4090", "B200"};
    static constexpr PrecisionRecipe kRecipes[] = {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16,
                                                   PrecisionRecipe::bf16};
    static constexpr OptimizerKind kOptimizers[] = {OptimizerKind::adamw, OptimizerKind::sgd,
                                                    OptimizerKind::momentum};
    AccountingInput in = denseTrainingInput(1e9, dice.pick(kGpuIds), 1);
    in.precision = dice.pick(kRecipes);
    in.optimizer = dice.pick(kOptimizers);
    const AccountingResult r = accountDrill(in);
    const std::string recipeName(precisionRecipeName(in.precision)), optimizer(optimizerName(in.optimizer));

    DrillQuestion q;
    q.topic = DrillTopic::largestModel;
    q.kind = "parameters";
    q.text = "One " + in.gpu + " (" + formatBytes(r.capacityBytes.value) + "), " + optimizer + " under " +
             recipeName +
             ": how many parameters has the largest model whose weights, gradients and optimizer "
             "state fit?";
    q.unit = DrillUnit::parameters;
    q.answer = r.maxParameters.value;
    q.answerText = formatExact(q.answer) + " parameters (" + formatNumber(q.answer) + ")";
    q.relativeTolerance = 0.02; // "4.4B" for 4.44e9
    q.formula = "bytes per parameter: " + r.bytesPerParameter.ledger + "\n" + r.maxParameters.formula;
    q.page = ScenarioPage::accounting;
    q.setupJson = nlohmann::json{{"accounting",
                                  {{"gpu", in.gpu},
                                   {"gpus", 1},
                                   {"precision", recipeName},
                                   {"optimizer", optimizer},
                                   {"fp32_gradients", false},
                                   {"zero", 0},
                                   {"preset", ""}}}}
                      .dump();
    q.parameters = {textParameter("gpu", in.gpu), numberParameter("capacity_bytes", r.capacityBytes.value),
                    textParameter("precision", recipeName), textParameter("optimizer", optimizer)};
    return q;
}

} // namespace napkin

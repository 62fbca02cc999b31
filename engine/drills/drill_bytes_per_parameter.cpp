// SPDX-License-Identifier: GPL-3.0-or-later
// Model-state bytes per parameter: weights + gradients + master copy + each optimizer state tensor.
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/accounting/model_state_memory.h"
#include "engine/numerics/storage_type.h"

namespace napkin {

using namespace drill_detail;

namespace {

// fp8 training recipes store different things (Transformer Engine keeps bf16 weights with an fp32 master
// copy, FP8-LM keeps fp8 gradients, DeepSeek-V3 bf16 optimizer moments), so "the fp8-mixed recipe" names no
// one answer: the question says what this one stores, and the student sums it. The recipes with one
// meaning (fp32, pure 16-bit, Micikevicius et al.'s mixed precision) are the student's to know.
std::string storedText(PrecisionRecipe recipe) {
    if (recipe != PrecisionRecipe::fp8Mixed)
        return {};
    const PrecisionLedger l = ledgerFor(recipe);
    const auto name = [](StorageType t) { return std::string(storageTypeName(t)); };
    return " (fp8 matmuls; it stores " + name(l.parameters) + " weights, " + name(l.gradients) +
           " gradients, an " + name(l.masterWeights) + " master copy and " + name(l.optimizerState) +
           " optimizer state)";
}

} // namespace

DrillQuestion bytesPerParameterDrill(DrillRandom& dice) {
    const PrecisionRecipe recipe = dice.pick(allPrecisionRecipes());
    const OptimizerKind optimizer = dice.pick(allOptimizers());
    const BytesPerParameter b = bytesPerParameter(ledgerFor(recipe), optimizer);
    const std::string recipeName(precisionRecipeName(recipe)), optimizerName_(optimizerName(optimizer));

    DrillQuestion q;
    q.topic = DrillTopic::bytesPerParameter;
    q.kind = "bytes-per-parameter";
    q.text = "Training with " + optimizerName_ + " under the " + recipeName + " precision recipe" +
             storedText(recipe) +
             ": how many bytes of model state (weights, gradients, master copy, optimizer state) does each "
             "parameter cost?";
    q.unit = DrillUnit::bytes;
    q.answer = b.total;
    q.answerText = std::to_string(static_cast<int>(b.total)) + " B";
    q.relativeTolerance = 0;
    q.formula = "weights + gradients + master + " + std::to_string(b.optimizerStateTensors) +
                " state tensor(s)\n" + b.ledger;
    q.page = ScenarioPage::accounting;
    q.setupJson = nlohmann::json{{"accounting",
                                  {{"precision", recipeName},
                                   {"optimizer", optimizerName_},
                                   {"fp32_gradients", false},
                                   {"preset", ""}}}}
                      .dump();
    q.parameters = {textParameter("precision", recipeName), textParameter("optimizer", optimizerName_)};
    return q;
}

} // namespace napkin

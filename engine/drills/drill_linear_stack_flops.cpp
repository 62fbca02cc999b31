// SPDX-License-Identifier: GPL-3.0-or-later
// The lecture's deep linear net (L bias-free D×D layers and a D×1 head): forward 2·B·(L·D² + D) FLOPs,
// backward twice that (gradients for the inputs and for the weights).
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/accounting/flop_count.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion linearStackFlopsDrill(DrillRandom& dice) {
    static constexpr double kWidths[] = {256, 512, 1024, 2048, 4096, 8192};
    static constexpr double kBatches[] = {1, 16, 32, 64, 128, 256, 1024};
    static constexpr const char* kKinds[] = {"forward", "backward", "forward+backward"};
    ModelSpec model;
    model.kind = ModelKind::cruncher;
    model.dim = dice.pick(kWidths);
    model.layers = static_cast<double>(dice.between(2, 64));
    const double batch = dice.pick(kBatches);
    const std::string kind = dice.pick(kKinds);
    const StepFlops f = countStepFlops(model, batch, Recompute::none, AttentionMask::causal);

    DrillQuestion q;
    q.topic = DrillTopic::linearStackFlops;
    q.kind = kind;
    const std::string what = kind == "forward"    ? "the forward pass"
                             : kind == "backward" ? "the backward pass"
                                                  : "one training step (forward and backward)";
    q.text = "A stack of " + formatExact(model.layers) + " linear layers " + formatExact(model.dim) + "×" +
             formatExact(model.dim) + " (no bias) and a " + formatExact(model.dim) + "×1 head, batch " +
             formatExact(batch) + ": how many FLOPs does " + what + " take?";
    q.unit = DrillUnit::flops;
    q.answer = kind == "forward" ? f.forward : kind == "backward" ? f.backward : f.forward + f.backward;
    q.answerText = formatExact(q.answer) + " FLOPs (" + formatFlops(q.answer) + ")";
    q.relativeTolerance = 0.005;
    q.formula = "forward: " + f.forwardFormula;
    if (kind != "forward")
        q.formula += "\nbackward = 2 × forward (gradients w.r.t. inputs and weights): " + f.backwardFormula;
    if (kind == "forward+backward")
        q.formula += "\nforward + backward = " + formatExact(q.answer);
    q.page = ScenarioPage::accounting;
    q.setupJson = nlohmann::json{
        {"accounting",
         {{"model", {{"kind", "cruncher"}, {"dim", model.dim}, {"layers", model.layers}}},
          {"batch", batch},
          {"preset",
           ""}}}}.dump();
    q.parameters = {numberParameter("layers", model.layers), numberParameter("width", model.dim),
                    numberParameter("batch", batch)};
    return q;
}

} // namespace napkin

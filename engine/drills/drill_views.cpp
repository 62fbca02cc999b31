// SPDX-License-Identifier: GPL-3.0-or-later
// Views are free (new shape, strides and offset over the same storage); some operations must copy.
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/tensor/tensor_expression.h"

#include <algorithm>

namespace napkin {

using namespace drill_detail;

DrillQuestion viewsDrill(DrillRandom& dice) {
    const std::int64_t rows = dice.between(2, 8), cols = dice.between(2, 8);
    const std::string n = std::to_string(rows * cols), r = std::to_string(rows), c = std::to_string(cols);
    // Pairs of look-alikes: the same chain once free and once copying, so the question is the rule.
    const std::string expressions[] = {
        "x.t()",
        "x.t().contiguous()",
        "x.view(" + n + ")",
        "x.t().reshape(" + n + ")",
        "x.reshape(" + c + ", " + r + ")",
        "x[:, ::2]",
        "x[::2]",
        "x.permute(1, 0).contiguous()",
        "x.contiguous()",
        "x.clone()",
        "x.unsqueeze(0).expand(3, " + r + ", " + c + ")",
        "x.flatten()",
        "x.t().flatten()",
        "x[1]",
        "x.t()[1]",
        "x.narrow(1, 1, 1)",
        "x.T.reshape(" + c + ", " + r + ")",
        "x.t().t().view(" + n + ")",
    };
    const std::string expression = dice.pick(expressions);
    const TensorEvaluation e = evaluateTensorExpression(expression, {rows, cols}, 4);
    const bool copies =
        std::any_of(e.steps.begin() + 1, e.steps.end(), [](const TensorStep& s) { return !s.isView; });

    DrillQuestion q;
    q.topic = DrillTopic::views;
    q.kind = "view-or-copy";
    q.text = "x = torch.empty(" + r + ", " + c + "). Is " + expression +
             " a free view of x's storage, or does it copy? (view / copy)";
    q.unit = DrillUnit::choice;
    q.choices = {"view", "copy"};
    q.answer = copies ? 1 : 0;
    q.answerText = copies ? "copy" : "view";
    q.relativeTolerance = 0;
    for (std::size_t i = 0; i < e.steps.size(); ++i) {
        const TensorStep& s = e.steps[i];
        const std::string what = i == 0     ? ""
                                 : s.isView ? " — view"
                                            : " — copy of " + std::to_string(s.bytesCopied) + " B";
        q.formula += (i ? "\n" : "") + s.expr + ": shape " + tupleText(s.layout.shape) + ", stride " +
                     tupleText(s.layout.stride) + ", offset " + std::to_string(s.layout.offset) + what;
    }
    q.page = ScenarioPage::tensor;
    q.setupJson =
        nlohmann::json{{"tensor", {{"shape", r + "," + c}, {"expression", expression}, {"step", -1}}}}.dump();
    q.parameters = {listParameter("shape", {static_cast<double>(rows), static_cast<double>(cols)}),
                    textParameter("expression", expression)};
    return q;
}

} // namespace napkin

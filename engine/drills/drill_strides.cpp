// SPDX-License-Identifier: GPL-3.0-or-later
// Where an element lives: storage offset + Σ index·stride.
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/tensor/tensor_layout.h"
#include "engine/tensor/tensor_ops.h"

#include <algorithm>

namespace napkin {

using namespace drill_detail;

DrillQuestion stridesDrill(DrillRandom& dice) {
    const int dims = static_cast<int>(dice.between(2, 4));
    std::vector<std::int64_t> shape;
    shape.reserve(static_cast<std::size_t>(dims));
    for (int d = 0; d < dims; ++d)
        shape.push_back(dice.between(2, 9));
    TensorLayout t = freshTensor(shape, 4, 0);
    std::string setupShape, setupExpression = "x";
    for (std::size_t d = 0; d < shape.size(); ++d)
        setupShape += (d ? "," : "") + std::to_string(shape[d]);
    // Half the time a permuted view, whose strides are no longer descending.
    if (dice.between(0, 1) == 1) {
        std::vector<std::int64_t> order(static_cast<std::size_t>(dims));
        for (int d = 0; d < dims; ++d)
            order[static_cast<std::size_t>(d)] = d;
        for (int d = dims - 1; d > 0; --d) // Fisher–Yates with our own dice
            std::swap(order[static_cast<std::size_t>(d)],
                      order[static_cast<std::size_t>(dice.between(0, d))]);
        t = permute(t, order).layout;
        setupExpression += ".permute" + tupleText(order);
    }
    t.offset = dice.pick({0, 0, 3, 12});
    std::vector<std::int64_t> index;
    for (std::int64_t size : t.shape)
        index.push_back(dice.between(0, size - 1));
    // The page starts every tensor at storage offset 0: the question's offset is added by hand there.
    setupExpression += "[";
    for (std::size_t i = 0; i < index.size(); ++i)
        setupExpression += (i ? ", " : "") + std::to_string(index[i]);
    setupExpression += "]";

    DrillQuestion q;
    q.topic = DrillTopic::strides;
    q.kind = "offset";
    q.text = "A tensor has shape " + tupleText(t.shape) + ", stride " + tupleText(t.stride) +
             " and storage offset " + std::to_string(t.offset) +
             ". At which storage offset (in elements) is x" +
             [&] {
                 std::string s = "[";
                 for (std::size_t i = 0; i < index.size(); ++i)
                     s += (i ? ", " : "") + std::to_string(index[i]);
                 return s + "]";
             }() +
             "?";
    q.unit = DrillUnit::elements;
    q.answer = static_cast<double>(storageOffsetOf(t, index));
    q.answerText = std::to_string(storageOffsetOf(t, index));
    q.relativeTolerance = 0;
    q.formula = "offset + Σ index·stride\n" + storageOffsetFormula(t, index);
    q.page = ScenarioPage::tensor;
    q.setupJson =
        nlohmann::json{{"tensor", {{"shape", setupShape}, {"expression", setupExpression}, {"step", -1}}}}
            .dump();
    q.parameters = {listParameter("shape", {t.shape.begin(), t.shape.end()}),
                    listParameter("stride", {t.stride.begin(), t.stride.end()}),
                    numberParameter("storage_offset", static_cast<double>(t.offset)),
                    listParameter("index", {index.begin(), index.end()})};
    return q;
}

} // namespace napkin

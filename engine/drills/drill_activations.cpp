// SPDX-License-Identifier: GPL-3.0-or-later
// Activation bytes one transformer layer keeps for backward, 16-bit, no recompute (Korthikanti et al.
// 2022): s·b·h·(34 + 5·a·s/h).
#include "engine/drills/drill_generators.h"

#include <nlohmann/json.hpp>

#include "engine/accounting/activation_memory.h"
#include "engine/numerics/quantity_format.h"

namespace napkin {

using namespace drill_detail;

DrillQuestion activationsDrill(DrillRandom& dice) {
    static constexpr double kWidths[] = {768, 1024, 2048, 4096, 5120, 8192};
    static constexpr double kSeqs[] = {512, 1024, 2048, 4096};
    static constexpr double kBatches[] = {1, 2, 4, 8};
    ModelSpec model; // GPT-2's architecture: GELU MLP of 4h, LayerNorm, dropout, eager attention
    model.kind = ModelKind::transformer;
    model.dModel = dice.pick(kWidths);
    model.heads = model.dModel / dice.pick({64.0, 128.0});
    model.layers = 24;
    model.vocab = 50257;
    model.seq = dice.pick(kSeqs);
    const double batch = dice.pick(kBatches);
    const ActivationMemory a = activationMemory(model, batch, StorageType::bf16, Recompute::none);
    double perLayer = 0;
    std::string rows;
    for (const ActivationLedgerRow& row : a.ledger)
        if (row.perLayer)
            perLayer += row.bytes;

    DrillQuestion q;
    q.topic = DrillTopic::activations;
    q.kind = "bytes-per-layer";
    q.text =
        "A GPT-2-style transformer layer (h = " + formatExact(model.dModel) + ", " +
        formatExact(model.heads) + " heads, GELU MLP of 4h) at sequence " + formatExact(model.seq) +
        ", batch " + formatExact(batch) +
        ", 16-bit activations, no recompute: how many bytes of activations does one layer keep for backward?";
    q.unit = DrillUnit::bytes;
    q.answer = perLayer;
    q.answerText = formatExact(perLayer) + " B (" + formatBytes(perLayer) + ", " +
                   formatBytes(perLayer, ByteUnits::binary) + ")";
    q.relativeTolerance = 0.01;
    const double s = model.seq, b = batch, h = model.dModel, heads = model.heads;
    q.formula = "s·b·h·(34 + 5·a·s/h) (Korthikanti et al. 2022, Table 2)\n= " + formatExact(s) + " × " +
                formatExact(b) + " × " + formatExact(h) + " × (34 + 5 × " + formatExact(heads) + " × " +
                formatExact(s) + " / " + formatExact(h) + ") = " + formatExact(perLayer) + " B";
    q.page = ScenarioPage::accounting;
    q.setupJson = nlohmann::json{{"accounting",
                                  {{"model",
                                    {{"kind", "transformer"},
                                     {"d_model", h},
                                     {"heads", heads},
                                     {"seq", s},
                                     {"layers", model.layers},
                                     {"vocab", model.vocab}}},
                                   {"batch", b},
                                   {"recompute", "none"},
                                   {"precision", "mixed-bf16"},
                                   {"preset", ""}}}}
                      .dump();
    q.parameters = {numberParameter("hidden", h), numberParameter("heads", heads), numberParameter("seq", s),
                    numberParameter("batch", b)};
    return q;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/scenario/accounting_fields.h"

#include "engine/accounting/setup_presets.h"

namespace napkin {

AccountingScenario withInput(AccountingScenario fields, const AccountingInput& in) {
    ModelSpec& m = fields.input.model;
    m.kind = in.model.kind;
    switch (in.model.kind) {
    case ModelKind::dense: // seq is the dense model's tokens per sequence too: the preset's, or its FLOPs
                           // differ
        m.parameters = in.model.parameters;
        m.seq = in.model.seq;
        break;
    case ModelKind::cruncher:
        m.dim = in.model.dim;
        m.layers = in.model.layers;
        break;
    case ModelKind::linear2:
        m.dim = in.model.dim;
        m.out = in.model.out;
        break;
    case ModelKind::transformer: { // every transformer field; the other kinds' sizes stay
        const double parameters = m.parameters, dim = m.dim, out = m.out;
        m = in.model;
        m.parameters = parameters;
        m.dim = dim;
        m.out = out;
        break;
    }
    }
    const ModelSpec kept = m;
    fields.input = in;
    fields.input.model = kept;
    if (in.trainingTokens)
        fields.tokensShown = *in.trainingTokens;
    return fields;
}

AccountingScenario withModel(AccountingScenario fields, const ModelSpec& transformer) {
    ModelSpec& m = fields.input.model;
    const double parameters = m.parameters, dim = m.dim, out = m.out;
    m = transformer;
    m.kind = ModelKind::transformer;
    m.parameters = parameters;
    m.dim = dim;
    m.out = out;
    return fields;
}

Scenario runSetupScenario(const AccountingInput& input, const GpuCatalog& catalog) {
    Scenario scenario;
    scenario.page = ScenarioPage::accounting;
    scenario.accounting = withInput(AccountingScenario{}, input);
    for (const SetupPreset& preset : setupPresets())
        if (preset.input == input)
            scenario.accounting.preset = std::string(preset.id);
    if (!GpuCatalog::builtIn().find(input.gpu))
        if (const GpuSpec* part = catalog.find(input.gpu))
            scenario.gpus.parts.push_back(*part);
    return scenario;
}

} // namespace napkin

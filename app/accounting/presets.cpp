#include "app/accounting/presets.h"

#include "engine/accounting/setup_presets.h"

using namespace napkin;

// The engine's table of whole setups (the one napkin-cli's --preset reads), in Qt's strings.
const std::vector<Preset>& builtInPresets() {
    static const std::vector<Preset> presets = [] {
        std::vector<Preset> list;
        for (const SetupPreset& p : setupPresets())
            list.push_back({QString::fromUtf8(p.id.data(), qsizetype(p.id.size())),
                            QString::fromUtf8(p.name.data(), qsizetype(p.name.size())),
                            QString::fromUtf8(p.expectation.data(), qsizetype(p.expectation.size())),
                            p.input});
        return list;
    }();
    return presets;
}

const Preset* findPreset(const QString& idOrName) {
    for (const Preset& p : builtInPresets())
        if (p.id.compare(idOrName, Qt::CaseInsensitive) == 0 ||
            p.name.compare(idOrName, Qt::CaseInsensitive) == 0)
            return &p;
    return nullptr;
}

QString presetIdList() {
    return QString::fromStdString(setupPresetIds());
}

napkin::AccountingScenario withInput(napkin::AccountingScenario fields, const napkin::AccountingInput& in) {
    napkin::ModelSpec& m = fields.input.model;
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
    const napkin::ModelSpec kept = m;
    fields.input = in;
    fields.input.model = kept;
    if (in.trainingTokens)
        fields.tokensShown = *in.trainingTokens;
    return fields;
}

napkin::AccountingScenario withPreset(const napkin::AccountingScenario& fields, const Preset& preset) {
    napkin::AccountingScenario s = withInput(fields, preset.input);
    s.preset = preset.id.toStdString();
    return s;
}

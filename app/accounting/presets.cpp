#include "app/accounting/presets.h"

#include <QCoreApplication>
#include <QStringList>

namespace {

using namespace napkin;

Preset lectureTraining() {
    Preset p{QStringLiteral("70b-15t-1024-h100"),
             QCoreApplication::translate("Presets", "70B on 15T tokens with 1024 H100s"),
             QCoreApplication::translate("Presets", "6·70e9·15e12 = 6.3e24 FLOPs → ≈144 days"),
             {}};
    p.input.model.kind = ModelKind::dense;
    p.input.model.parameters = 70e9;
    p.input.trainingTokens = 15e12;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = 1024;
    p.input.mfu = 0.5;
    // ZeRO-3 so that the 16 B/param model states (1.12 TB) are spread over the 1024 GPUs and fit.
    p.input.zeroStage = 3;
    return p;
}

Preset lectureLargestModel() {
    Preset p{QStringLiteral("largest-8-h100"),
             QCoreApplication::translate("Presets", "Largest model on 8 H100s with AdamW"),
             QCoreApplication::translate("Presets",
                                         "4 + 4 + 4 + 4 = 16 B/param → 8 × 80e9 B / 16 B = 40e9 params"),
             {}};
    p.input.model.kind = ModelKind::dense;
    p.input.model.parameters = 40e9; // exactly the answer: the bar reaches the capacity line
    p.input.trainingTokens = std::nullopt;
    p.input.precision = PrecisionRecipe::fp32;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = 8;
    p.input.zeroStage = 3; // the lecture pools the 8 GPUs' memory: every state sharded
    return p;
}

Preset lectureCruncher() {
    Preset p{QStringLiteral("cruncher"),
             QCoreApplication::translate("Presets", "Cruncher D=4, 2 layers, AdaGrad"),
             QCoreApplication::translate("Presets",
                                         "4·(36 + 16 + 36 + 36) = 496 bytes; 6·2·36 = 432 FLOPs per step"),
             {}};
    p.input.model.kind = ModelKind::cruncher;
    p.input.model.dim = 4;
    p.input.model.layers = 2;
    p.input.batch = 2;
    p.input.trainingTokens = std::nullopt;
    p.input.precision = PrecisionRecipe::fp32;
    p.input.optimizer = OptimizerKind::adagrad;
    p.input.gpus = 1;
    return p;
}

Preset gpt2Small() {
    Preset p{
        QStringLiteral("gpt2-small"),
        QCoreApplication::translate("Presets", "GPT-2 small"),
        QCoreApplication::translate("Presets", "12·L·d² + 13·L·d + V·d + S·d + 2·d = 124,439,808 parameters"),
        {}};
    p.input.model.kind = ModelKind::transformer;
    p.input.model.dModel = 768;
    p.input.model.layers = 12;
    p.input.model.heads = 12;
    p.input.model.vocab = 50257;
    p.input.model.seq = 1024;
    p.input.batch = 8;
    p.input.trainingTokens = std::nullopt;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpus = 1;
    return p;
}

Preset gpt3() {
    Preset p{QStringLiteral("gpt3-175b"),
             QCoreApplication::translate("Presets", "GPT-3 175B"),
             QCoreApplication::translate("Presets", "≈175e9 parameters trained on 300e9 tokens"),
             {}};
    p.input.model.kind = ModelKind::transformer;
    p.input.model.dModel = 12288;
    p.input.model.layers = 96;
    p.input.model.heads = 96;
    p.input.model.vocab = 50257;
    p.input.model.seq = 2048;
    p.input.batch = 1;
    p.input.trainingTokens = 300e9;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adam;
    // A scenario, not history: 1024 H100s with ZeRO-3 and full recompute so that one sequence fits.
    p.input.gpu = "H100-SXM";
    p.input.gpus = 1024;
    p.input.mfu = 0.5;
    p.input.zeroStage = 3;
    p.input.recompute = Recompute::full;
    return p;
}

} // namespace

const std::vector<Preset>& builtInPresets() {
    static const std::vector<Preset> presets{lectureTraining(), lectureLargestModel(), lectureCruncher(),
                                             gpt2Small(), gpt3()};
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
    QStringList ids;
    for (const Preset& p : builtInPresets())
        ids << p.id;
    return ids.join(QStringLiteral(", "));
}

napkin::AccountingScenario withInput(napkin::AccountingScenario fields, const napkin::AccountingInput& in) {
    napkin::ModelSpec& m = fields.input.model;
    m.kind = in.model.kind;
    switch (in.model.kind) {
    case ModelKind::dense:
        m.parameters = in.model.parameters;
        break;
    case ModelKind::cruncher:
        m.dim = in.model.dim;
        m.layers = in.model.layers;
        break;
    case ModelKind::linear2:
        m.dim = in.model.dim;
        m.out = in.model.out;
        break;
    case ModelKind::transformer:
        m.layers = in.model.layers;
        m.dModel = in.model.dModel;
        m.heads = in.model.heads;
        m.vocab = in.model.vocab;
        m.ffnMult = in.model.ffnMult;
        m.seq = in.model.seq;
        break;
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

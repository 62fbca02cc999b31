#include "app/accounting/presets.h"

#include "engine/accounting/model_presets.h"

#include <QCoreApplication>
#include <QStringList>

namespace {

using namespace napkin;

// A model's shape from the engine's table of published configurations (the one napkin-cli uses).
ModelSpec publishedModel(const char* id) {
    return findModelPreset(id)->model;
}

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
    p.input.model = publishedModel("gpt2-small");
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
    p.input.model = publishedModel("gpt3-175b");
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

// Today's models: their published shapes on a layout that fits, with the training settings of their papers
// where those say (bf16 mixed precision, AdamW, 15T tokens for Llama 3).
Preset llamaTraining(const char* id, const QString& name, const QString& expectation, double gpus, double tp,
                     double pp, double microbatches) {
    Preset p{QString::fromLatin1(id), name, expectation, {}};
    p.input.model = publishedModel(id);
    p.input.batch = 1;
    p.input.trainingTokens = 15e12;
    p.input.precision = PrecisionRecipe::mixedBf16;
    p.input.optimizer = OptimizerKind::adamw;
    p.input.gpu = "H100-SXM";
    p.input.gpus = gpus;
    p.input.mfu = 0.4;
    p.input.zeroStage = 1;
    p.input.parallel.tp = tp;
    p.input.parallel.pp = pp;
    p.input.parallel.sp = tp > 1;
    p.input.parallel.microbatches = microbatches;
    return p;
}

Preset llama3_8b() {
    return llamaTraining(
        "llama3-8b", QCoreApplication::translate("Presets", "Llama 3 8B, tp 8 on 64 H100s"),
        QCoreApplication::translate("Presets", "8,030,261,248 parameters (GQA, SwiGLU, untied)"), 64, 8, 1,
        1);
}

Preset llama3_70b() {
    return llamaTraining(
        "llama3-70b", QCoreApplication::translate("Presets", "Llama 3 70B, tp 8 × pp 4 on 512 H100s"),
        QCoreApplication::translate("Presets", "70,553,706,496 parameters; bubble 3/11 with 8 "
                                               "micro-batches"),
        512, 8, 4, 8);
}

Preset llama3_405b() {
    // Meta trained at tp 8 × pp 16 with uneven stages; Napkin's stages are even, so 126 layers take 18,
    // and context parallelism 2 halves the 8192-token activations so that one sequence fits.
    Preset p = llamaTraining(
        "llama3-405b",
        QCoreApplication::translate("Presets", "Llama 3 405B, tp 8 × cp 2 × pp 18 on 18,432 H100s"),
        QCoreApplication::translate("Presets", "405,853,388,800 parameters; 7 layers per stage"), 18432, 8,
        18, 18);
    p.input.parallel.cp = 2;
    return p;
}

Preset mixtral() {
    Preset p = llamaTraining(
        "mixtral-8x7b", QCoreApplication::translate("Presets", "Mixtral 8x7B, tp 8 × ep 8 on 64 H100s"),
        QCoreApplication::translate("Presets", "46.7B parameters, 12.9B active per token"), 64, 8, 1, 1);
    p.input.trainingTokens = std::nullopt; // its training data is not published
    p.input.parallel.ep = 8;
    return p;
}

} // namespace

const std::vector<Preset>& builtInPresets() {
    static const std::vector<Preset> presets{
        lectureTraining(), lectureLargestModel(), lectureCruncher(), gpt2Small(), gpt3(),
        llama3_8b(),       llama3_70b(),          llama3_405b(),     mixtral()};
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

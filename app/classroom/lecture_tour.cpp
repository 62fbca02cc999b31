#include "app/classroom/lecture_tour.h"

#include "app/accounting/presets.h"
#include "engine/accounting/accounting.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"
#include "engine/tensor/tensor_expression.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>

#include <optional>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("LectureTour", text);
}

QString unavailable() {
    return tr("(the page has no valid result)");
}

// The lecture's convention, which every answer of the tour uses: the datasheet's capacity (an H100's
// "80 GB" = 80e9 B) and no overheads (memory_overheads.h). The page shows it selected.
void useLectureMemoryBasis(Scenario& s) {
    s.accounting.input.overheads = datasheetOverheads();
}

// The edits: what each question sets, on top of whatever the pages showed.
void showPreset(Scenario& s, const char* id) {
    if (const Preset* preset = findPreset(QString::fromLatin1(id)))
        s.accounting = withPreset(s.accounting, *preset);
    useLectureMemoryBasis(s);
}

void showTensor(Scenario& s, const char* shape, const char* expression) {
    s.tensor.shape = shape;
    s.tensor.expression = expression;
    s.tensor.step = -1;
}

// What the accounting page computes for the scenario (nullopt where it would show an error).
std::optional<AccountingResult> accounted(const Scenario& s) {
    const AccountingInput& in = s.accounting.input;
    if (!validate(in).ok())
        return std::nullopt;
    return account(in, *GpuCatalog::builtIn().find(in.gpu));
}

// What the tensor page evaluates for the scenario.
std::optional<TensorEvaluation> evaluated(const Scenario& s) {
    std::string error;
    const auto shape = parseShapeText(s.tensor.shape, &error);
    const auto dtype = tensorDTypeFromName(s.tensor.dtype);
    if (!shape || !dtype)
        return std::nullopt;
    return evaluateTensorExpression(s.tensor.expression, *shape, dtype->bytes);
}

QString answerNapkinMath(const Scenario& s) {
    const auto r = accounted(s);
    if (!r || !r->trainingFlops || !r->trainingDays)
        return unavailable();
    const AccountingInput& in = s.accounting.input;
    return tr("6·N·T = %1; ÷ (%2 GPUs × %3 × MFU %4) = %5 days")
        .arg(toQString(r->trainingFlops->formula), numberText(in.gpus),
             toQString(formatFlops(r->densePeakFlopsPerSecond.value, true)), numberText(in.mfu),
             numberText(r->trainingDays->value));
}

QString answerLargestModel(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return tr("AdamW in fp32: %1 per parameter → %2 × %3 / %4 B = %5 parameters (the lecture's convention: "
              "the datasheet's %3 per GPU, no overheads; “Fits against” shows it)")
        .arg(toQString(r->bytesPerParameter.ledger), numberText(s.accounting.input.gpus),
             toQString(formatBytes(r->capacityBytes.value)), numberText(r->bytesPerParameter.total),
             numberText(r->maxParameters.value));
}

QString answerDtypes(const Scenario& s) {
    const auto stored = [&](FloatFormat f) {
        const FloatRounding r = roundToFormat(f, s.formats.value);
        return tr("%1 (%2)").arg(toQString(formatShortest(r.value)),
                                 toQString(std::string(floatClassName(r.cls))));
    };
    return tr("fp16(1e-8) = %1: underflow, the update vanishes. bf16(1e-8) = %2: fp32's exponent range, "
              "fewer mantissa bits.")
        .arg(stored(FloatFormat::fp16), stored(FloatFormat::bf16));
}

QString answerStrides(const Scenario& s) {
    const auto e = evaluated(s);
    if (!e || e->error || e->steps.size() < 2)
        return unavailable();
    const TensorLayout& x = e->steps.front().layout;
    return tr("x has strides %1; x[1, 2] is a view at storage offset %2")
        .arg(toQString(formatShape(x.stride)), toQString(storageOffsetFormula(x, {1, 2})));
}

QString answerViewError(const Scenario& s) {
    const auto e = evaluated(s);
    if (!e || !e->error)
        return unavailable();
    const TensorLayout& t = e->steps.back().layout;
    return tr("Step %1 fails: %2 The transpose has strides %3, not contiguous; .contiguous() copies %4 "
              "first.")
        .arg(e->error->step)
        .arg(toQString(e->error->message), toQString(formatShape(t.stride)),
             toQString(formatBytes(static_cast<double>(t.numel() * t.elementBytes))));
}

void editMatmulFlops(Scenario& s) {
    AccountingInput in = s.accounting.input;
    in.model.kind = ModelKind::linear2;
    in.model.dim = 32768;
    in.model.out = 8192;
    in.batch = 16384;
    in.trainingTokens = std::nullopt;
    in.precision = PrecisionRecipe::fp32;
    in.gpus = 1;
    in.zeroStage = 0;
    in.overheads = datasheetOverheads(); // the lecture's convention, as every step of the tour
    s.accounting = withInput(s.accounting, in);
    s.accounting.preset.clear(); // no preset describes this input
}

QString answerMatmulFlops(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return tr("2·m·n·k per matmul: forward %1; backward (two matmuls per matmul) %2")
        .arg(toQString(r->flopsPerStep.forwardFormula), toQString(r->flopsPerStep.backwardFormula));
}

QString answerSixN(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return tr("forward 2N + backward 4N = %1 = %2 per token")
        .arg(toQString(r->flopsPerToken.formula), toQString(formatFlops(r->flopsPerToken.value)));
}

// The 70B scenario's GPU and MFU, accounted by the engine; the Benchmarks page measures the real thing.
QString answerMfu(const Scenario&) {
    const Preset* preset = findPreset(QStringLiteral("70b-15t-1024-h100"));
    const GpuSpec* gpu = preset ? GpuCatalog::builtIn().find(preset->input.gpu) : nullptr;
    if (!gpu)
        return unavailable();
    const AccountingResult r = account(preset->input, *gpu);
    return tr("MFU = achieved model FLOP/s ÷ promised peak. At MFU %1 one %2 (%3 dense) delivers %4; a "
              "matmul sweep here measures it.")
        .arg(numberText(preset->input.mfu), toQString(preset->input.gpu),
             toQString(formatFlops(r.densePeakFlopsPerSecond.value, true)),
             toQString(formatFlops(preset->input.mfu * r.densePeakFlopsPerSecond.value, true)));
}

QString answerCruncher(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return tr("params + grads + master + AdaGrad state + activations = %1; one step %2")
        .arg(toQString(r->memory.total.formula), toQString(r->flopsPerStep.totalFormula));
}

} // namespace

const std::vector<LectureTourStep>& lectureTourSteps() {
    using P = ScenarioPage;
    static const std::vector<LectureTourStep> steps{
        {QStringLiteral("napkin-math"), P::accounting,
         tr("How long does training a 70B model on 15T tokens take on 1024 H100s at MFU 0.5?"),
         [](Scenario& s) { showPreset(s, "70b-15t-1024-h100"); }, answerNapkinMath},
        {QStringLiteral("largest-model"), P::accounting,
         tr("What is the largest model that trains on 8 H100s with AdamW, everything in fp32?"),
         [](Scenario& s) { showPreset(s, "largest-8-h100"); }, answerLargestModel},
        {QStringLiteral("dtypes"), P::formats, tr("What are fp16(1e-8) and bf16(1e-8)?"),
         [](Scenario& s) {
             s.formats.value = 1e-8;
             s.formats.pinnedFormat.reset();
         },
         answerDtypes},
        {QStringLiteral("strides"), P::tensor,
         tr("Where in storage is element (1, 2) of a contiguous 4×4 tensor?"),
         [](Scenario& s) { showTensor(s, "4,4", "x[1, 2]"); }, answerStrides},
        {QStringLiteral("view-error"), P::tensor, tr("x is 2×3. Why does x.transpose(1, 0).view(2, 3) fail?"),
         [](Scenario& s) { showTensor(s, "2,3", "x.transpose(1, 0).view(2, 3)"); }, answerViewError},
        {QStringLiteral("matmul-flops"), P::accounting,
         tr("How many FLOPs for the two-layer linear model, B=16384, D=32768, K=8192?"), editMatmulFlops,
         answerMatmulFlops},
        {QStringLiteral("6n"), P::accounting, tr("Why is training 6 FLOPs per parameter per token?"),
         [](Scenario& s) { showPreset(s, "70b-15t-1024-h100"); }, answerSixN},
        {QStringLiteral("mfu"), P::benchmarks, tr("What is MFU, and what does 0.5 mean on an H100?"),
         [](Scenario&) {}, answerMfu},
        {QStringLiteral("cruncher-memory"), P::accounting,
         tr("How many bytes does the Cruncher (D=4, 2 layers, batch 2, AdaGrad, fp32) need?"),
         [](Scenario& s) { showPreset(s, "cruncher"); }, answerCruncher},
    };
    return steps;
}

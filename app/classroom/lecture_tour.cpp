#include "app/classroom/lecture_tour.h"

#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/benchmarks/benchmarks_page.h"
#include "app/formats/number_formats_page.h"
#include "app/accounting/presets.h"
#include "app/tensor/tensor_page.h"
#include "engine/numerics/quantity_format.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QLabel>
#include <QTabWidget>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("LectureTour", text);
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
QString n(double v) {
    return q(formatNumber(v));
}

// Applies a preset and hands back what the page computed (the page keeps the last valid result).
const AccountingResult* showPreset(const TourPages& p, const char* id) {
    if (const Preset* preset = findPreset(QString::fromLatin1(id)))
        p.accounting->applyPreset(*preset);
    return p.accounting->lastResult() ? &*p.accounting->lastResult() : nullptr;
}

QString unavailable() {
    return tr("(the page has no valid result)");
}

QString answerNapkinMath(const TourPages& p) {
    const AccountingResult* r = showPreset(p, "70b-15t-1024-h100");
    if (!r || !r->trainingFlops || !r->trainingDays)
        return unavailable();
    const AccountingInput in = p.accounting->controls()->input();
    return tr("6·N·T = %1; ÷ (%2 GPUs × %3 × MFU %4) = %5 days")
        .arg(q(r->trainingFlops->formula), n(in.gpus), q(formatFlops(r->densePeakFlopsPerSecond.value, true)),
             n(in.mfu), n(r->trainingDays->value));
}

QString answerLargestModel(const TourPages& p) {
    const AccountingResult* r = showPreset(p, "largest-8-h100");
    if (!r)
        return unavailable();
    const AccountingInput in = p.accounting->controls()->input();
    return tr("AdamW in fp32: %1 per parameter → %2 × %3 / %4 B = %5 parameters")
        .arg(q(r->bytesPerParameter.ledger), n(in.gpus), q(formatBytes(r->capacityBytes.value)),
             n(r->bytesPerParameter.total), n(r->maxParameters.value));
}

QString answerDtypes(const TourPages& p) {
    p.formats->setValue(1e-8);
    const auto stored = [&](FloatFormat f) {
        return tr("%1 (%2)").arg(p.formats->storedValueLabel(f)->text(), p.formats->classLabel(f)->text());
    };
    return tr("fp16(1e-8) = %1: underflow, the update vanishes. bf16(1e-8) = %2: fp32's exponent range, "
              "fewer mantissa bits.")
        .arg(stored(FloatFormat::fp16), stored(FloatFormat::bf16));
}

QString answerStrides(const TourPages& p) {
    p.tensor->setExample(QStringLiteral("4,4"), QStringLiteral("x[1, 2]"));
    const TensorEvaluation& e = p.tensor->evaluation();
    if (e.error || e.steps.size() < 2)
        return unavailable();
    const TensorLayout& x = e.steps.front().layout;
    return tr("x has strides %1; x[1, 2] is a view at storage offset %2")
        .arg(q(formatShape(x.stride)), q(storageOffsetFormula(x, {1, 2})));
}

QString answerViewError(const TourPages& p) {
    p.tensor->setExample(QStringLiteral("2,3"), QStringLiteral("x.transpose(1, 0).view(2, 3)"));
    const TensorEvaluation& e = p.tensor->evaluation();
    if (!e.error)
        return unavailable();
    const TensorLayout& t = e.steps.back().layout;
    return tr("Step %1 fails: %2 The transpose has strides %3, not contiguous; .contiguous() copies %4 "
              "first.")
        .arg(e.error->step)
        .arg(q(e.error->message), q(formatShape(t.stride)),
             q(formatBytes(static_cast<double>(t.numel() * t.elementBytes))));
}

QString answerMatmulFlops(const TourPages& p) {
    AccountingInput in = p.accounting->controls()->input();
    in.model.kind = ModelKind::linear2;
    in.model.dim = 32768;
    in.model.out = 8192;
    in.batch = 16384;
    in.trainingTokens = std::nullopt;
    in.precision = PrecisionRecipe::fp32;
    in.gpus = 1;
    in.zeroStage = 0;
    p.accounting->presetBox()->setCurrentIndex(0); // no preset describes this input
    p.accounting->controls()->setInput(in);
    p.accounting->recompute();
    const AccountingResult* r = p.accounting->lastResult() ? &*p.accounting->lastResult() : nullptr;
    if (!r)
        return unavailable();
    return tr("2·m·n·k per matmul: forward %1; backward (two matmuls per matmul) %2")
        .arg(q(r->flopsPerStep.forwardFormula), q(r->flopsPerStep.backwardFormula));
}

QString answerSixN(const TourPages& p) {
    const AccountingResult* r = showPreset(p, "70b-15t-1024-h100");
    if (!r)
        return unavailable();
    return tr("forward 2N + backward 4N = %1 = %2 per token")
        .arg(q(r->flopsPerToken.formula), q(formatFlops(r->flopsPerToken.value)));
}

// The 70B scenario's GPU and MFU, accounted by the engine; the Benchmarks page measures the real thing.
QString answerMfu(const TourPages& p) {
    const Preset* preset = findPreset(QStringLiteral("70b-15t-1024-h100"));
    const GpuSpec* gpu = preset ? GpuCatalog::builtIn().find(preset->input.gpu) : nullptr;
    if (!gpu)
        return unavailable();
    const AccountingResult r = account(preset->input, *gpu);
    (void)p;
    return tr("MFU = achieved model FLOP/s ÷ promised peak. At MFU %1 one %2 (%3 dense) delivers %4; a "
              "matmul sweep "
              "here measures it.")
        .arg(n(preset->input.mfu), q(preset->input.gpu),
             q(formatFlops(r.densePeakFlopsPerSecond.value, true)),
             q(formatFlops(preset->input.mfu * r.densePeakFlopsPerSecond.value, true)));
}

QString answerCruncher(const TourPages& p) {
    const AccountingResult* r = showPreset(p, "cruncher");
    if (!r)
        return unavailable();
    return tr("params + grads + master + AdaGrad state + activations = %1; one step %2")
        .arg(q(r->memory.total.formula), q(r->flopsPerStep.totalFormula));
}

} // namespace

const std::vector<LectureTourStep>& lectureTourSteps() {
    static const std::vector<LectureTourStep> steps{
        {QStringLiteral("napkin-math"), TourPage::accounting,
         tr("How long does training a 70B model on 15T tokens take on 1024 H100s at MFU 0.5?"),
         answerNapkinMath},
        {QStringLiteral("largest-model"), TourPage::accounting,
         tr("What is the largest model that trains on 8 H100s with AdamW, everything in fp32?"),
         answerLargestModel},
        {QStringLiteral("dtypes"), TourPage::formats, tr("What are fp16(1e-8) and bf16(1e-8)?"),
         answerDtypes},
        {QStringLiteral("strides"), TourPage::tensor,
         tr("Where in storage is element (1, 2) of a contiguous 4×4 tensor?"), answerStrides},
        {QStringLiteral("view-error"), TourPage::tensor,
         tr("x is 2×3. Why does x.transpose(1, 0).view(2, 3) fail?"), answerViewError},
        {QStringLiteral("matmul-flops"), TourPage::accounting,
         tr("How many FLOPs for the two-layer linear model, B=16384, D=32768, K=8192?"), answerMatmulFlops},
        {QStringLiteral("6n"), TourPage::accounting, tr("Why is training 6 FLOPs per parameter per token?"),
         answerSixN},
        {QStringLiteral("mfu"), TourPage::benchmarks, tr("What is MFU, and what does 0.5 mean on an H100?"),
         answerMfu},
        {QStringLiteral("cruncher-memory"), TourPage::accounting,
         tr("How many bytes does the Cruncher (D=4, 2 layers, batch 2, AdaGrad, fp32) need?"),
         answerCruncher},
    };
    return steps;
}

QWidget* tourPageWidget(const TourPages& pages, TourPage page) {
    switch (page) {
    case TourPage::accounting:
        return pages.accounting;
    case TourPage::formats:
        return pages.formats;
    case TourPage::tensor:
        return pages.tensor;
    case TourPage::benchmarks:
        return pages.benchmarks;
    }
    return nullptr;
}

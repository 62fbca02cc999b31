// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/tour_answers.h"

#include "app/accounting/presets.h"
#include "app/hardware/chosen_hardware_profile.h"
#include "engine/accounting/accounting.h"
#include "engine/numerics/float_rounding.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/step_time.h"
#include "engine/steptime/step_time_summary.h"
#include "engine/tensor/tensor_expression.h"
#include "widgets/text/engine_text.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>

using namespace napkin;

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("TourAnswers", text);
}

TourAnswer unavailable() {
    TourAnswer a;
    a.text = tr("(the page has no valid result)");
    a.headline = a.text;
    a.derivation = {a.text};
    return a;
}

// The caption as lines: one per clause ("…; …") or sentence.
QStringList linesOf(const QString& text) {
    static const QRegularExpression breaks(QStringLiteral("(?<=;|\\.) (?=[^ ])"));
    QStringList lines;
    for (QString part : text.split(breaks, Qt::SkipEmptyParts)) {
        if (part.endsWith(QLatin1Char(';')))
            part.chop(1);
        lines << part.trimmed();
    }
    return lines;
}

TourAnswer made(QString text, QString headline, std::optional<double> value, DrillUnit unit,
                double tolerance = 0.05) {
    TourAnswer a;
    a.ok = true;
    a.derivation = linesOf(text);
    a.text = std::move(text);
    a.headline = std::move(headline);
    a.value = value;
    a.unit = unit;
    a.relativeTolerance = tolerance;
    return a;
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

TourAnswer trainingTime(const Scenario& s) {
    const auto r = accounted(s);
    if (!r || !r->trainingFlops || !r->trainingDays)
        return unavailable();
    const AccountingInput& in = s.accounting.input;
    return made(tr("6·N·T = %1; ÷ (%2 GPUs × %3 × MFU %4) = %5 days")
                    .arg(toQString(r->trainingFlops->formula), numberText(in.gpus),
                         toQString(formatFlops(r->densePeakFlopsPerSecond.value, true)), numberText(in.mfu),
                         numberText(r->trainingDays->value)),
                tr("%1 days").arg(numberText(r->trainingDays->value)), r->trainingDays->value,
                DrillUnit::days);
}

// The lecture's convention, where the answer depends on a GPU's memory: what it is counted against.
QString capacityConvention(const Scenario& s, const AccountingResult& r) {
    if (s.accounting.input.overheads.basis != MemoryBasis::datasheet)
        return {};
    return tr("Counted by the lecture's convention: the datasheet's %1 per GPU (%2 B), no overheads "
              "(“Fits against” on the page).")
        .arg(toQString(formatBytes(r.capacityBytes.value)), numberText(r.capacityBytes.value));
}

TourAnswer largestModel(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    TourAnswer answer = made(tr("%1 in %2: %3 per parameter → %4 × %5 / %6 B = %7 parameters")
                    .arg(toQString(optimizerName(s.accounting.input.optimizer)),
                         toQString(precisionRecipeName(s.accounting.input.precision)),
                         toQString(r->bytesPerParameter.ledger), numberText(s.accounting.input.gpus),
                         toQString(formatBytes(r->capacityBytes.value)),
                         numberText(r->bytesPerParameter.total), numberText(r->maxParameters.value)),
                tr("%1 parameters").arg(numberText(r->maxParameters.value)), r->maxParameters.value,
                DrillUnit::parameters);
    answer.convention = capacityConvention(s, *r);
    return answer;
}

TourAnswer dtypeUnderflow(const Scenario& s) {
    const auto stored = [&](FloatFormat f) {
        const FloatRounding r = roundToFormat(f, s.formats.value);
        return tr("%1 (%2)").arg(toQString(formatShortest(r.value)),
                                 toQString(std::string(floatClassName(r.cls))));
    };
    QString value = toQString(formatShortest(s.formats.value)); // "1e-08" as the lecture writes it: "1e-8"
    value.replace(QStringLiteral("e-0"), QStringLiteral("e-"))
        .replace(QStringLiteral("e+0"), QStringLiteral("e+"));
    const double fp16 = roundToFormat(FloatFormat::fp16, s.formats.value).value;
    return made(tr("fp16(%1) = %2: %3. bf16(%1) = %4: fp32's exponent range, fewer mantissa bits.")
                    .arg(value, stored(FloatFormat::fp16),
                         fp16 == 0 ? tr("underflow, the update vanishes") : tr("stored"),
                         stored(FloatFormat::bf16)),
                tr("fp16: %1, bf16: %2").arg(stored(FloatFormat::fp16), stored(FloatFormat::bf16)),
                std::isfinite(fp16) ? std::optional<double>(fp16) : std::nullopt, DrillUnit::number,
                fp16 == 0 ? 0 : 0.001);
}

TourAnswer storageOffset(const Scenario& s) {
    const auto e = evaluated(s);
    if (!e || e->error || e->steps.size() < 2)
        return unavailable();
    const TensorLayout& x = e->steps.front().layout;
    const TensorLayout& last = e->steps.back().layout;
    return made(tr("x has strides %1; %2 is a view at storage offset %3")
                    .arg(toQString(formatShape(x.stride)), toQString(e->steps.back().expr),
                         toQString(storageOffsetFormula(x, {1, 2}))),
                tr("storage offset %1").arg(last.offset), static_cast<double>(last.offset),
                DrillUnit::elements, 0);
}

TourAnswer viewError(const Scenario& s) {
    const auto e = evaluated(s);
    if (!e || !e->error)
        return unavailable();
    const TensorLayout& t = e->steps.back().layout;
    return made(
        tr("Step %1 fails: %2 The transpose has strides %3, not contiguous; .contiguous() copies %4 first.")
            .arg(e->error->step)
            .arg(toQString(e->error->message), toQString(formatShape(t.stride)),
                 toQString(formatBytes(static_cast<double>(t.numel() * t.elementBytes)))),
        tr("step %1 fails: not contiguous").arg(e->error->step), std::nullopt, DrillUnit::number);
}

TourAnswer matmulFlops(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return made(
        tr("2·m·n·k per matmul: forward %1; backward (two matmuls per matmul) %2")
            .arg(toQString(r->flopsPerStep.forwardFormula), toQString(r->flopsPerStep.backwardFormula)),
        tr("forward %1, backward %2")
            .arg(toQString(formatFlops(r->flopsPerStep.forward)),
                 toQString(formatFlops(r->flopsPerStep.backward))),
        r->flopsPerStep.forward, DrillUnit::flops);
}

TourAnswer flopsPerToken(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    return made(tr("forward 2N + backward 4N = %1 = %2 per token")
                    .arg(toQString(r->flopsPerToken.formula), toQString(formatFlops(r->flopsPerToken.value))),
                tr("%1 per token").arg(toQString(formatFlops(r->flopsPerToken.value))),
                r->flopsPerToken.value, DrillUnit::flops);
}

// The 70B scenario's GPU and MFU, accounted by the engine: the Roofline page draws that GPU's roof; the
// Benchmarks page measures the real thing.
TourAnswer mfu(const Scenario&) {
    const Preset* preset = findPreset(QStringLiteral("70b-15t-1024-h100"));
    const GpuSpec* gpu = preset ? GpuCatalog::builtIn().find(preset->input.gpu) : nullptr;
    if (!gpu)
        return unavailable();
    const AccountingResult r = account(preset->input, *gpu);
    const double delivered = preset->input.mfu * r.densePeakFlopsPerSecond.value;
    return made(tr("MFU = achieved model FLOP/s ÷ promised peak (the roof). At MFU %1 one %2 (%3 dense) "
                   "delivers %4; a matmul sweep on the Benchmarks page measures this machine.")
                    .arg(numberText(preset->input.mfu), toQString(preset->input.gpu),
                         toQString(formatFlops(r.densePeakFlopsPerSecond.value, true)),
                         toQString(formatFlops(delivered, true))),
                tr("%1 of %2")
                    .arg(toQString(formatFlops(delivered, true)),
                         toQString(formatFlops(r.densePeakFlopsPerSecond.value, true))),
                delivered, DrillUnit::flops);
}

// "What MFU will this setup actually get?": the step-time model's answer (the Accounting page's "Step time
// (predicted)" row), the MFU it predicts against the one the training time assumes.
TourAnswer predictedStepTime(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    const AccountingInput& in = s.accounting.input;
    // The page's own step: from the app's profile where it was measured on this GPU (the Accounting page
    // shows that), else the GPU's published one.
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
    const StepTime t = stepTimeFromProfile(in, *r, gpu, ChosenHardwareProfile::instance().profileFor(gpu));
    if (!t.predicted) {
        TourAnswer answer = unavailable();
        answer.text = tr("not predicted: %1").arg(toQString(t.whyNot));
        answer.headline = answer.text;
        answer.derivation = {answer.text};
        return answer;
    }
    return made(tr("one step = %1; MFU = %2; from %3; %4")
                    .arg(toQString(stepSecondsByKindText(t)), toQString(t.mfuFormula), toQString(t.basis),
                         toQString(stepTimeValidationNote(t.basis))),
                tr("MFU %1 (assumed %2), %3 per step")
                    .arg(numberText(t.mfu), numberText(in.mfu), toQString(formatDuration(t.seconds))),
                t.mfu, DrillUnit::number, 0.1);
}

// The lecture sums every tensor; the step's peak (the chart's) is what it holds at its fullest moment.
// Where the two differ the answer says both, and why, so that the screen does not show two numbers for
// one question without a word.
TourAnswer memoryTotal(const Scenario& s) {
    const auto r = accounted(s);
    if (!r)
        return unavailable();
    const double sum = r->memory.total.value, peak = r->peakMemory.value;
    QString text = tr("params + grads + master + optimizer state + activations = %1; one step %2")
                       .arg(toQString(r->memory.total.formula), toQString(r->flopsPerStep.totalFormula));
    QString headline = tr("%1 B").arg(numberText(sum));
    if (r->peakFromTimeline && peak != sum) {
        const QString peakText = tr("%1 B at %2").arg(numberText(peak), toQString(r->peakEvent));
        headline = tr("%1 B, every tensor summed (the step's peak: %2)").arg(numberText(sum), peakText);
        text += tr(". %1 B is the lecture's count, every tensor at once. The step's peak, the chart's, is "
                   "%2: %3.")
                    .arg(numberText(sum), peakText,
                         peak < sum ? tr("activations are freed as backward uses them, before every gradient "
                                         "exists, so the step never holds them all at once")
                                    : tr("backward's temporaries come on top of the saved tensors"));
    }
    TourAnswer answer = made(text, headline, sum, DrillUnit::bytes);
    answer.convention = capacityConvention(s, *r);
    return answer;
}

} // namespace

TourAnswer tourAnswer(std::string_view field, const Scenario& s) {
    if (field == "training-time")
        return trainingTime(s);
    if (field == "largest-model")
        return largestModel(s);
    if (field == "dtype-underflow")
        return dtypeUnderflow(s);
    if (field == "storage-offset")
        return storageOffset(s);
    if (field == "view-error")
        return viewError(s);
    if (field == "matmul-flops")
        return matmulFlops(s);
    if (field == "flops-per-token")
        return flopsPerToken(s);
    if (field == "mfu")
        return mfu(s);
    if (field == "memory-total")
        return memoryTotal(s);
    if (field == "step-time")
        return predictedStepTime(s);
    return unavailable();
}

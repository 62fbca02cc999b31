// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/accounting/answers_panel.h"

#include "widgets/controls/answers_grid.h"
#include "widgets/text/engine_text.h"

#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>

using namespace napkin;

namespace {

QString dtype(StorageType t) {
    return toQString(std::string(storageTypeName(t)));
}

// Whole counts are easier to check against a paper with digit grouping: "124,439,808".
QString grouped(double v) {
    if (v < 1e15 && v == std::floor(v))
        return QLocale(QLocale::English).toString(static_cast<qlonglong>(v));
    return numberText(v);
}

// Large non-whole results (GPU-days) read better rounded and grouped than in e-notation.
QString readable(double v) {
    if (v >= 1e4 && v < 1e15)
        return grouped(std::round(v));
    return numberText(v);
}

} // namespace

const QStringList& AnswersPanel::keys() {
    static const QStringList k{QStringLiteral("parameters"),
                               QStringLiteral("activeParameters"),
                               QStringLiteral("trainableParameters"),
                               QStringLiteral("bytesPerParameter"),
                               QStringLiteral("memoryPerGpu"),
                               QStringLiteral("peakOverStep"),
                               QStringLiteral("overheads"),
                               QStringLiteral("usableMemory"),
                               QStringLiteral("fits"),
                               QStringLiteral("measuredPeak"),
                               QStringLiteral("measuredDifference"),
                               QStringLiteral("flopsPerStep"),
                               QStringLiteral("trainingFlops"),
                               QStringLiteral("trainingTime"),
                               QStringLiteral("stepTime"), // the step-time model's MFU beside the assumed
                               QStringLiteral("hfu"),
                               QStringLiteral("gpuDays"),
                               QStringLiteral("gpuHours"), // what the run costs, beside its time
                               QStringLiteral("runCost"),
                               QStringLiteral("energy"),
                               QStringLiteral("emissions"),
                               QStringLiteral("layout"),
                               QStringLiteral("communication"),
                               QStringLiteral("maxParameters"),
                               QStringLiteral("maxParametersPooled"),
                               QStringLiteral("maxBatch"),
                               QStringLiteral("maxSequence")};
    return k;
}

AnswersPanel::AnswersPanel(QWidget* parent)
    : QWidget(parent)
    , m_notices(this, QStringLiteral("accountingError"))
    , m_grid(new AnswersGrid(this))
    , m_notes(new QLabel(this)) {
    auto* outer = new QVBoxLayout(this);
    m_notices.addTo(outer);

    const QStringList titles{tr("Parameters"),
                             tr("Active per token"),
                             tr("Trainable (fine-tuning)"),
                             tr("Bytes per parameter"),
                             tr("Memory per GPU (sum)"),
                             tr("Peak over one step"),
                             tr("Overheads (CUDA, libraries, allocator)"),
                             tr("Usable memory"),
                             tr("Fits on the GPU"),
                             tr("Measured peak (your run)"),
                             tr("… measured − predicted"),
                             tr("FLOPs per step"),
                             tr("Training FLOPs (model)"),
                             tr("Training time at the MFU"),
                             tr("Step time (predicted)"),
                             tr("HFU (with recompute)"),
                             tr("GPU-days"),
                             tr("GPU-hours"),
                             tr("Cost of the run"),
                             tr("Energy"),
                             tr("Emissions"),
                             tr("Parallel layout"),
                             tr("Communication per step"),
                             tr("Largest model that fits"),
                             tr("… pooled over all GPUs"),
                             tr("Largest batch that fits"),
                             tr("Longest sequence that fits")};
    m_grid->setFormulaBesideWhenRoom(true);
    for (int i = 0; i < keys().size(); ++i)
        m_grid->addRow(keys()[i], titles[i]);
    setMeasuredRun(nullptr, {}, ByteUnits::decimal);
    outer->addWidget(m_grid);
    m_notes->setWordWrap(true);
    m_notes->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(m_notes);
    outer->addStretch(1);
}

void AnswersPanel::setFitVerdict(const FitVerdict& v, const AccountingResult& r, ByteUnits units) {
    if (v.basis != FitBasis::reserved) { // on allocated, as setResult() said it; the reason beside it
        m_grid->setRow(QStringLiteral("fits"), valueText(QStringLiteral("fits")),
                       toQString(v.formula) + QStringLiteral("\n") + toQString(r.fitsFormula) +
                           QStringLiteral("\n") + toQString(r.usableBytes.formula));
        return;
    }
    const QString required = toQString(formatBytes(v.requiredBytes, units));
    const QString capacity = toQString(formatBytes(v.usableBytes, units));
    m_grid->setRow(QStringLiteral("fits"),
                   v.fits ? tr("yes — on reserved: %1 with overheads, of %2 usable").arg(required, capacity)
                          : tr("NO — on reserved: %1 with overheads > %2 usable").arg(required, capacity),
                   toQString(v.formula) + QStringLiteral("\n") + toQString(r.fitsFormula) + QStringLiteral("\n") +
                       toQString(r.usableBytes.formula));
}

void AnswersPanel::setResult(const AccountingResult& r, ByteUnits units) {
    m_notices.clearError();
    m_grid->setEnabled(true);
    m_notes->setEnabled(true);
    m_grid->setRow(QStringLiteral("parameters"), grouped(r.parameters.total),
                   toQString(r.parameters.formula));
    m_grid->setRow(QStringLiteral("activeParameters"), grouped(r.parameters.active),
                   toQString(r.parameters.activeFormula));
    m_grid->setRowVisible(QStringLiteral("activeParameters"), r.parameters.active != r.parameters.total);
    if (r.fineTune)
        m_grid->setRow(
            QStringLiteral("trainableParameters"),
            tr("%1 of %2").arg(grouped(r.trainableParameters), grouped(r.fineTune->allParameters.value)),
            toQString(r.fineTune->trainableParameters.formula));
    m_grid->setRowVisible(QStringLiteral("trainableParameters"), r.fineTune.has_value());

    const PrecisionLedger& p = r.precision;
    const BytesPerParameter& b = r.bytesPerParameter;
    QString ledgerNames = tr("params %1 + grads %2").arg(dtype(p.parameters), dtype(p.gradients));
    if (b.masterWeights > 0)
        ledgerNames += tr(" + master %1").arg(dtype(p.masterWeights));
    if (b.optimizerStateTensors > 0)
        ledgerNames += tr(" + %1 × state %2").arg(b.optimizerStateTensors).arg(dtype(p.optimizerState));
    // Under LoRA and QLoRA the ledger is that of the trained parameters; the frozen base is stored
    // otherwise (NF4 under QLoRA: 2 + 2 + 4 + 4 + 4 = 16 B read as the base's "params bf16").
    const Quantity frozen = r.fineTune ? frozenBytesPerParameter(*r.fineTune) : Quantity{};
    if (frozen.value > 0)
        ledgerNames = tr("per trainable parameter: %1; per frozen parameter %2 B, %3")
                          .arg(ledgerNames, toQString(formatNumber(frozen.value)), toQString(frozen.formula));
    m_grid->setRow(QStringLiteral("bytesPerParameter"), toQString(b.ledger), ledgerNames);

    m_grid->setRow(QStringLiteral("memoryPerGpu"), toQString(formatBytes(r.memory.total.value, units)),
                   toQString(r.memory.total.formula));
    if (r.peakFromTimeline)
        m_grid->setRow(
            QStringLiteral("peakOverStep"),
            tr("%1 at %2").arg(toQString(formatBytes(r.peakMemory.value, units)), toQString(r.peakEvent)),
            tr("params + grads + master + state + activations + temporaries %1")
                .arg(toQString(r.peakMemory.formula)));
    else
        m_grid->setRow(
            QStringLiteral("peakOverStep"),
            tr("%1 (the sum)").arg(toQString(formatBytes(r.peakMemory.value, units))),
            tr("the order of this step is not modelled event by event, so its peak is taken to be the sum"));
    setOverheadRows(r, units);
    // The verdict judges the peak plus the counted overheads against the usable memory (the peak against
    // the datasheet's capacity in the lecture's basis).
    const QString peak = toQString(formatBytes(r.peakMemory.value, units));
    const QString predicted = toQString(formatBytes(r.predictedBytes.value, units));
    const QString capacity = toQString(formatBytes(r.usableBytes.value, units));
    const bool datasheet = r.overheads.basis == MemoryBasis::datasheet;
    m_grid->setRow(QStringLiteral("fits"),
                   datasheet ? (r.fits ? tr("yes — peak %1 of %2").arg(peak, capacity)
                                       : tr("NO — peak %1 > %2").arg(peak, capacity))
                             : (r.fits ? tr("yes — %1 with overheads, of %2 usable").arg(predicted, capacity)
                                       : tr("NO — %1 with overheads > %2 usable").arg(predicted, capacity)),
                   toQString(r.fitsFormula) + QStringLiteral("\n") + toQString(r.usableBytes.formula));
    m_grid->setRow(QStringLiteral("flopsPerStep"), toQString(formatFlops(r.flopsPerStep.total)),
                   toQString(r.flopsPerStep.totalFormula));

    const QString noTokens = tr("tick “Count training totals” and give the tokens");
    if (r.trainingFlops && r.trainingSeconds && r.trainingDays && r.gpuDays) {
        m_grid->setRow(QStringLiteral("trainingFlops"), toQString(formatFlops(r.trainingFlops->value)),
                       toQString(r.trainingFlops->formula));
        m_grid->setRow(QStringLiteral("trainingTime"), tr("%1 days").arg(numberText(r.trainingDays->value)),
                       toQString(r.trainingSeconds->formula) + QStringLiteral("\n") +
                           toQString(r.trainingDays->formula));
        m_grid->setRow(QStringLiteral("gpuDays"), readable(r.gpuDays->value), toQString(r.gpuDays->formula));
    } else if (r.trainingFlops && !r.timeUnavailable.empty()) { // the part has no peak for this arithmetic
        m_grid->setRow(QStringLiteral("trainingFlops"), toQString(formatFlops(r.trainingFlops->value)),
                       toQString(r.trainingFlops->formula));
        const QString why = toQString(r.timeUnavailable);
        m_grid->setRow(QStringLiteral("trainingTime"), tr("none — %1").arg(why), why);
        m_grid->setRow(QStringLiteral("gpuDays"), QStringLiteral("—"), why);
    } else {
        for (const QString& key :
             {QStringLiteral("trainingFlops"), QStringLiteral("trainingTime"), QStringLiteral("gpuDays")})
            m_grid->setRow(key, QStringLiteral("—"), noTokens);
    }
    m_grid->setRow(QStringLiteral("hfu"), numberText(r.hfu.value), toQString(r.hfu.formula));
    setLayoutRows(r);
    m_grid->setRow(QStringLiteral("maxParameters"), tr("%1 params").arg(grouped(r.maxParameters.value)),
                   toQString(r.maxParameters.formula));
    m_grid->setRow(QStringLiteral("maxParametersPooled"),
                   tr("%1 params").arg(grouped(r.maxParametersPooled.value)),
                   toQString(r.maxParametersPooled.formula));
    if (r.maxBatch && !r.fitAdvice.empty()) // not "0": what would make one sequence fit
        m_grid->setRow(QStringLiteral("maxBatch"), tr("none — %1").arg(toQString(r.fitAdvice)),
                       toQString(r.maxBatch->formula));
    else if (r.maxBatch)
        m_grid->setRow(QStringLiteral("maxBatch"), grouped(r.maxBatch->value),
                       toQString(r.maxBatch->formula));
    else
        m_grid->setRow(QStringLiteral("maxBatch"), QStringLiteral("—"),
                       tr("activations are not modelled for this model kind"));
    // The context a step can hold at this batch (a fine-tuner's question on a 24 GB GPU).
    if (r.maxSequence && r.maxSequence->value == 0)
        m_grid->setRow(QStringLiteral("maxSequence"), tr("none — not even one token per sequence"),
                       toQString(r.maxSequence->formula));
    else if (r.maxSequence)
        m_grid->setRow(QStringLiteral("maxSequence"), tr("%1 tokens").arg(grouped(r.maxSequence->value)),
                       toQString(r.maxSequence->formula));
    else
        m_grid->setRow(QStringLiteral("maxSequence"), QStringLiteral("—"),
                       tr("this model kind has no sequence"));

    setRunCostRows(r);

    QStringList notes;
    for (const std::string& n : r.notes)
        notes << QStringLiteral("• ") + toQString(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
}

void AnswersPanel::setWarnings(const QStringList& warnings) {
    m_notices.setWarnings(warnings);
}

QString AnswersPanel::warningsText() const {
    return m_notices.warningsText();
}

// What the run costs (run_cost.h): GPU-hours, money at the user's price, energy and emissions.
void AnswersPanel::setRunCostRows(const AccountingResult& r) {
    const QStringList keys{QStringLiteral("gpuHours"), QStringLiteral("runCost"), QStringLiteral("energy"),
                           QStringLiteral("emissions")};
    if (!r.runCost) {
        for (const QString& key : keys)
            m_grid->setRow(key, QStringLiteral("—"), tr("tick “Count training totals” and give the tokens"));
        return;
    }
    const RunCost& c = *r.runCost;
    m_grid->setRow(keys[0], readable(c.gpuHours.value), toQString(c.gpuHours.formula));
    if (c.dollars)
        m_grid->setRow(keys[1], QStringLiteral("$") + readable(c.dollars->value),
                       toQString(c.dollars->formula));
    else
        m_grid->setRow(keys[1], QStringLiteral("—"), tr("give a price per GPU-hour under Cost and energy"));
    if (c.energyJoules) {
        m_grid->setRow(keys[2], tr("%1 MWh").arg(numberText(c.energyJoules->value / 3.6e9)),
                       toQString(c.powerWatts->formula) + QStringLiteral("\n") +
                           toQString(c.energyJoules->formula));
        m_grid->setRow(keys[3],
                       tr("%1 t CO2eq%2")
                           .arg(numberText(c.emissionsKg->value / 1000),
                                c.gridIsDefault ? tr(" (default grid)") : QString()),
                       toQString(c.emissionsKg->formula));
    } else {
        m_grid->setRow(keys[2], QStringLiteral("—"), toQString(c.missing));
        m_grid->setRow(keys[3], QStringLiteral("—"), toQString(c.missing));
    }
}

// The layout in one line (dp, global batch, bubble) and the communication ledger's total.
void AnswersPanel::setLayoutRows(const AccountingResult& r) {
    QString layout =
        tr("dp %1, global batch %2").arg(numberText(r.dataParallel.value), grouped(r.globalBatch.value));
    QString formulas =
        toQString(r.dataParallel.formula) + QStringLiteral("\n") + toQString(r.globalBatch.formula);
    if (r.pipelineBubbleFraction.value > 0) {
        layout += tr(", bubble %1").arg(numberText(r.pipelineBubbleFraction.value));
        formulas += QStringLiteral("\n") + toQString(r.pipelineBubbleFraction.formula);
    }
    if (r.memoryStage)
        layout += tr(" (memory: %1 stage)").arg(toQString(std::string(pipelineStageName(*r.memoryStage))));
    m_grid->setRow(QStringLiteral("layout"), layout, formulas);
    const bool oneGpu = r.communication.items.empty() && r.dataParallel.value == 1;
    m_grid->setRowVisible(QStringLiteral("layout"), !oneGpu);
    m_grid->setRowVisible(QStringLiteral("communication"), !oneGpu);
    const CommunicationTotal& c = r.communication.total;
    const QString time =
        c.seconds ? tr(" in %1").arg(toQString(formatDuration(*c.seconds))) : tr(", time unknown");
    // The per-collective formulas are in the explanation pane; a fixed line here keeps a drag from
    // re-wrapping this row on every tick.
    m_grid->setRow(
        QStringLiteral("communication"), toQString(formatBytes(c.bytes)) + (c.bytes > 0 ? time : QString()),
        tr("per GPU per step, as if nothing overlapped: the ledger is under “How is this computed?”"));
}

void AnswersPanel::setStepTime(const StepTimeAnswer& answer) {
    m_grid->setRow(QStringLiteral("stepTime"), answer.value, answer.formula);
}

void AnswersPanel::showError(const QString& message) {
    m_notices.showError(message);
    // The answers below no longer match the controls: greyed (disabled text), never read as current.
    m_grid->setEnabled(false);
    m_notes->setEnabled(false);
}

bool AnswersPanel::isStale() const {
    return !m_grid->isEnabled();
}

QString AnswersPanel::valueText(const QString& key) const {
    return m_grid->valueText(key);
}
QString AnswersPanel::formulaText(const QString& key) const {
    return m_grid->formulaText(key);
}
QString AnswersPanel::errorText() const {
    return m_notices.errorText();
}
QString AnswersPanel::notesText() const {
    return m_notes->text();
}

// The overhead ledger's answers: the counted lines' sum with each line beside it, and the usable memory
// against the datasheet's (memory_overheads.h).
void AnswersPanel::setOverheadRows(const AccountingResult& r, ByteUnits units) {
    const MemoryOverheads& o = r.overheads;
    const bool datasheet = o.basis == MemoryBasis::datasheet;
    // The counted lines with their formulas (what the value sums); the others by name and why, their
    // formulas in How is this computed? (a disabled line's formula still follows the peak, and spelling it
    // under the answer re-laid a long label out on every tick).
    QStringList lines, uncounted;
    for (const OverheadLine& l : o.lines) {
        if (l.counted)
            lines << tr("%1: %2 — %3")
                         .arg(toQString(l.label), toQString(formatBytes(l.bytes, units)), toQString(l.formula));
        else
            uncounted << tr("%1 (%2)").arg(toQString(l.label), !l.enabled    ? tr("off")
                                                               : !l.measured ? tr("not measured")
                                                                             : tr("datasheet basis"));
    }
    if (!uncounted.isEmpty())
        lines << tr("not counted: %1").arg(uncounted.join(QStringLiteral(", ")));
    m_grid->setRow(QStringLiteral("overheads"),
                   datasheet ? tr("none counted (datasheet basis)")
                             : tr("%1 → %2 with the peak")
                                   .arg(toQString(formatBytes(o.totalBytes, units)),
                                        toQString(formatBytes(r.predictedBytes.value, units))),
                   lines.join(QStringLiteral("\n")));
    m_grid->setRow(QStringLiteral("usableMemory"),
                   tr("%1 (datasheet %2)")
                       .arg(toQString(formatBytes(r.usableBytes.value, units)),
                            toQString(formatBytes(o.nominalBytes, units))),
                   toQString(r.usableBytes.formula));
}

void AnswersPanel::setMeasuredRun(const MeasuredComparison* c, const QString& label, ByteUnits units) {
    const QString peak = QStringLiteral("measuredPeak"), difference = QStringLiteral("measuredDifference");
    m_grid->setRowVisible(peak, c != nullptr);
    m_grid->setRowVisible(difference, c != nullptr);
    if (!c)
        return;
    const auto bytes = [units](double b) { return toQString(formatBytes(b, units)); };
    const auto exact = [](double b) {
        return (b > 0 ? QStringLiteral("+") : QString()) + grouped(b) + tr(" B");
    };
    m_grid->setRow(peak,
                   tr("%1 (predicted %2)").arg(bytes(c->measuredPeakBytes), bytes(c->predictedPeakBytes)),
                   tr("%1, %2: largest allocated of %3 samples%4; predicted at %5")
                       .arg(label, toQString(measuredDeviceName(c->device)))
                       .arg(c->measuredSamples)
                       .arg(c->measuredPeakPhase.empty() ? QString()
                                                         : tr(", in %1").arg(toQString(c->measuredPeakPhase)),
                            toQString(c->predictedPeakEvent)));
    QString parts;
    for (const AttributedBytes& a : c->attributed)
        parts += tr(" %1 %2 +").arg(toQString(a.name), exact(a.bytes));
    m_grid->setRow(difference,
                   tr("%1, %2 unexplained").arg(exact(c->differenceBytes), exact(c->unexplainedBytes)),
                   tr("measured − predicted =%1 unexplained %2").arg(parts, exact(c->unexplainedBytes)));
}

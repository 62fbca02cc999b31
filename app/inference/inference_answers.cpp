// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/inference/inference_answers.h"

#include "engine/accounting/run_cost.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/step_time_summary.h"
#include "widgets/controls/answers_grid.h"
#include "widgets/text/engine_text.h"

#include <QLabel>
#include <QVBoxLayout>

using namespace napkin;

namespace {

// Datasheets count memory in GB, the KV cache comes in powers of two: both, so either can be checked.
QString bytes(double v) {
    return QStringLiteral("%1 (%2)").arg(toQString(formatBytes(v, ByteUnits::decimal)),
                                         toQString(formatBytes(v, ByteUnits::binary)));
}

} // namespace

const QStringList& InferenceAnswers::keys() {
    static const QStringList k{QStringLiteral("weights"),         QStringLiteral("kvPerToken"),
                               QStringLiteral("kvPerSequence"),   QStringLiteral("kvCache"),
                               QStringLiteral("memoryPerGpu"),    QStringLiteral("fits"),
                               QStringLiteral("prefill"),         QStringLiteral("prefillPredicted"),
                               QStringLiteral("decodeStep"),      QStringLiteral("tokensPerSecond"),
                               QStringLiteral("decodePredicted"), QStringLiteral("intensity"),
                               QStringLiteral("crossover"),       QStringLiteral("maxBatch"),
                               QStringLiteral("maxContext")};
    return k;
}

namespace {

// A predicted pass's formula: how its tokens/s follow, what its profile is, what bounds its time.
QString predictedFormula(const InferenceTime& t) {
    if (!t.predicted)
        return InferenceAnswers::tr("not predicted: %1").arg(toQString(t.whyNot));
    return InferenceAnswers::tr("the training step's model over this pass's ops: %1\n%2\nfrom %3")
        .arg(toQString(ledgerSecondsByKindText(t.ledger)), toQString(t.tokensFormula), toQString(t.basis));
}

} // namespace

InferenceAnswers::InferenceAnswers(QWidget* parent)
    : QWidget(parent)
    , m_notices(this, QStringLiteral("inferenceError"))
    , m_grid(new AnswersGrid(this)) {
    auto* outer = new QVBoxLayout(this);
    m_notices.addTo(outer);
    const QStringList titles{tr("Weights (all GPUs)"),
                             tr("KV cache per token"),
                             tr("KV cache per sequence"),
                             tr("KV cache (B sequences)"),
                             tr("Memory per GPU"),
                             tr("Fits on the GPU"),
                             tr("Prefill (B × P tokens), roofline bound"),
                             tr("Prefill, predicted"),
                             tr("Decode step (whole batch), roofline bound"),
                             tr("Decode tokens/s, roofline bound"),
                             tr("Decode tokens/s, predicted"),
                             tr("Arithmetic intensity"),
                             tr("Compute bound from"),
                             tr("Largest batch that fits"),
                             tr("Largest context that fits")};
    // The formula under its answer, across the panel: at 1024×768 a third column left it a hundred pixels.
    for (int i = 0; i < keys().size(); ++i)
        m_grid->addRow(keys()[i], titles[i]);
    // What the tokens cost at the decode rate (run_cost.h), after the rows above.
    m_grid->addRow(QStringLiteral("costPerMillionTokens"), tr("Cost per million tokens"));
    outer->addWidget(m_grid);
    outer->addStretch(1);
}

void InferenceAnswers::setResult(const InferenceInput& in, const InferenceResult& r, const BatchSweep& sweep,
                                 const InferenceTimes& times) {
    m_notices.clearError();
    m_grid->setEnabled(true);
    m_grid->setRow(QStringLiteral("weights"), bytes(r.weightsBytes.value), toQString(r.weightsBytes.formula));
    m_grid->setRow(QStringLiteral("kvPerToken"),
                   toQString(formatBytes(r.kvCacheBytesPerToken.value)) +
                       tr(" (%1 B)").arg(numberText(r.kvCacheBytesPerToken.value)),
                   toQString(r.kvCacheBytesPerToken.formula));
    const Quantity perSequence = kvCacheBytesPerSequence(in, r);
    m_grid->setRow(QStringLiteral("kvPerSequence"), bytes(perSequence.value), toQString(perSequence.formula));
    m_grid->setRow(QStringLiteral("kvCache"), bytes(r.kvCacheBytes.value), toQString(r.kvCacheBytes.formula));
    m_grid->setRow(
        QStringLiteral("memoryPerGpu"),
        tr("%1 of %2").arg(bytes(r.memory.total.value), toQString(formatBytes(r.usableBytes.value))),
        toQString(r.memory.total.formula) + QStringLiteral("\n") + toQString(r.memory.weights.formula) +
            QStringLiteral("\n") + toQString(r.memory.kvCache.formula) + QStringLiteral("\n") +
            toQString(r.memory.activations.formula));
    m_grid->setRow(QStringLiteral("fits"), r.fits ? tr("yes") : tr("NO"),
                   toQString(r.fitsFormula) + QStringLiteral("\n") + toQString(r.usableBytes.formula) +
                       (r.overheads.totalBytes > 0
                            ? QStringLiteral("\n") + toQString(r.predictedBytes.formula)
                            : QString()));
    m_grid->setRow(QStringLiteral("prefill"), toQString(formatDuration(r.prefillSeconds.value)),
                   toQString(r.prefillFlops.formula) + QStringLiteral("\n") +
                       toQString(r.prefillSeconds.formula));
    m_grid->setRow(QStringLiteral("decodeStep"), toQString(formatDuration(r.decodeSecondsPerToken.value)),
                   toQString(r.decodeStepFlops.formula) + QStringLiteral("\n") +
                       toQString(r.decodeBytesPerToken.formula) + QStringLiteral("\n") +
                       toQString(r.decodeSecondsPerToken.formula));
    m_grid->setRow(QStringLiteral("tokensPerSecond"),
                   tr("%1 (%2 per sequence)")
                       .arg(numberText(r.decodeTokensPerSecond.value),
                            numberText(r.decodeTokensPerSecond.value / in.batch)),
                   toQString(r.decodeTokensPerSecond.formula));
    // Predicted from the page's profile by the training step's model, beside the bounds above.
    m_grid->setRow(QStringLiteral("prefillPredicted"),
                   times.prefill.predicted ? tr("%1, %2 tokens/s (≥ the bound %3)")
                                                 .arg(toQString(formatDuration(times.prefill.seconds)),
                                                      numberText(times.prefill.tokensPerSecond),
                                                      toQString(formatDuration(r.prefillSeconds.value)))
                                           : tr("not predicted"),
                   predictedFormula(times.prefill));
    m_grid->setRow(QStringLiteral("decodePredicted"),
                   times.decode.predicted ? tr("%1 (%2 per step; the bound %3)")
                                                .arg(numberText(times.decode.tokensPerSecond),
                                                     toQString(formatDuration(times.decode.seconds)),
                                                     numberText(r.decodeTokensPerSecond.value))
                                          : tr("not predicted"),
                   predictedFormula(times.decode));
    m_grid->setRow(QStringLiteral("intensity"),
                   tr("%1 FLOP/B vs ridge %2: %3 bound")
                       .arg(numberText(r.arithmeticIntensity.value), numberText(r.ridgeFlopsPerByte.value),
                            toQString(r.bound)),
                   toQString(r.arithmeticIntensity.formula) + QStringLiteral("\n") +
                       toQString(r.ridgeFlopsPerByte.formula));
    m_grid->setRow(QStringLiteral("crossover"),
                   sweep.crossoverBatch ? tr("B = %1").arg(numberText(*sweep.crossoverBatch))
                                        : tr("never (memory bound)"),
                   toQString(sweep.crossover.formula));
    m_grid->setRow(QStringLiteral("maxBatch"), numberText(r.maxBatch.value), toQString(r.maxBatch.formula));
    m_grid->setRow(QStringLiteral("maxContext"), numberText(r.maxContext.value),
                   toQString(r.maxContext.formula));
    // The tokens' cost at the decode rate above (run_cost.h), at the user's price.
    RunCostInput price;
    price.pricePerGpuHour = in.pricePerGpuHour;
    if (const auto perMillion = dollarsPerMillionTokens(r.decodeTokensPerSecond.value, in.gpus, price))
        m_grid->setRow(QStringLiteral("costPerMillionTokens"),
                       QStringLiteral("$") + numberText(perMillion->value), toQString(perMillion->formula));
    else
        m_grid->setRow(QStringLiteral("costPerMillionTokens"), QStringLiteral("—"),
                       tr("give a price per GPU-hour"));
}

void InferenceAnswers::setWarnings(const QStringList& warnings) {
    m_notices.setWarnings(warnings);
}

QString InferenceAnswers::warningsText() const {
    return m_notices.warningsText();
}

void InferenceAnswers::showError(const QString& message) {
    m_notices.showError(message);
    m_grid->setEnabled(false); // the last valid answers, greyed: they no longer match the controls
}

bool InferenceAnswers::isStale() const {
    return !m_grid->isEnabled();
}

QString InferenceAnswers::valueText(const QString& key) const {
    return m_grid->valueText(key);
}

QString InferenceAnswers::formulaText(const QString& key) const {
    return m_grid->formulaText(key);
}

QString InferenceAnswers::errorText() const {
    return m_notices.errorText();
}

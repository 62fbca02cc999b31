#include "app/inference/inference_answers.h"

#include "engine/numerics/quantity_format.h"

#include <QFont>
#include <QGridLayout>
#include <QLabel>
#include <QVBoxLayout>

using namespace napkin;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}
QString number(double v) {
    return q(formatNumber(v));
}
// Datasheets count memory in GB, the KV cache comes in powers of two: both, so either can be checked.
QString bytes(double v) {
    return QStringLiteral("%1 (%2)").arg(q(formatBytes(v, ByteUnits::decimal)),
                                         q(formatBytes(v, ByteUnits::binary)));
}

} // namespace

const QStringList& InferenceAnswers::keys() {
    static const QStringList k{
        QStringLiteral("weights"),   QStringLiteral("kvPerToken"),   QStringLiteral("kvPerSequence"),
        QStringLiteral("kvCache"),   QStringLiteral("memoryPerGpu"), QStringLiteral("fits"),
        QStringLiteral("prefill"),   QStringLiteral("decodeStep"),   QStringLiteral("tokensPerSecond"),
        QStringLiteral("intensity"), QStringLiteral("crossover"),    QStringLiteral("maxBatch"),
        QStringLiteral("maxContext")};
    return k;
}

InferenceAnswers::InferenceAnswers(QWidget* parent)
    : QWidget(parent)
    , m_error(new QLabel(this)) {
    auto* outer = new QVBoxLayout(this);
    m_error->setObjectName(QStringLiteral("inferenceError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_error->setWordWrap(true);
    m_error->hide();
    outer->addWidget(m_error);
    auto* grid = new QGridLayout;
    grid->setColumnStretch(1, 1);
    grid->setVerticalSpacing(2);
    grid->setHorizontalSpacing(12);
    const QStringList titles{tr("Weights (all GPUs)"),       tr("KV cache per token"),
                             tr("KV cache per sequence"),    tr("KV cache (B sequences)"),
                             tr("Memory per GPU"),           tr("Fits on the GPU"),
                             tr("Prefill (B × P tokens)"),   tr("Decode step (whole batch)"),
                             tr("Decode tokens/s"),          tr("Arithmetic intensity"),
                             tr("Compute bound from"),       tr("Largest batch that fits"),
                             tr("Largest context that fits")};
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::TypeWriter);
    for (int i = 0; i < keys().size(); ++i) {
        auto* title = new QLabel(titles[i], this);
        auto* value = new QLabel(this);
        auto* formula = new QLabel(this);
        QFont bold = value->font();
        bold.setBold(true);
        value->setFont(bold);
        formula->setFont(mono);
        // Wrapped, as the Accounting page's: a formula never runs off to the right of the panel.
        formula->setWordWrap(true);
        formula->setForegroundRole(QPalette::PlaceholderText);
        for (QLabel* l : {value, formula})
            l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setObjectName(QStringLiteral("value_") + keys()[i]);
        formula->setObjectName(QStringLiteral("formula_") + keys()[i]);
        // The formula on its own line under its answer, across the panel: at 1024×768 a third column
        // left it a hundred pixels and the panel scrolled sideways.
        formula->setContentsMargins(12, 0, 0, 6);
        grid->addWidget(title, 2 * i, 0, Qt::AlignTop);
        grid->addWidget(value, 2 * i, 1, Qt::AlignTop);
        grid->addWidget(formula, 2 * i + 1, 0, 1, 2, Qt::AlignTop);
        m_rows.insert(keys()[i], Row{value, formula});
    }
    outer->addLayout(grid);
    outer->addStretch(1);
}

void InferenceAnswers::setRow(const QString& key, const QString& value, const QString& formula) {
    const Row& row = m_rows[key];
    row.value->setText(value);
    row.formula->setText(formula);
}

void InferenceAnswers::setResult(const InferenceInput& in, const InferenceResult& r,
                                 const BatchSweep& sweep) {
    m_error->hide();
    setRow(QStringLiteral("weights"), bytes(r.weightsBytes.value), q(r.weightsBytes.formula));
    setRow(QStringLiteral("kvPerToken"),
           q(formatBytes(r.kvCacheBytesPerToken.value)) +
               tr(" (%1 B)").arg(number(r.kvCacheBytesPerToken.value)),
           q(r.kvCacheBytesPerToken.formula));
    const Quantity perSequence = kvCacheBytesPerSequence(in, r);
    setRow(QStringLiteral("kvPerSequence"), bytes(perSequence.value), q(perSequence.formula));
    setRow(QStringLiteral("kvCache"), bytes(r.kvCacheBytes.value), q(r.kvCacheBytes.formula));
    setRow(QStringLiteral("memoryPerGpu"),
           tr("%1 of %2").arg(bytes(r.memory.total.value), q(formatBytes(r.capacityBytes.value))),
           q(r.memory.total.formula) + QStringLiteral("\n") + q(r.memory.weights.formula) +
               QStringLiteral("\n") + q(r.memory.kvCache.formula) + QStringLiteral("\n") +
               q(r.memory.activations.formula));
    setRow(QStringLiteral("fits"), r.fits ? tr("yes") : tr("NO"),
           tr("total %1 M: %2")
               .arg(r.fits ? QStringLiteral("≤") : QStringLiteral(">"), q(r.capacityBytes.formula)));
    setRow(QStringLiteral("prefill"), q(formatDuration(r.prefillSeconds.value)),
           q(r.prefillFlops.formula) + QStringLiteral("\n") + q(r.prefillSeconds.formula));
    setRow(QStringLiteral("decodeStep"), q(formatDuration(r.decodeSecondsPerToken.value)),
           q(r.decodeStepFlops.formula) + QStringLiteral("\n") + q(r.decodeBytesPerToken.formula) +
               QStringLiteral("\n") + q(r.decodeSecondsPerToken.formula));
    setRow(QStringLiteral("tokensPerSecond"),
           tr("%1 (%2 per sequence)")
               .arg(number(r.decodeTokensPerSecond.value), number(r.decodeTokensPerSecond.value / in.batch)),
           q(r.decodeTokensPerSecond.formula));
    setRow(QStringLiteral("intensity"),
           tr("%1 FLOP/B vs ridge %2: %3 bound")
               .arg(number(r.arithmeticIntensity.value), number(r.ridgeFlopsPerByte.value), q(r.bound)),
           q(r.arithmeticIntensity.formula) + QStringLiteral("\n") + q(r.ridgeFlopsPerByte.formula));
    setRow(QStringLiteral("crossover"),
           sweep.crossoverBatch ? tr("B = %1").arg(number(*sweep.crossoverBatch))
                                : tr("never (memory bound)"),
           q(sweep.crossover.formula));
    setRow(QStringLiteral("maxBatch"), number(r.maxBatch.value), q(r.maxBatch.formula));
    setRow(QStringLiteral("maxContext"), number(r.maxContext.value), q(r.maxContext.formula));
}

void InferenceAnswers::showError(const QString& message) {
    m_error->setText(message);
    m_error->show();
}

QString InferenceAnswers::valueText(const QString& key) const {
    return m_rows.value(key).value ? m_rows.value(key).value->text() : QString();
}

QString InferenceAnswers::formulaText(const QString& key) const {
    return m_rows.value(key).formula ? m_rows.value(key).formula->text() : QString();
}

QString InferenceAnswers::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}

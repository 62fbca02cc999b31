#include "app/accounting/answers_panel.h"

#include <QFont>
#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>

using namespace napkin;

namespace {

QString q(const std::string& s) {
    return QString::fromStdString(s);
}
QString number(double v) {
    return q(formatNumber(v));
}
QString dtype(StorageType t) {
    return q(std::string(storageTypeName(t)));
}

// Whole counts are easier to check against a paper with digit grouping: "124,439,808".
QString grouped(double v) {
    if (v < 1e15 && v == std::floor(v))
        return QLocale(QLocale::English).toString(static_cast<qlonglong>(v));
    return number(v);
}

// Large non-whole results (GPU-days) read better rounded and grouped than in e-notation.
QString readable(double v) {
    if (v >= 1e4 && v < 1e15)
        return grouped(std::round(v));
    return number(v);
}

} // namespace

const QStringList& AnswersPanel::keys() {
    static const QStringList k{QStringLiteral("parameters"),
                               QStringLiteral("activeParameters"),
                               QStringLiteral("trainableParameters"),
                               QStringLiteral("bytesPerParameter"),
                               QStringLiteral("memoryPerGpu"),
                               QStringLiteral("peakOverStep"),
                               QStringLiteral("fits"),
                               QStringLiteral("flopsPerStep"),
                               QStringLiteral("trainingFlops"),
                               QStringLiteral("trainingTime"),
                               QStringLiteral("hfu"),
                               QStringLiteral("gpuDays"),
                               QStringLiteral("layout"),
                               QStringLiteral("communication"),
                               QStringLiteral("maxParameters"),
                               QStringLiteral("maxParametersPooled"),
                               QStringLiteral("maxBatch")};
    return k;
}

AnswersPanel::AnswersPanel(QWidget* parent)
    : QWidget(parent)
    , m_error(new QLabel(this))
    , m_notes(new QLabel(this)) {
    auto* outer = new QVBoxLayout(this);
    m_error->setObjectName(QStringLiteral("accountingError"));
    m_error->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold;"));
    m_error->setWordWrap(true);
    m_error->hide();
    outer->addWidget(m_error);

    auto* grid = new QGridLayout;
    grid->setColumnStretch(2, 1);
    grid->setHorizontalSpacing(12);
    const QStringList titles{tr("Parameters"),
                             tr("Active per token"),
                             tr("Trainable (fine-tuning)"),
                             tr("Bytes per parameter"),
                             tr("Memory per GPU (sum)"),
                             tr("Peak over one step"),
                             tr("Fits on the GPU"),
                             tr("FLOPs per step"),
                             tr("Training FLOPs (model)"),
                             tr("Training time at the MFU"),
                             tr("HFU (with recompute)"),
                             tr("GPU-days"),
                             tr("Parallel layout"),
                             tr("Communication per step"),
                             tr("Largest model that fits"),
                             tr("… pooled over all GPUs"),
                             tr("Largest batch that fits")};
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
        formula->setWordWrap(true);
        // A number keeps its line ("2 + 2 + 4 + 4 + 4 = 16 B"); a phrase wraps rather than widen the
        // panel past a projector's width ("29.81 TB at backward loss", "NO — peak …", the fit advice,
        // 200 characters for DeepSeek-V3 on one GPU).
        static const QStringList phrases{QStringLiteral("peakOverStep"), QStringLiteral("fits"),
                                         QStringLiteral("layout"), QStringLiteral("communication"),
                                         QStringLiteral("maxBatch")};
        value->setWordWrap(phrases.contains(keys()[i]));
        formula->setForegroundRole(QPalette::PlaceholderText);
        for (QLabel* l : {value, formula})
            l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        value->setObjectName(QStringLiteral("value_") + keys()[i]);
        formula->setObjectName(QStringLiteral("formula_") + keys()[i]);
        grid->addWidget(title, i, 0, Qt::AlignTop);
        grid->addWidget(value, i, 1, Qt::AlignTop);
        grid->addWidget(formula, i, 2, Qt::AlignTop);
        m_rows.insert(keys()[i], Row{value, formula, title});
    }
    outer->addLayout(grid);
    m_notes->setWordWrap(true);
    m_notes->setForegroundRole(QPalette::PlaceholderText);
    outer->addWidget(m_notes);
    outer->addStretch(1);
}

void AnswersPanel::setRow(const QString& key, const QString& value, const QString& formula) {
    const Row& row = m_rows[key];
    row.value->setText(value);
    row.formula->setText(formula);
}

void AnswersPanel::setRowVisible(const QString& key, bool visible) {
    const Row& row = m_rows[key];
    if (row.value->isHidden() != visible)
        return;
    for (QLabel* l : {row.title, row.value, row.formula})
        l->setVisible(visible);
}

void AnswersPanel::setResult(const AccountingResult& r, ByteUnits units) {
    m_error->hide();
    m_error->clear();
    setRow(QStringLiteral("parameters"), grouped(r.parameters.total), q(r.parameters.formula));
    setRow(QStringLiteral("activeParameters"), grouped(r.parameters.active), q(r.parameters.activeFormula));
    setRowVisible(QStringLiteral("activeParameters"), r.parameters.active != r.parameters.total);
    if (r.fineTune)
        setRow(QStringLiteral("trainableParameters"),
               tr("%1 of %2").arg(grouped(r.trainableParameters), grouped(r.fineTune->allParameters.value)),
               q(r.fineTune->trainableParameters.formula));
    setRowVisible(QStringLiteral("trainableParameters"), r.fineTune.has_value());

    const PrecisionLedger& p = r.precision;
    const BytesPerParameter& b = r.bytesPerParameter;
    QString ledgerNames = tr("params %1 + grads %2").arg(dtype(p.parameters), dtype(p.gradients));
    if (b.masterWeights > 0)
        ledgerNames += tr(" + master %1").arg(dtype(p.masterWeights));
    if (b.optimizerStateTensors > 0)
        ledgerNames += tr(" + %1 × state %2").arg(b.optimizerStateTensors).arg(dtype(p.optimizerState));
    setRow(QStringLiteral("bytesPerParameter"), q(b.ledger), ledgerNames);

    setRow(QStringLiteral("memoryPerGpu"), q(formatBytes(r.memory.total.value, units)),
           q(r.memory.total.formula));
    if (r.peakFromTimeline)
        setRow(QStringLiteral("peakOverStep"),
               tr("%1 at %2").arg(q(formatBytes(r.peakMemory.value, units)), q(r.peakEvent)),
               tr("params + grads + master + state + activations + temporaries %1")
                   .arg(q(r.peakMemory.formula)));
    else
        setRow(
            QStringLiteral("peakOverStep"), tr("%1 (the sum)").arg(q(formatBytes(r.peakMemory.value, units))),
            tr("the order of this step is not modelled event by event, so its peak is taken to be the sum"));
    // The verdict judges the peak: what the allocator must hold at the step's worst moment.
    const QString peak = q(formatBytes(r.peakMemory.value, units));
    const QString capacity = q(formatBytes(r.capacityBytes.value, units));
    setRow(QStringLiteral("fits"),
           r.fits ? tr("yes — peak %1 of %2").arg(peak, capacity)
                  : tr("NO — peak %1 > %2").arg(peak, capacity),
           q(r.fitsFormula) + QStringLiteral("\n") + q(r.capacityBytes.formula));
    setRow(QStringLiteral("flopsPerStep"), q(formatFlops(r.flopsPerStep.total)),
           q(r.flopsPerStep.totalFormula));

    const QString noTokens = tr("tick “Count training totals” and give the tokens");
    if (r.trainingFlops && r.trainingSeconds && r.trainingDays && r.gpuDays) {
        setRow(QStringLiteral("trainingFlops"), q(formatFlops(r.trainingFlops->value)),
               q(r.trainingFlops->formula));
        setRow(QStringLiteral("trainingTime"), tr("%1 days").arg(number(r.trainingDays->value)),
               q(r.trainingSeconds->formula) + QStringLiteral("\n") + q(r.trainingDays->formula));
        setRow(QStringLiteral("gpuDays"), readable(r.gpuDays->value), q(r.gpuDays->formula));
    } else {
        for (const QString& key :
             {QStringLiteral("trainingFlops"), QStringLiteral("trainingTime"), QStringLiteral("gpuDays")})
            setRow(key, QStringLiteral("—"), noTokens);
    }
    setRow(QStringLiteral("hfu"), number(r.hfu.value), q(r.hfu.formula));
    setLayoutRows(r);
    setRow(QStringLiteral("maxParameters"), tr("%1 params").arg(grouped(r.maxParameters.value)),
           q(r.maxParameters.formula));
    setRow(QStringLiteral("maxParametersPooled"), tr("%1 params").arg(grouped(r.maxParametersPooled.value)),
           q(r.maxParametersPooled.formula));
    if (r.maxBatch && !r.fitAdvice.empty()) // not "0": what would make one sequence fit
        setRow(QStringLiteral("maxBatch"), tr("none — %1").arg(q(r.fitAdvice)), q(r.maxBatch->formula));
    else if (r.maxBatch)
        setRow(QStringLiteral("maxBatch"), grouped(r.maxBatch->value), q(r.maxBatch->formula));
    else
        setRow(QStringLiteral("maxBatch"), QStringLiteral("—"),
               tr("activations are not modelled for this model kind"));

    QStringList notes;
    for (const std::string& n : r.notes)
        notes << QStringLiteral("• ") + q(n);
    m_notes->setText(notes.join(QLatin1Char('\n')));
}

// The layout in one line (dp, global batch, bubble) and the communication ledger's total.
void AnswersPanel::setLayoutRows(const AccountingResult& r) {
    QString layout =
        tr("dp %1, global batch %2").arg(number(r.dataParallel.value), grouped(r.globalBatch.value));
    QString formulas = q(r.dataParallel.formula) + QStringLiteral("\n") + q(r.globalBatch.formula);
    if (r.pipelineBubbleFraction.value > 0) {
        layout += tr(", bubble %1").arg(number(r.pipelineBubbleFraction.value));
        formulas += QStringLiteral("\n") + q(r.pipelineBubbleFraction.formula);
    }
    if (r.memoryStage)
        layout += tr(" (memory: %1 stage)").arg(q(std::string(pipelineStageName(*r.memoryStage))));
    setRow(QStringLiteral("layout"), layout, formulas);
    const bool oneGpu = r.communication.items.empty() && r.dataParallel.value == 1;
    setRowVisible(QStringLiteral("layout"), !oneGpu);
    setRowVisible(QStringLiteral("communication"), !oneGpu);
    const CommunicationTotal& c = r.communication.total;
    const QString time = c.seconds ? tr(" in %1").arg(q(formatDuration(*c.seconds))) : tr(", time unknown");
    // The per-collective formulas are in the explanation pane; a fixed line here keeps a drag from
    // re-wrapping this row on every tick.
    setRow(QStringLiteral("communication"), q(formatBytes(c.bytes)) + (c.bytes > 0 ? time : QString()),
           tr("per GPU per step, as if nothing overlapped: the ledger is under “How is this computed?”"));
}

void AnswersPanel::showError(const QString& message) {
    m_error->setText(message);
    m_error->show();
}

QString AnswersPanel::valueText(const QString& key) const {
    return m_rows.value(key).value ? m_rows.value(key).value->text() : QString();
}
QString AnswersPanel::formulaText(const QString& key) const {
    return m_rows.value(key).formula ? m_rows.value(key).formula->text() : QString();
}
QString AnswersPanel::errorText() const {
    return m_error->isHidden() ? QString() : m_error->text();
}
QString AnswersPanel::notesText() const {
    return m_notes->text();
}

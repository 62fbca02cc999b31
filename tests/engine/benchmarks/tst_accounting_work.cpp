// SPDX-License-Identifier: GPL-3.0-or-later
// The work one account() does, counted instead of timed (work_counts.h): a timed test passes or fails
// with the machine's load, a count is the same everywhere. These budgets hold a recompute near its
// 20 µs (GPT-2 small) and 50 µs (DeepSeek-V3) targets; `napkin-cli bench account --setup ID` times them
// and prints the same counts (docs/benchmarks.md). Once, each search probe built every formula, ledger row
// and note of a whole setup: one account() cost 8 formula evaluations and ~1000 spelled numbers, and the
// recompute slid from 8 µs to 800 µs unnoticed.
#include "engine/accounting/activation_memory.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/models/parameter_count.h"
#include "engine/accounting/precision_recipe.h"
#include "engine/accounting/setup_presets.h"
#include "engine/accounting/timeline_layer_bytes.h"
#include "engine/benchmarks/accounting_benchmark.h"
#include "engine/text/formula_text.h"
#include "engine/numerics/quantity_format.h"

#include <QTest>

using namespace napkin;

class TestAccountingWork : public QObject {
    Q_OBJECT
private slots:
    void oneRecomputeStaysWithinItsBudget_data();
    void oneRecomputeStaysWithinItsBudget();
    void aProbeSpellsNothing_data();
    void aProbeSpellsNothing();
    void valuesOnlyPeaksAreTheFormulaPeaks_data();
    void valuesOnlyPeaksAreTheFormulaPeaks();
    void valuesOnlyScopesNest();
    void aProbeAtAnotherBatchReusesTheLayerLedgers_data();
    void aProbeAtAnotherBatchReusesTheLayerLedgers();
    void timelineLayerBytesAreTheLedgersBytes_data();
    void timelineLayerBytesAreTheLedgersBytes();
};

namespace {

const GpuSpec& gpuOf(const AccountingInput& in) {
    return *GpuCatalog::builtIn().find(in.gpu);
}

AccountingInput setupInput(const QString& id) {
    const std::optional<AccountingBenchmarkSetup> setup = accountingBenchmarkSetup(id.toStdString());
    if (!setup)
        qFatal("unknown setup %s", qPrintable(id));
    return setup->input;
}

void addSetupColumns() {
    QTest::addColumn<QString>("setup");
}

void addEverySetup() {
    addSetupColumns();
    QTest::newRow("gpt2-small") << "gpt2-small";
    QTest::newRow("deepseek-v3") << "deepseek-v3";
    for (const SetupPreset& p : setupPresets()) {
        const QByteArray id = QByteArray(p.id.data(), static_cast<qsizetype>(p.id.size()));
        QTest::newRow(id.constData()) << QString::fromUtf8(id);
    }
}

} // namespace

// Budgets with a little room over what each setup counts today (the comment gives today's counts: formula
// evaluations, probes, timelines, numbers spelled). One account() evaluates its own setup once with every
// formula; the largest batch, the longest sequence and the fit advice probe with peakBytes(), which spells
// nothing; each evaluation builds one timeline.
void TestAccountingWork::oneRecomputeStaysWithinItsBudget_data() {
    QTest::addColumn<QString>("setup");
    QTest::addColumn<int>("maxProbes");
    QTest::addColumn<int>("maxNumbers");
    QTest::newRow("gpt2-small") << "gpt2-small" << 4 << 220;    // 1, 3, 4, 184
    QTest::newRow("deepseek-v3") << "deepseek-v3" << 10 << 280; // 1, 9, 10, 237: fit advice
    // + the run's cost and energy (run_cost.h, given --tokens) and the overhead ledger's lines
    QTest::newRow("70b-15t-1024-h100") << "70b-15t-1024-h100" << 1 << 200; // 1, 0, 1, 173: dense
    // + the overhead ledger's lines (memory_overheads.h), about 20 numbers a recompute, none in a probe
    QTest::newRow("cruncher") << "cruncher" << 3 << 130;                         // 1, 2, 3, 123
    QTest::newRow("gpt3-175b") << "gpt3-175b" << 4 << 230;                       // 1, 3, 4, 194
    QTest::newRow("llama3-8b") << "llama3-8b" << 7 << 260;                       // 1, 6, 7, 220: max sequence
    QTest::newRow("llama3-70b") << "llama3-70b" << 6 << 310;                     // 1, 5, 6, 261
    QTest::newRow("mixtral-8x7b") << "mixtral-8x7b" << 5 << 320;                 // 1, 4, 5, 269
    QTest::newRow("llama3-8b-qlora-24gb") << "llama3-8b-qlora-24gb" << 7 << 440; // 1, 6, 7, 374
}

void TestAccountingWork::oneRecomputeStaysWithinItsBudget() {
    QFETCH(QString, setup);
    QFETCH(int, maxProbes);
    QFETCH(int, maxNumbers);
    const WorkCounts w = accountingWork(setupInput(setup));
    QCOMPARE(w.peakEvaluations, 1); // a search that evaluates with formulas is 10× the cost per probe
    QVERIFY2(w.fastPeaks <= maxProbes, qPrintable(QStringLiteral("%1 probes").arg(w.fastPeaks)));
    QCOMPARE(w.timelineBuilds, w.peakEvaluations + w.fastPeaks); // one per evaluation, none kept twice
    QVERIFY2(w.formattedNumbers <= maxNumbers,
             qPrintable(QStringLiteral("%1 numbers spelled").arg(w.formattedNumbers)));
}

void TestAccountingWork::aProbeSpellsNothing_data() {
    addEverySetup();
}

void TestAccountingWork::aProbeSpellsNothing() {
    QFETCH(QString, setup);
    const AccountingInput in = setupInput(setup);
    const WorkCounter counter;
    (void)peakBytes(in, gpuOf(in));
    const WorkCounts w = counter.counted();
    QCOMPARE(w.fastPeaks, 1);
    QCOMPARE(w.peakEvaluations, 0);
    QCOMPARE(w.timelineBuilds, 1);
    QCOMPARE(w.formattedNumbers, 0);
}

// The probes decide max_batch, max_sequence and the fit advice: they must be the peaks account() shows,
// to the bit, at the setup's own batch and at others.
void TestAccountingWork::valuesOnlyPeaksAreTheFormulaPeaks_data() {
    addEverySetup();
}

void TestAccountingWork::valuesOnlyPeaksAreTheFormulaPeaks() {
    QFETCH(QString, setup);
    AccountingInput in = setupInput(setup);
    const double ownBatch = in.batch;
    for (const double batch : {ownBatch, 1.0, ownBatch + 1, 3 * ownBatch + 7}) {
        in.batch = batch;
        const AccountingResult full = accountPeak(in, gpuOf(in));
        QCOMPARE(peakBytes(in, gpuOf(in)), full.peakMemory.value);
        QCOMPARE(peakFits(in, gpuOf(in)), full.fits);
        QVERIFY(!full.peakMemory.formula.empty()); // outside a probe, every formula is spelled
    }
}

// A search probes one model at many batches. The timeline's per-layer bytes are linear in the batch and
// kept per thread (timeline_layer_bytes.h), so a probe at another batch sums one activation ledger per
// pipeline stage it evaluates, not the three more the timeline once asked for on every probe.
void TestAccountingWork::aProbeAtAnotherBatchReusesTheLayerLedgers_data() {
    addEverySetup();
}

void TestAccountingWork::aProbeAtAnotherBatchReusesTheLayerLedgers() {
    QFETCH(QString, setup);
    AccountingInput in = setupInput(setup);
    (void)peakBytes(in, gpuOf(in));
    in.batch += 1;
    const WorkCounter counter;
    (void)peakBytes(in, gpuOf(in));
    const WorkCounts w = counter.counted();
    const std::int64_t stages = in.parallel.pp > 1 ? 2 : 1;
    QVERIFY2(w.activationLedgers <= stages,
             qPrintable(QStringLiteral("%1 ledgers").arg(w.activationLedgers)));
}

// The kept numbers are the activationMemory() bytes they stand for, to the bit, at every batch and after
// another model took the thread's slot.
void TestAccountingWork::timelineLayerBytesAreTheLedgersBytes_data() {
    addEverySetup();
}

void TestAccountingWork::timelineLayerBytesAreTheLedgersBytes() {
    QFETCH(QString, setup);
    const AccountingInput in = setupInput(setup);
    if (in.model.kind != ModelKind::transformer)
        QSKIP("the per-layer bytes are a transformer's");
    const StorageType type = ledgerFor(in.precision, in.fp32Gradients).activations;
    ModelSpec one = in.model, none = in.model, other = in.model;
    one.layers = 1;
    none.layers = 0;
    other.seq = in.model.seq / 2;
    for (const Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
        for (const double batch : {1.0, in.batch, in.batch + 1, 3 * in.batch + 7}) {
            (void)timelineLayerBytes(other, batch, type, recompute, 0); // another model in the slot first
            const TimelineLayerBytes kept = timelineLayerBytes(in.model, batch, type, recompute, 0);
            const ValuesOnly bytesOnly;
            const double logits = activationMemory(none, batch, type, recompute).bytes;
            QCOMPARE(kept.logits, logits);
            QCOMPARE(kept.kept, activationMemory(one, batch, type, recompute).bytes - logits);
            QCOMPARE(kept.whole, activationMemory(one, batch, type, Recompute::none).bytes - logits);
            QCOMPARE(kept.layerParameters, parameterTotals(one).total - parameterTotals(none).total);
        }
    }
}

void TestAccountingWork::valuesOnlyScopesNest() {
    QVERIFY(formulasWanted());
    {
        const ValuesOnly outer;
        QVERIFY(!formulasWanted());
        QCOMPARE(formatNumber(1.5), std::string());
        {
            const ValuesOnly inner;
            QVERIFY(!formulasWanted());
        }
        QVERIFY(!formulasWanted()); // the inner scope restores the outer's state, not "wanted"
    }
    QVERIFY(formulasWanted());
    QCOMPARE(formatNumber(1.5), std::string("1.5"));
}

QTEST_GUILESS_MAIN(TestAccountingWork)
#include "tst_accounting_work.moc"

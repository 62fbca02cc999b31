// SPDX-License-Identifier: GPL-3.0-or-later
// The Cruncher on oneDNN, fp32 and mixed bf16: measured memory equals the accounting recipe component by
// component and the predicted timeline event by event, the loss falls like fp32's, the fp32 run starts from
// Eigen's weights, checkpoints round-trip bit for bit (and move between precisions), bad precisions are
// refused with a reason.
#include "engine/accounting/memory_timeline.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/cpu/onednn_backend.h"

#include <QtTest>

#include <cstdio>
#include <numeric>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::OptimizerKind)
Q_DECLARE_METATYPE(napkin::PrecisionRecipe)

namespace {
OnednnBackend& backend() {
    static OnednnBackend b([] {
        OnednnBackendOptions o;
        o.cpu.measurePeak = false;
        o.cpu.threads = 1; // tiny GEMMs: a second OpenMP thread only adds hand-offs (and waits, under load)
        return o;
    }());
    return b;
}
CruncherConfig cruncher(long d, long l, long b, OptimizerKind optimizer, PrecisionRecipe precision) {
    CruncherConfig c;
    c.dim = d;
    c.layers = l;
    c.batch = b;
    c.optimizer = optimizer;
    c.hyper.learningRate = defaultLearningRate(optimizer, d);
    c.precision = precision;
    return c;
}
double mean(const std::vector<double>& v, std::size_t from, std::size_t to) {
    return std::accumulate(v.begin() + static_cast<long>(from), v.begin() + static_cast<long>(to), 0.0) /
           static_cast<double>(to - from);
}
std::vector<double> train(CruncherTrainer& t, int steps) {
    std::vector<double> losses;
    losses.reserve(static_cast<std::size_t>(steps));
    for (int s = 0; s < steps; ++s)
        losses.push_back(t.step());
    return losses;
}
} // namespace

class TestOnednnCruncher : public QObject {
    Q_OBJECT
private slots:
    void measuredMemoryIsTheRecipe_data();
    void measuredMemoryIsTheRecipe();
    void measuredTimelineIsPredicted_data();
    void measuredTimelineIsPredicted();
    void trainingRunReportsMeasuredEqualsPredicted();
    void lossFallsLikeFp32_data();
    void lossFallsLikeFp32();
    void fp32StartsWhereEigenStarts();
    void checkpointResumesBitForBit_data();
    void checkpointResumesBitForBit();
    void checkpointMovesBetweenPrecisions();
    void otherPrecisionsAreRefused();
};

void TestOnednnCruncher::measuredMemoryIsTheRecipe_data() {
    QTest::addColumn<long>("d");
    QTest::addColumn<long>("l");
    QTest::addColumn<long>("b");
    QTest::addColumn<OptimizerKind>("kind");
    QTest::addColumn<PrecisionRecipe>("precision");
    QTest::addColumn<double>("parameters");
    QTest::addColumn<double>("gradients");
    QTest::addColumn<double>("master");
    QTest::addColumn<double>("state");
    QTest::addColumn<double>("activations");
    const auto fp32 = PrecisionRecipe::fp32, mixed = PrecisionRecipe::mixedBf16;
    // The lecture: P = 36, activations B·D·L = 16; fp32 4·(36 + 36 + 36 + 16) = 496 bytes.
    QTest::newRow("lecture fp32 AdaGrad")
        << 4L << 2L << 2L << OptimizerKind::adagrad << fp32 << 144.0 << 144.0 << 0.0 << 144.0 << 64.0;
    // Mixed bf16 (Micikevicius et al. 2018 with bf16): 2 B weights and gradients, 4 B master weights and
    // state, 2 B activations: 72 + 72 + 144 + 144 + 32 = 464 bytes.
    QTest::newRow("lecture mixed-bf16 AdaGrad")
        << 4L << 2L << 2L << OptimizerKind::adagrad << mixed << 72.0 << 72.0 << 144.0 << 144.0 << 32.0;
    // P = 3·64 + 8 = 200, AdamW's two states: 2·200, 2·200, 4·200, 8·200; activations 2·5·8·3.
    QTest::newRow("D=8 L=3 B=5 mixed-bf16 AdamW")
        << 8L << 3L << 5L << OptimizerKind::adamw << mixed << 400.0 << 400.0 << 800.0 << 1600.0 << 240.0;
    // SGD keeps no state: 2 + 2 + 4 = 8 B/param, P = 4·1024 + 32 = 4128; activations 2·7·32·4.
    QTest::newRow("D=32 L=4 B=7 mixed-bf16 SGD")
        << 32L << 4L << 7L << OptimizerKind::sgd << mixed << 8256.0 << 8256.0 << 16512.0 << 0.0 << 1792.0;
}

void TestOnednnCruncher::measuredMemoryIsTheRecipe() {
    QFETCH(long, d);
    QFETCH(long, l);
    QFETCH(long, b);
    QFETCH(OptimizerKind, kind);
    QFETCH(PrecisionRecipe, precision);
    QFETCH(double, parameters);
    QFETCH(double, gradients);
    QFETCH(double, master);
    QFETCH(double, state);
    QFETCH(double, activations);
    const CruncherConfig config = cruncher(d, l, b, kind, precision);
    auto trainer = backend().makeCruncherTrainer(config);
    const MemoryLedger& m = trainer->ledger();
    trainer->step();
    trainer->step();
    // Each component at its peak over the steps (activations are freed in backward, gradients at zero_grad).
    QCOMPARE(m.peakBytes(MemoryTag::parameters), parameters);
    QCOMPARE(m.peakBytes(MemoryTag::gradients), gradients);
    QCOMPARE(m.peakBytes(MemoryTag::masterWeights), master);
    QCOMPARE(m.peakBytes(MemoryTag::optimizerState), state);
    QCOMPARE(m.peakBytes(MemoryTag::activations), activations);
    QCOMPARE(m.currentBytes(MemoryTag::gradients), 0.0);
    QCOMPARE(m.currentBytes(MemoryTag::activations), 0.0);
    QCOMPARE(m.currentBytes(MemoryTag::workspace), 0.0);
    // The same figures from the accounting (engine/accounting's precision recipe), component by component.
    const AccountingResult p = predictedCruncherAccounting(config);
    QCOMPARE(p.memory.parameters.value, parameters);
    QCOMPARE(p.memory.gradients.value, gradients);
    QCOMPARE(p.memory.masterWeights.value, master);
    QCOMPARE(p.memory.optimizerState.value, state);
    QCOMPARE(p.memory.activations.value, activations);
    // Outside the formula: X in the GEMMs' dtype, targets and w* in fp32 (inputs); oneDNN's scratchpad and,
    // in mixed precision, the gradient-widening chunk (scratch). Neither is in a timeline.
    const bool mixed = precision == PrecisionRecipe::mixedBf16;
    const double e = mixed ? 2 : 4;
    QCOMPARE(m.currentBytes(MemoryTag::inputs),
             e * static_cast<double>(b * d) + 4.0 * static_cast<double>(b + d));
    const double chunk = mixed ? 4.0 * std::min(4096.0, static_cast<double>(d * d)) : 0.0;
    const double scratchpad = m.currentBytes(MemoryTag::scratch) - chunk;
    QVERIFY2(scratchpad >= 0 && std::fmod(scratchpad, 64) == 0, qPrintable(QString::number(scratchpad)));
}

void TestOnednnCruncher::measuredTimelineIsPredicted_data() {
    QTest::addColumn<OptimizerKind>("kind");
    QTest::addColumn<PrecisionRecipe>("precision");
    QTest::addColumn<long>("d");
    QTest::addColumn<long>("l");
    QTest::addColumn<long>("b");
    const long sizes[][3] = {{4, 2, 2}, {1, 1, 1}, {33, 4, 7}, {128, 4, 32}};
    for (PrecisionRecipe precision : {PrecisionRecipe::fp32, PrecisionRecipe::mixedBf16})
        for (OptimizerKind k : allOptimizers())
            for (const auto& s : sizes)
                QTest::addRow("%s %s D=%ld L=%ld B=%ld", precisionRecipeName(precision).data(),
                              optimizerName(k).data(), s[0], s[1], s[2])
                    << k << precision << s[0] << s[1] << s[2];
}

// The oneDNN trainer allocates in PyTorch's eager order too: its ledger at every event of the first and
// the steady steps is the predicted timeline, exactly; the peak it saw at any moment is the predicted peak.
void TestOnednnCruncher::measuredTimelineIsPredicted() {
    QFETCH(OptimizerKind, kind);
    QFETCH(PrecisionRecipe, precision);
    QFETCH(long, d);
    QFETCH(long, l);
    QFETCH(long, b);
    const CruncherConfig config = cruncher(d, l, b, kind, precision);
    auto trainer = backend().makeCruncherTrainer(config);
    const AccountingInput in = cruncherAccountingInput(config);
    const AccountingResult p = predictedCruncherAccounting(config);
    trainer->step();
    QVERIFY(trainer->measuredTimeline() == memoryTimeline(in, p, TrainingStep::first).events);
    const MemoryTimeline steady = memoryTimeline(in, p, TrainingStep::steady);
    trainer->step();
    const std::vector<TimelineEvent> measured = trainer->measuredTimeline();
    QCOMPARE(measured.size(), steady.events.size());
    for (std::size_t i = 0; i < measured.size(); ++i)
        QVERIFY2(measured[i] == steady.events[i], stepEventName(steady.events[i].event).c_str());
    QCOMPARE(trainer->ledger().peakStepBytes(), steady.peakBytes);
}

void TestOnednnCruncher::trainingRunReportsMeasuredEqualsPredicted() {
    // The service bench train and the Benchmarks page call, on the registry's default backend.
    BackendOptions defaults;
    defaults.cpuMeasurePeak = false; // no MFU needed: memory is the point
    auto cpu = makeBackend("cpu", defaults);
    QVERIFY(cpu != nullptr);
    TrainingRunRequest request;
    request.config = cruncher(16, 3, 8, OptimizerKind::adam, PrecisionRecipe::mixedBf16);
    request.steps = 3;
    const TrainingRun run = runCruncherTraining(*cpu, request);
    QCOMPARE(run.device.cpuBackend, std::string("onednn"));
    const MemoryComparison& m = run.memory;
    for (const BytesPredictedMeasured& c :
         {m.parameters, m.gradients, m.masterWeights, m.optimizerState, m.activations, m.total})
        QCOMPARE(c.measured, c.predicted);
    // P = 3·256 + 16 = 784: 2 + 2 + 4 + 4 + 4 = 16 B/param, activations 2·8·16·3.
    QCOMPARE(m.total.predicted, 16.0 * 784 + 768);
    QCOMPARE(m.masterWeights.measured, 4.0 * 784);
    // The timeline too, event by event, and its peaks count the same components.
    QVERIFY(m.timelineAgrees());
    QCOMPARE(m.peakMeasuredBytes, m.predictedTimeline.peakBytes);
}

void TestOnednnCruncher::lossFallsLikeFp32_data() {
    QTest::addColumn<OptimizerKind>("kind");
    for (OptimizerKind k : allOptimizers())
        QTest::newRow(std::string(optimizerName(k)).c_str()) << k;
}

void TestOnednnCruncher::lossFallsLikeFp32() {
    QFETCH(OptimizerKind, kind);
    auto fp32 = backend().makeCruncherTrainer(cruncher(8, 2, 32, kind, PrecisionRecipe::fp32));
    auto mixed = backend().makeCruncherTrainer(cruncher(8, 2, 32, kind, PrecisionRecipe::mixedBf16));
    const std::vector<double> a = train(*fp32, 300), b = train(*mixed, 300);
    const double firstA = mean(a, 0, 20), lastA = mean(a, 280, 300);
    const double firstB = mean(b, 0, 20), lastB = mean(b, 280, 300);
    QVERIFY2(lastA < 0.25 * firstA, qPrintable(QString("fp32 loss %1 -> %2").arg(firstA).arg(lastA)));
    QVERIFY2(lastB < 0.25 * firstB, qPrintable(QString("mixed loss %1 -> %2").arg(firstB).arg(lastB)));
    // The same batches and initial weights (rounded to bf16): the curves start together, and mixed
    // precision ends near fp32 — within bf16's resolution of the loss it started from.
    QVERIFY2(std::abs(b[0] - a[0]) < 0.02 * a[0], qPrintable(QString("%1 vs %2").arg(b[0]).arg(a[0])));
    QVERIFY2(lastB < 2 * lastA + 0x1p-8 * firstA,
             qPrintable(QString("mixed %1, fp32 %2 after 300 steps").arg(lastB).arg(lastA)));
}

void TestOnednnCruncher::fp32StartsWhereEigenStarts() {
    CpuBackendOptions o;
    o.measurePeak = false;
    CpuBackend eigen(o);
    const CruncherConfig c = cruncher(6, 3, 4, OptimizerKind::adam, PrecisionRecipe::fp32);
    auto a = backend().makeCruncherTrainer(c), b = eigen.makeCruncherTrainer(c);
    QCOMPARE(a->parameters(), b->parameters()); // the same draws, bit for bit
    const std::vector<double> la = train(*a, 5), lb = train(*b, 5);
    for (std::size_t i = 0; i < la.size(); ++i) // the same arithmetic, summed in another order
        QVERIFY2(std::abs(la[i] - lb[i]) <= 1e-5 * lb[i],
                 qPrintable(QString("%1 vs %2").arg(la[i]).arg(lb[i])));
}

void TestOnednnCruncher::checkpointResumesBitForBit_data() {
    QTest::addColumn<PrecisionRecipe>("precision");
    QTest::newRow("fp32") << PrecisionRecipe::fp32;
    QTest::newRow("mixed-bf16") << PrecisionRecipe::mixedBf16;
}

void TestOnednnCruncher::checkpointResumesBitForBit() {
    QFETCH(PrecisionRecipe, precision);
    const QString path = QDir::temp().filePath("napkin_tst_onednn_cruncher.ckpt");
    const CruncherConfig config = cruncher(6, 3, 4, OptimizerKind::adam, precision);
    auto a = backend().makeCruncherTrainer(config);
    train(*a, 5);
    a->saveCheckpoint(path.toStdString());
    const std::vector<double> continued = train(*a, 5);
    auto b = backend().makeCruncherTrainer(config);
    b->loadCheckpoint(path.toStdString());
    QCOMPARE(b->stepsDone(), 5L);
    QCOMPARE(train(*b, 5), continued); // master weights, Adam's m and v, step and data stream restored
    QCOMPARE(b->parameters(), a->parameters());
    // A damaged file is refused whole: the trainer is as it was.
    auto c = backend().makeCruncherTrainer(config);
    const std::vector<float> before = c->parameters();
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, c->loadCheckpoint("/nonexistent/napkin.ckpt"));
    QCOMPARE(c->parameters(), before);
    std::remove(path.toStdString().c_str());
}

void TestOnednnCruncher::checkpointMovesBetweenPrecisions() {
    // A checkpoint holds fp32 master weights and state: a mixed-bf16 run resumes as fp32 (on oneDNN or on
    // Eigen) from exactly those weights, and an fp32 one as mixed-bf16.
    const QString path = QDir::temp().filePath("napkin_tst_onednn_cruncher_moves.ckpt");
    auto mixed =
        backend().makeCruncherTrainer(cruncher(6, 2, 4, OptimizerKind::adagrad, PrecisionRecipe::mixedBf16));
    train(*mixed, 4);
    mixed->saveCheckpoint(path.toStdString());
    auto fp32 =
        backend().makeCruncherTrainer(cruncher(6, 2, 4, OptimizerKind::adagrad, PrecisionRecipe::fp32));
    fp32->loadCheckpoint(path.toStdString());
    QCOMPARE(fp32->parameters(), mixed->parameters());
    QCOMPARE(fp32->stepsDone(), 4L);
    std::remove(path.toStdString().c_str());
}

void TestOnednnCruncher::otherPrecisionsAreRefused() {
    for (PrecisionRecipe r : {PrecisionRecipe::bf16, PrecisionRecipe::fp16, PrecisionRecipe::mixedFp16,
                              PrecisionRecipe::fp8Mixed}) {
        const std::string why = backend().unsupportedPrecisionReason(r);
        QVERIFY2(QString::fromStdString(why).contains("--precision"), why.c_str());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 backend().makeCruncherTrainer(cruncher(4, 2, 2, OptimizerKind::sgd, r)));
    }
    QVERIFY(backend().unsupportedPrecisionReason(PrecisionRecipe::mixedBf16).empty());
    CpuBackendOptions o;
    o.measurePeak = false;
    CpuBackend eigen(o);
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        eigen.makeCruncherTrainer(cruncher(4, 2, 2, OptimizerKind::sgd, PrecisionRecipe::mixedBf16)));
}

QTEST_APPLESS_MAIN(TestOnednnCruncher)
#include "tst_onednn_cruncher.moc"

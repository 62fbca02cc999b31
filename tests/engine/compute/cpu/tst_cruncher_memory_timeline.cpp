// SPDX-License-Identifier: GPL-3.0-or-later
// Memory over a training step, measured: the CPU trainer allocates and frees through its ledger in
// PyTorch's eager order and records the ledger at each event; that must be the predicted timeline
// (engine/accounting/memory_timeline.h) at every event, exactly, for every optimizer and several sizes.
#include "engine/accounting/memory_timeline.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/memory_timeline_recorder.h"
#include "tests/support/cruncher_configs.h"

#include <QtTest>

#include <algorithm>
#include <cstdio>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::OptimizerKind)

namespace {

MemoryTimeline predicted(const CruncherConfig& c, TrainingStep step) {
    return memoryTimeline(cruncherAccountingInput(c), predictedCruncherAccounting(c), step);
}

QByteArray describe(const StepBytes& b) {
    return QByteArray::number(b.parameters) + " + " + QByteArray::number(b.gradients) + " + " +
           QByteArray::number(b.masterWeights) + " + " + QByteArray::number(b.optimizerState) + " + " +
           QByteArray::number(b.activations) + " + " + QByteArray::number(b.temporary);
}

// Event by event, every component to the bit (StepBytes' == compares doubles exactly).
void compareEvents(const std::vector<TimelineEvent>& measured, const MemoryTimeline& expected) {
    QCOMPARE(measured.size(), expected.events.size());
    for (std::size_t i = 0; i < measured.size(); ++i) {
        const QByteArray name = stepEventName(expected.events[i].event).c_str();
        QVERIFY2(measured[i].event == expected.events[i].event,
                 "event " + QByteArray::number(static_cast<int>(i)) + ": measured " +
                     stepEventName(measured[i].event).c_str() + ", predicted " + name);
        QVERIFY2(measured[i].bytes == expected.events[i].bytes,
                 name + ": measured " + describe(measured[i].bytes) + ", predicted " +
                     describe(expected.events[i].bytes));
    }
}

double largestTotal(const std::vector<TimelineEvent>& events) {
    double most = 0;
    for (const TimelineEvent& e : events)
        most = std::max(most, e.bytes.total());
    return most;
}

} // namespace

class TestCruncherMemoryTimeline : public QObject {
    Q_OBJECT
private slots:
    void ledgerPeaks();
    void lectureMeasured();
    void measuredIsPredicted_data();
    void measuredIsPredicted();
    void resumedRunStartsWithState();
};

// The ledger's peaks: per tag, every tag but inputs (what a timeline counts), and every tag.
void TestCruncherMemoryTimeline::ledgerPeaks() {
    MemoryLedger ledger;
    AccountedBuffer data = ledger.allocateFloats(MemoryTag::inputs, 10); // 40 B, not in a timeline
    AccountedBuffer w = ledger.allocateFloats(MemoryTag::parameters, 4);
    {
        AccountedBuffer g = ledger.allocateFloatsForOverwrite(MemoryTag::gradients, 8);
        AccountedBuffer m = ledger.allocateFloats(MemoryTag::masterWeights, 2);
        QCOMPARE(ledger.stepBytes(), 56.0);
        QCOMPARE(stepBytesHeld(ledger), (StepBytes{16, 32, 8, 0, 0, 0}));
        QCOMPARE(ledger.countedBytes(), 56.0); // master weights are in the formula
    }
    AccountedBuffer s = ledger.allocateFloats(MemoryTag::optimizerState, 4);
    QCOMPARE(ledger.stepBytes(), 32.0);
    QCOMPARE(ledger.totalBytes(), 72.0);
    QCOMPARE(ledger.peakStepBytes(), 56.0);
    QCOMPARE(ledger.peakTotalBytes(), 96.0);
    QCOMPARE(ledger.peakBytes(MemoryTag::gradients), 32.0);
    QCOMPARE(ledger.currentBytes(MemoryTag::gradients), 0.0);

    MemoryTimelineRecorder recorder(ledger);
    recorder.beginStep();
    recorder.record(StepPhase::start);
    recorder.record(StepPhase::forward, StepPart::layer, 1);
    QCOMPARE(recorder.lastStep().size(), std::size_t(2));
    QCOMPARE(recorder.lastStep()[1].event, (StepEvent{StepPhase::forward, StepPart::layer, 1}));
    QCOMPARE(recorder.lastStep()[1].bytes, (StepBytes{16, 0, 0, 16, 0, 0}));
    recorder.beginStep();
    QVERIFY(recorder.lastStep().empty());
}

// The lecture's Cruncher (D = 4, L = 2, B = 2, AdaGrad) as the trainer's ledger saw it, in bytes:
// tst_memory_timeline.cpp derives the same totals by hand. 496 B is the sum; 464 B the peak.
void TestCruncherMemoryTimeline::lectureMeasured() {
    CpuCruncherTrainer trainer(cruncherConfig(4, 2, 2, OptimizerKind::adagrad));
    trainer.step();
    const std::vector<double> first{144, 176, 208, 216, 224, 264, 320, 320, 432, 288};
    std::vector<double> totals;
    for (const TimelineEvent& e : trainer.measuredTimeline())
        totals.push_back(e.bytes.total());
    QCOMPARE(totals, first);
    trainer.step();
    const std::vector<double> steady{288, 320, 352, 360, 368, 408, 464, 464, 432, 288};
    totals.clear();
    for (const TimelineEvent& e : trainer.measuredTimeline())
        totals.push_back(e.bytes.total());
    QCOMPARE(totals, steady);
    QCOMPARE(trainer.ledger().peakStepBytes(), 464.0);
}

void TestCruncherMemoryTimeline::measuredIsPredicted_data() {
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<long>("d");
    QTest::addColumn<long>("l");
    QTest::addColumn<long>("b");
    const long sizes[][3] = {{4, 2, 2}, {1, 1, 1}, {8, 3, 5}, {33, 4, 7}, {64, 1, 3}, {16, 6, 1}};
    for (OptimizerKind k : allOptimizers())
        for (const auto& s : sizes)
            QTest::addRow("%s D=%ld L=%ld B=%ld", optimizerName(k).data(), s[0], s[1], s[2])
                << k << s[0] << s[1] << s[2];
}

// The first step (state made at the update), then steady steps; the peak the ledger saw at any moment
// (not only at events) is the predicted peak.
void TestCruncherMemoryTimeline::measuredIsPredicted() {
    QFETCH(OptimizerKind, optimizer);
    QFETCH(long, d);
    QFETCH(long, l);
    QFETCH(long, b);
    const CruncherConfig config = cruncherConfig(d, l, b, optimizer);
    CpuCruncherTrainer trainer(config);
    trainer.step();
    const MemoryTimeline first = predicted(config, TrainingStep::first);
    compareEvents(trainer.measuredTimeline(), first);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(trainer.ledger().peakStepBytes(), first.peakBytes);
    const MemoryTimeline steady = predicted(config, TrainingStep::steady);
    for (int s = 0; s < 2; ++s) {
        trainer.step();
        compareEvents(trainer.measuredTimeline(), steady);
        if (QTest::currentTestFailed())
            return;
    }
    QCOMPARE(largestTotal(trainer.measuredTimeline()), steady.peakBytes);
    QCOMPARE(trainer.ledger().peakStepBytes(), steady.peakBytes);
    QCOMPARE(peakEventIndex(trainer.measuredTimeline()), std::optional<std::size_t>(steady.peakIndex));
}

// A checkpoint saved before any update holds the zero state the first update would start from; a
// trainer resumed from it has its state from the start (as after load_state_dict) and continues with
// the losses of one that was never interrupted.
void TestCruncherMemoryTimeline::resumedRunStartsWithState() {
    const QString path = QDir::temp().filePath("napkin_tst_cruncher_timeline.ckpt");
    const CruncherConfig config = cruncherConfig(6, 3, 4, OptimizerKind::adamw);
    CpuCruncherTrainer fresh(config);
    fresh.saveCheckpoint(path.toStdString());
    CpuCruncherTrainer resumed(config);
    resumed.loadCheckpoint(path.toStdString());
    std::remove(path.toStdString().c_str());
    QCOMPARE(resumed.ledger().currentBytes(MemoryTag::optimizerState),
             2.0 * 4 * static_cast<double>(3 * 36 + 6));
    QCOMPARE(resumed.step(), fresh.step());
    compareEvents(resumed.measuredTimeline(), predicted(config, TrainingStep::steady));
    for (int s = 0; s < 2; ++s)
        QCOMPARE(resumed.step(), fresh.step());
}

QTEST_APPLESS_MAIN(TestCruncherMemoryTimeline)
#include "tst_cruncher_memory_timeline.moc"

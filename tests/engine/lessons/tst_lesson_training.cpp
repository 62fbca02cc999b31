// SPDX-License-Identifier: GPL-3.0-or-later
// The determinism and mixed-precision lessons on the lesson Cruncher (every value rounded through the
// exact codecs).
#include "engine/lessons/mixed_precision_trainer.h"

#include <QtTest>

#include <algorithm>
#include <cstring>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::PrecisionLesson)

namespace {
bool bitIdentical(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}
LessonCruncherConfig small() {
    LessonCruncherConfig c;
    c.steps = 120;
    return c;
}
} // namespace

class TestLessonTraining : public QObject {
    Q_OBJECT
private slots:
    void equalSeedsBitIdentical_data();
    void equalSeedsBitIdentical();
    void dataSeedChangesOnlyTheOrder();
    void initSeedChangesOnlyTheWeights();
    void fp32LossFalls();
    void fp16UnderflowsWithoutLossScaling();
    void underflowOnlyInNarrowFormats_data();
    void underflowOnlyInNarrowFormats();
    void lossScaleBacksOffOnOverflow();
    void badConfigThrows();
};

void TestLessonTraining::equalSeedsBitIdentical_data() {
    QTest::addColumn<PrecisionLesson>("recipe");
    for (PrecisionLesson r : kPrecisionLessons)
        QTest::newRow(std::string(precisionLessonKey(r)).c_str()) << r;
}

void TestLessonTraining::equalSeedsBitIdentical() {
    QFETCH(PrecisionLesson, recipe);
    LessonCruncherConfig c = small();
    c.seedInit = 5;
    c.seedData = 6;
    const LessonTrainingRun a = trainPrecisionLesson(c, recipe), b = trainPrecisionLesson(c, recipe);
    QVERIFY(bitIdentical(a.losses, b.losses));
    QCOMPARE(a.underflowsPerStep, b.underflowsPerStep);
    c.seedData = 7;
    QVERIFY(!bitIdentical(a.losses, trainPrecisionLesson(c, recipe).losses));
}

void TestLessonTraining::dataSeedChangesOnlyTheOrder() {
    LessonCruncherConfig c = small();
    const LessonTrainingRun a = trainPrecisionLesson(c, PrecisionLesson::fp32);
    c.seedData = 99;
    const LessonTrainingRun b = trainPrecisionLesson(c, PrecisionLesson::fp32);
    QCOMPARE(a.initChecksum, b.initChecksum);        // the same initial weights
    QCOMPARE(a.datasetChecksum, b.datasetChecksum);  // the same examples
    QVERIFY(a.firstEpochOrder != b.firstEpochOrder); // visited in another order...
    auto sortedA = a.firstEpochOrder, sortedB = b.firstEpochOrder;
    std::sort(sortedA.begin(), sortedA.end());
    std::sort(sortedB.begin(), sortedB.end());
    QCOMPARE(sortedA, sortedB); // ...each exactly once per epoch
    QVERIFY(!bitIdentical(a.losses, b.losses));
}

void TestLessonTraining::initSeedChangesOnlyTheWeights() {
    LessonCruncherConfig c = small();
    const LessonTrainingRun a = trainPrecisionLesson(c, PrecisionLesson::fp32);
    c.seedInit = 42;
    const LessonTrainingRun b = trainPrecisionLesson(c, PrecisionLesson::fp32);
    QVERIFY(a.initChecksum != b.initChecksum);
    QCOMPARE(a.datasetChecksum, b.datasetChecksum);
    QCOMPARE(a.firstEpochOrder, b.firstEpochOrder);
}

void TestLessonTraining::fp32LossFalls() {
    const LessonTrainingRun r = trainPrecisionLesson(small(), PrecisionLesson::fp32);
    QCOMPARE(r.losses.size(), std::size_t{120});
    QVERIFY2(r.losses.back() < r.losses.front() / 10,
             qPrintable(QStringLiteral("%1 -> %2").arg(r.losses.front()).arg(r.losses.back())));
    QCOMPARE(r.underflowTotal, 0L);
    // B + D + B·D + L·D² + (L − 1)·B·D with B = 32, D = 16, L = 3
    QCOMPARE(r.gradientValuesPerStep, 32.0 + 16 + 32 * 16 + 3 * 16 * 16 + 2 * 32 * 16);
}

void TestLessonTraining::fp16UnderflowsWithoutLossScaling() {
    // The acceptance test: on the same run (same seeds, same data), fp16 without loss scaling flushes
    // gradient values to zero; with loss scaling none are lost.
    const LessonCruncherConfig c = small();
    const LessonTrainingRun plain = trainPrecisionLesson(c, PrecisionLesson::fp16NoScaling);
    const LessonTrainingRun scaled = trainPrecisionLesson(c, PrecisionLesson::fp16LossScaling);
    QVERIFY2(plain.underflowTotal > 0, "fp16 without loss scaling lost no gradient value");
    QCOMPARE(scaled.underflowTotal, 0L);
    QCOMPARE(plain.initChecksum, scaled.initChecksum);
    QCOMPARE(plain.firstEpochOrder, scaled.firstEpochOrder);
}

void TestLessonTraining::underflowOnlyInNarrowFormats_data() {
    QTest::addColumn<PrecisionLesson>("recipe");
    QTest::addColumn<bool>("underflows");
    QTest::newRow("fp32") << PrecisionLesson::fp32 << false;
    QTest::newRow("bf16 mixed: fp32's exponent range") << PrecisionLesson::bf16Mixed << false;
    QTest::newRow("pure bf16") << PrecisionLesson::bf16Pure << false;
    QTest::newRow("fp16") << PrecisionLesson::fp16NoScaling << true;
    QTest::newRow("fp16 + loss scaling") << PrecisionLesson::fp16LossScaling << false;
}

void TestLessonTraining::underflowOnlyInNarrowFormats() {
    QFETCH(PrecisionLesson, recipe);
    QFETCH(bool, underflows);
    const LessonTrainingRun r = trainPrecisionLesson(small(), recipe);
    QCOMPARE(r.underflowTotal > 0, underflows);
    QCOMPARE(r.losses.size(), std::size_t{120});
}

void TestLessonTraining::lossScaleBacksOffOnOverflow() {
    // Targets of size 3 make the first gradients times 2^16 overflow fp16 (65504): GradScaler skips
    // those steps and halves the scale until the scaled gradients fit (here three times, to 8192).
    LessonCruncherConfig c = small();
    c.targetScale = 3;
    c.learningRate = 1e-2;
    c.steps = 40;
    const LessonTrainingRun r = trainPrecisionLesson(c, PrecisionLesson::fp16LossScaling);
    QCOMPARE(r.skippedSteps, 3L);
    QVERIFY(std::isfinite(r.losses.back()));
    QCOMPARE(r.lossScalePerStep.front(), 65536.0);
    QVERIFY(r.lossScalePerStep.back() < 65536.0);
    QCOMPARE(r.lossScalePerStep.back(), 65536.0 / std::pow(2.0, static_cast<double>(r.skippedSteps)));
}

void TestLessonTraining::badConfigThrows() {
    LessonCruncherConfig c = small();
    c.examples = 8; // fewer than one batch of 16
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainPrecisionLesson(c, PrecisionLesson::fp32));
    c = small();
    c.dim = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainPrecisionLesson(c, PrecisionLesson::fp32));
    c = small();
    c.learningRate = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, trainPrecisionLesson(c, PrecisionLesson::fp32));
}

QTEST_APPLESS_MAIN(TestLessonTraining)
#include "tst_lesson_training.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The initialization lesson: activation std per layer for N(0,1), N(0,1)/√D and truncated weights.
#include "engine/lessons/init_std_experiment.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

class TestLessonInit : public QObject {
    Q_OBJECT
private slots:
    void truncatedVariance();
    void normalGrowsBySqrtD_data();
    void normalGrowsBySqrtD();
    void xavierStaysNearOne_data();
    void xavierStaysNearOne();
    void truncatedShrinksSlowly();
    void sameSeedSameCurves();
    void fp32OverflowLayer();
    void badSizesThrow();
};

void TestLessonInit::truncatedVariance() {
    // 1 − 2·3·φ(3)/(2Φ(3) − 1) with φ(3) = 0.00443185, 2Φ(3) − 1 = 0.99730020: 0.9733369.
    QCOMPARE(qRound(truncatedNormalVariance(3.0) * 1e6), 973337);
    QVERIFY(std::abs(truncatedNormalVariance(40.0) - 1.0) < 1e-12); // no truncation at all
}

void TestLessonInit::normalGrowsBySqrtD_data() {
    QTest::addColumn<long>("dim");
    QTest::addColumn<long>("layers");
    QTest::newRow("D=256, 8 layers (x16 per layer)") << 256L << 8L;
    QTest::newRow("D=512, 6 layers (x22.6 per layer)") << 512L << 6L;
    QTest::newRow("D=1024, 4 layers (x32 per layer)") << 1024L << 4L;
}

void TestLessonInit::normalGrowsBySqrtD() {
    QFETCH(long, dim);
    QFETCH(long, layers);
    InitStdConfig c;
    c.dim = dim;
    c.layers = layers;
    c.seed = 7;
    const InitStdResult r = runInitStdExperiment(c);
    const InitStdCurve& normal = r.curves.at(0);
    QCOMPARE(normal.scheme, InitScheme::standardNormal);
    QCOMPARE(normal.stdPerLayer.size(), static_cast<std::size_t>(layers + 1));
    const double sqrtD = std::sqrt(static_cast<double>(dim));
    QCOMPARE(normal.predictedGrowthPerLayer, sqrtD);
    for (long l = 1; l <= layers; ++l) {
        const double ratio = normal.stdPerLayer[static_cast<std::size_t>(l)] /
                             normal.stdPerLayer[static_cast<std::size_t>(l - 1)];
        QVERIFY2(
            std::abs(ratio / sqrtD - 1.0) < 0.10,
            qPrintable(QStringLiteral("layer %1: std grew x%2, sqrt(D) = %3").arg(l).arg(ratio).arg(sqrtD)));
    }
}

void TestLessonInit::xavierStaysNearOne_data() {
    QTest::addColumn<long>("dim");
    QTest::addColumn<long>("layers");
    QTest::newRow("D=64, 32 layers") << 64L << 32L;
    QTest::newRow("D=256, 50 layers") << 256L << 50L;
    QTest::newRow("D=1024, 10 layers") << 1024L << 10L;
}

void TestLessonInit::xavierStaysNearOne() {
    QFETCH(long, dim);
    QFETCH(long, layers);
    InitStdConfig c;
    c.dim = dim;
    c.layers = layers;
    c.seed = 3;
    const InitStdResult r = runInitStdExperiment(c);
    const InitStdCurve& xavier = r.curves.at(1);
    QCOMPARE(xavier.scheme, InitScheme::xavier);
    for (double s : xavier.stdPerLayer)
        QVERIFY2(s >= 0.5 && s <= 2.0, qPrintable(QStringLiteral("std %1 left [0.5, 2]").arg(s)));
}

void TestLessonInit::truncatedShrinksSlowly() {
    // Cutting N(0,1) at ±3σ leaves variance 0.97334: the std falls by 0.98658 per layer, 0.874 after 10.
    InitStdConfig c;
    c.dim = 512;
    c.layers = 10;
    c.batch = 64;
    c.seed = 11;
    const InitStdResult r = runInitStdExperiment(c);
    const InitStdCurve& t = r.curves.at(2);
    QCOMPARE(t.scheme, InitScheme::truncatedXavier);
    const double expected = std::pow(std::sqrt(truncatedNormalVariance(3.0)), 10.0);
    const double measured = t.stdPerLayer.back() / t.stdPerLayer.front();
    QVERIFY2(std::abs(measured / expected - 1.0) < 0.05,
             qPrintable(QStringLiteral("%1 vs %2").arg(measured).arg(expected)));
}

void TestLessonInit::sameSeedSameCurves() {
    InitStdConfig c;
    c.dim = 32;
    c.layers = 5;
    const InitStdResult a = runInitStdExperiment(c), b = runInitStdExperiment(c);
    c.seed = 1;
    const InitStdResult other = runInitStdExperiment(c);
    for (int s = 0; s < 3; ++s) {
        QCOMPARE(a.curves[static_cast<std::size_t>(s)].stdPerLayer,
                 b.curves[static_cast<std::size_t>(s)].stdPerLayer);
        QVERIFY(a.curves[static_cast<std::size_t>(s)].stdPerLayer !=
                other.curves[static_cast<std::size_t>(s)].stdPerLayer);
    }
}

void TestLessonInit::fp32OverflowLayer() {
    // D = 1024 grows x32 per layer: the largest |activation| (a few std) passes 3.4e38 ≈ 32^25.6 near
    // layer 25.
    InitStdConfig c;
    c.dim = 1024;
    c.layers = 30;
    c.batch = 4;
    const InitStdResult r = runInitStdExperiment(c);
    QVERIFY(r.curves[0].fp32OverflowLayer >= 24 && r.curves[0].fp32OverflowLayer <= 26);
    QCOMPARE(r.curves[1].fp32OverflowLayer, -1L);
}

void TestLessonInit::badSizesThrow() {
    InitStdConfig c;
    c.dim = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runInitStdExperiment(c));
    c.dim = 8;
    c.layers = 129;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, runInitStdExperiment(c));
}

QTEST_APPLESS_MAIN(TestLessonInit)
#include "tst_lesson_init.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Cost, energy and carbon of a run: GPU-hours × price, GPU-hours × power × PUE, energy × grid intensity.
// Rows: Llama 2's model card (meta-llama/llama MODEL_CARD.md, "CO2 emissions during pretraining") and the
// lecture's 70B / 15T tokens / 1024 H100 / MFU 0.5 question.
#include "engine/accounting/run_cost.h"

#include "engine/text/formula_text.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

class TestRunCost : public QObject {
    Q_OBJECT
private slots:
    void llama2ModelCard_data();
    void llama2ModelCard();
    void lectureRun();
    void moneyNeedsAPrice();
    void partWithoutTdpAnswersNoEnergy();
    void defaultIntensityIsMarked();
    void dollarsPerMillionTokens();
    void badInputIsRefused_data();
    void badInputIsRefused();
    void valuesOnlyBuildsNoText();
};

void TestRunCost::llama2ModelCard_data() {
    QTest::addColumn<double>("gpuHours");
    QTest::addColumn<double>("watts");
    QTest::addColumn<double>("tonnes");
    // MODEL_CARD.md: | Time (GPU hours) | Power Consumption (W) | Carbon Emitted (tCO2eq) |, the power being
    // "peak power capacity per GPU device ... adjusted for power usage efficiency" (so PUE 1 here).
    QTest::newRow("Llama 2 7B: 184320 h, 400 W, 31.22 t") << 184320.0 << 400.0 << 31.22;
    QTest::newRow("Llama 2 13B: 368640 h, 400 W, 62.44 t") << 368640.0 << 400.0 << 62.44;
    QTest::newRow("Llama 2 70B: 1720320 h, 400 W, 291.42 t") << 1720320.0 << 400.0 << 291.42;
}

void TestRunCost::llama2ModelCard() {
    QFETCH(double, gpuHours);
    QFETCH(double, watts);
    QFETCH(double, tonnes);
    // The card gives no grid intensity; its 7B row implies 31.22 t / (184320 h × 0.4 kW) = 0.42345 kg/kWh,
    // the same for every row to the card's two decimals: the same method reproduces each published figure.
    RunCostInput in;
    in.gridKgCo2PerKwh = 31.22e3 / (184320 * 0.4);
    const RunCost c = runCostFromGpuHours(gpuHours, watts, in);
    QVERIFY(c.emissionsKg);
    QVERIFY2(std::abs(c.emissionsKg->value / 1000 - tonnes) < 0.05,
             qPrintable(QString::number(c.emissionsKg->value)));
    QCOMPARE(c.energyJoules->value, gpuHours * 3600 * watts); // 184320 GPU-h × 400 W = 73.728 MWh
    QVERIFY(!c.gridIsDefault);
}

void TestRunCost::lectureRun() {
    // 6·70e9·15e12 = 6.3e24 FLOPs at 1024 × 989.4e12 FLOP/s × 0.5: 1.2437e7 s ≈ 144 days (DESIGN.md).
    const GpuSpec& h100 = *GpuCatalog::builtIn().find("H100-SXM");
    const double seconds = 6.3e24 / (1024 * 989.4e12 * 0.5);
    RunCostInput in;
    in.pricePerGpuHour = 2.0; // the user's price: $2 per GPU-hour
    const RunCost c = runCost(1024, seconds, h100, in);
    QCOMPARE(c.gpuHours.value, 1024 * seconds / 3600); // ≈ 3.54 million GPU-hours
    QVERIFY(std::abs(c.gpuHours.value - 3.5375e6) < 100);
    QCOMPARE(c.dollars->value, 2.0 * c.gpuHours.value);             // ≈ $7.08 million
    QCOMPARE(c.energyJoules->value, c.gpuHours.value * 3600 * 700); // TDP 700 W: ≈ 2,476 MWh
    QVERIFY(std::abs(c.energyJoules->value / 3.6e9 - 2476.3) < 0.1);
    QCOMPARE(c.emissionsKg->value, c.energyJoules->value / 3.6e6 * kDefaultGridKgCo2PerKwh); // ≈ 959 t
    QVERIFY(std::abs(c.emissionsKg->value / 1000 - 959.2) < 0.1);
    QVERIFY(QString::fromStdString(c.gpuHours.formula).contains("1024 GPUs"));
}

void TestRunCost::moneyNeedsAPrice() {
    const RunCost c = runCostFromGpuHours(1000, 700.0, RunCostInput{});
    QVERIFY(!c.dollars); // no price: no money answer, never a made-up default
    QVERIFY(c.energyJoules);
}

void TestRunCost::partWithoutTdpAnswersNoEnergy() {
    const GpuSpec& h200 = *GpuCatalog::builtIn().find("H200"); // no sourced TDP
    const RunCost c = runCost(8, 3600, h200, RunCostInput{});
    QCOMPARE(c.gpuHours.value, 8.0);
    QVERIFY(!c.energyJoules);
    QVERIFY(!c.emissionsKg);
    QVERIFY(c.missing.find("TDP") != std::string::npos);
}

void TestRunCost::defaultIntensityIsMarked() {
    QVERIFY(std::abs(kDefaultGridKgCo2PerKwh - 0.38737) < 1e-5); // 854 lb/MWh
    RunCostInput in;
    in.powerFraction = 0.5;
    in.pue = 1.2;
    const RunCost c = runCostFromGpuHours(1, 700.0, in);
    QCOMPARE(c.powerWatts->value, 700 * 0.5 * 1.2);
    QVERIFY(c.gridIsDefault);
    QVERIFY(QString::fromStdString(c.emissionsKg->formula).contains("default"));
}

void TestRunCost::dollarsPerMillionTokens() {
    RunCostInput in;
    QVERIFY(!napkin::dollarsPerMillionTokens(1000, 1, in));
    in.pricePerGpuHour = 3.6;
    // $3.6/h on 1 GPU at 1000 tokens/s: 3.6e6 tokens an hour → $1 per million tokens.
    QCOMPARE(napkin::dollarsPerMillionTokens(1000, 1, in)->value, 1.0);
    QCOMPARE(napkin::dollarsPerMillionTokens(1000, 8, in)->value, 8.0);
}

void TestRunCost::badInputIsRefused_data() {
    QTest::addColumn<double>("price");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<double>("pue");
    QTest::addColumn<double>("grid");
    QTest::addColumn<QString>("field");
    QTest::newRow("negative price") << -1.0 << 1.0 << 1.0 << 0.4 << "price-per-gpu-hour";
    QTest::newRow("fraction 0") << 2.0 << 0.0 << 1.0 << 0.4 << "power-fraction";
    QTest::newRow("fraction above 1") << 2.0 << 1.5 << 1.0 << 0.4 << "power-fraction";
    QTest::newRow("PUE below 1") << 2.0 << 1.0 << 0.9 << 0.4 << "pue";
    QTest::newRow("PUE nan") << 2.0 << 1.0 << std::nan("") << 0.4 << "pue";
    QTest::newRow("intensity 10") << 2.0 << 1.0 << 1.1 << 10.0 << "grid-intensity";
    QTest::newRow("all fine") << 2.0 << 0.8 << 1.1 << 0.4 << "";
}

void TestRunCost::badInputIsRefused() {
    QFETCH(double, price);
    QFETCH(double, fraction);
    QFETCH(double, pue);
    QFETCH(double, grid);
    QFETCH(QString, field);
    RunCostInput in;
    in.pricePerGpuHour = price;
    in.powerFraction = fraction;
    in.pue = pue;
    in.gridKgCo2PerKwh = grid;
    QCOMPARE(QString::fromStdString(validateRunCost(in).first), field);
}

void TestRunCost::valuesOnlyBuildsNoText() {
    const ValuesOnly valuesOnly;
    RunCostInput in;
    in.pricePerGpuHour = 1;
    const RunCost c = runCostFromGpuHours(10, 300.0, in);
    QVERIFY(c.dollars->formula.empty() && c.energyJoules->formula.empty());
    QCOMPARE(c.dollars->value, 10.0);
}

QTEST_APPLESS_MAIN(TestRunCost)
#include "tst_run_cost.moc"

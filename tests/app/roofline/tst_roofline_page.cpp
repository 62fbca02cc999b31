// SPDX-License-Identifier: GPL-3.0-or-later
// The Roofline page: the datasheet roof and its ridge, measured GEMMs placed at their intensity and one
// above its roof flagged, the inference points on the roof, the scenario both ways and bad values refused
// with a message. With NAPKIN_SCREENSHOT_DIR set, it also writes the page, with a real tiny CPU sweep, as
// PNGs there (for eyes, not asserts).
#include "app/export/save_file.h"
#include "app/roofline/roofline_page.h"
#include "app/roofline/roofline_points.h"
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/hardware/gpu_catalog.h"
#include "widgets/charts/roofline_chart.h"
#include "widgets/controls/explain_pane.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace napkin;

namespace {

MatmulResult result(long n, BenchDtype dtype, double flopsPerSecond) {
    MatmulResult r;
    r.shape = {n, n, n, dtype};
    r.ok = true;
    r.flops = 2.0 * n * n * n;
    r.flopsPerSecond = flopsPerSecond;
    return r;
}

// A sweep as an H100 SXM would report it (the driver's name for the SXM5 part).
MatmulSweep h100Sweep(std::vector<MatmulResult> results) {
    MatmulSweep s;
    s.device.backend = "cuda";
    s.device.name = "NVIDIA H100 80GB HBM3";
    s.results = std::move(results);
    return s;
}

bool near(double a, double b) {
    return std::fabs(a - b) <= 1e-12 * std::max(std::fabs(a), std::fabs(b));
}

} // namespace

class TestRooflinePage : public QObject {
    Q_OBJECT
private slots:
    void roofAndRidgeOfH100Bf16();
    void pointAboveTheRoofIsFlagged();
    void fp8PointsCountTheirBf16Output();
    void pointsOfAnotherDeviceAreGrey();
    void thisCpuIsNotMeasuredUntilMeasured();
    void measureRunsOffTheGuiThread();
    void inferencePointsSitOnTheRoof();
    void theInferenceTabsResultIsDrawn();
    void hoverShowsTheNumbers();
    void scenarioRoundTrip();
    void badScenarioValuesGiveAMessage();
    void screenshot();
    void howIsThisComputed();
};

// "How is this computed?" on Roofline: the roof's numbers and sources, the ridge, the GEMM intensity
// formula, and the default inference setting's decode point with the engine's formula.
void TestRooflinePage::howIsThisComputed() {
    RooflinePage page;
    QVERIFY(page.explainPane());
    const QString text = page.explainPane()->html();
    QVERIFY2(text.contains(QStringLiteral("295.3 FLOP/B")), qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("datasheet")));
    QVERIFY(text.contains(QStringLiteral("2·m·n·k")));
    QVERIFY(text.contains(QStringLiteral("decode intensity")));
    QVERIFY(text.contains(QStringLiteral("memory-bound")));
}

// H100 SXM bf16: 989.4 TFLOP/s dense (H100 whitepaper), 3.35 TB/s (datasheet): ridge 295.3 FLOPs/byte.
void TestRooflinePage::roofAndRidgeOfH100Bf16() {
    RooflinePage page;
    QCOMPARE(page.scenario().device, std::string("H100-SXM"));
    QCOMPARE(page.scenario().dtype, ComputeType::bf16);
    QVERIFY(page.roof());
    QCOMPARE(page.roof()->peakFlopsPerSecond, 989.4e12);
    QCOMPARE(page.roof()->bandwidthBytesPerSecond, 3.35e12);
    QCOMPARE(page.roof()->ridgeFlopsPerByte(), 989.4e12 / 3.35e12);
    const RooflineChartData& data = page.chart()->data();
    QVERIFY(data.roof);
    QCOMPARE(data.roof->ridgeFlopsPerByte(), 989.4e12 / 3.35e12);
    QCOMPARE(page.chart()->ridgeLabel(), QStringLiteral("ridge 295.3 FLOP/B"));
    QVERIFY2(page.roofNote().contains(QStringLiteral("datasheet")), qPrintable(page.roofNote()));
    QVERIFY2(page.roofNote().contains(QStringLiteral("295.3")), qPrintable(page.roofNote()));
}

// n = 1024 bf16 at 700 TFLOP/s is under the roof (intensity 2·1024/(3·2) = 341.3 > ridge: 989.4 T);
// n = 256 bf16 at 500 TFLOP/s is not: intensity 85.33, roof 85.33 × 3.35e12 = 285.9 TFLOP/s.
// cuBLASLt's fp8 GEMM writes C in bf16: n = 1024 moves 2·n²·1 + n²·2 bytes, intensity 2n³ / 4n² = 512
// (bench matmul's arithmetic_intensity), not 2n / 3 = 682.7 as if C were fp8.
void TestRooflinePage::fp8PointsCountTheirBf16Output() {
    RooflinePage page;
    page.addMeasuredSweep(h100Sweep({result(1024, BenchDtype::fp8e4m3, 1000e12)}));
    const auto& points = page.chart()->data().points;
    const auto it = std::find_if(points.begin(), points.end(),
                                 [](const auto& p) { return p.label == QStringLiteral("n=1024 fp8-e4m3"); });
    QVERIFY(it != points.end());
    QCOMPARE(it->flopsPerByte, 512.0);
    QVERIFY2(it->tooltip.contains(QStringLiteral("((m·k + k·n) · 1 B + m·n · 2 B)")),
             qPrintable(it->tooltip));
}

void TestRooflinePage::pointAboveTheRoofIsFlagged() {
    RooflinePage page;
    page.addMeasuredSweep(
        h100Sweep({result(1024, BenchDtype::bf16, 700e12), result(256, BenchDtype::bf16, 500e12)}));
    std::vector<RooflineChartData::Point> measured;
    for (const auto& p : page.chart()->data().points)
        if (p.style != RooflineChartData::Style::analytic)
            measured.push_back(p);
    QCOMPARE(measured.size(), std::size_t{2});
    QCOMPARE(measured[0].label, QStringLiteral("n=1024 bf16"));
    QCOMPARE(measured[0].flopsPerByte, gemmArithmeticIntensity(1024, 1024, 1024, 2));
    QVERIFY(near(measured[0].flopsPerByte, 2.0 * 1024 / (3 * 2)));
    QCOMPARE(measured[0].flopsPerSecond, 700e12);
    QCOMPARE(measured[0].style, RooflineChartData::Style::measured);
    QCOMPARE(measured[1].label, QStringLiteral("n=256 bf16"));
    QVERIFY(near(measured[1].flopsPerByte, 2.0 * 256 / (3 * 2)));
    QCOMPARE(measured[1].style, RooflineChartData::Style::aboveRoof);
    const QString message = page.aboveRoofMessage();
    QVERIFY2(message.startsWith(QStringLiteral("above the roof: a measurement or unit error")),
             qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("n=256 bf16")), qPrintable(message));
    QVERIFY(!message.contains(QStringLiteral("n=1024")));
    QVERIFY(measured[1].tooltip.contains(QStringLiteral("ABOVE THE ROOF")));
    page.clearMeasuredPoints();
    QVERIFY(page.aboveRoofMessage().isEmpty());
}

// A bf16 point on the H100 checked against its own (bf16) roof while the fp32 roof is drawn: grey, and
// still flagged when above its own; a CPU sweep on the H100's roof: grey, its roof "not measured".
void TestRooflinePage::pointsOfAnotherDeviceAreGrey() {
    RooflinePage page;
    page.applyScenario({"H100-SXM", ComputeType::fp32});
    page.addMeasuredSweep(h100Sweep({result(1024, BenchDtype::bf16, 700e12)}));
    MatmulSweep cpu;
    cpu.device.backend = "cpu";
    cpu.device.name = "Test CPU";
    cpu.results = {result(256, BenchDtype::fp32, 50e9)};
    page.addMeasuredSweep(cpu);
    int grey = 0;
    for (const auto& p : page.chart()->data().points)
        if (p.style == RooflineChartData::Style::otherRoof) {
            ++grey;
            if (p.label == QStringLiteral("n=256 fp32"))
                QVERIFY2(p.tooltip.contains(QStringLiteral("this CPU's fp32 roof is not measured")),
                         qPrintable(p.tooltip));
            else
                QVERIFY2(p.tooltip.contains(QStringLiteral("of its roof (H100-SXM bf16")),
                         qPrintable(p.tooltip));
        }
    QCOMPARE(grey, 2);
    QVERIFY(page.aboveRoofMessage().isEmpty()); // 700 T: above the fp32 roof drawn, under its own bf16 one
}

// "this CPU": no figure until measured; a roof handed in (as a measurement would) is drawn and its points
// are checked against it.
void TestRooflinePage::thisCpuIsNotMeasuredUntilMeasured() {
    RooflinePage page;
    QVERIFY(page.applyScenario({"cpu", ComputeType::fp32}).isEmpty());
    QVERIFY(!page.roof());
    QVERIFY(!page.chart()->data().roof);
    QCOMPARE(page.chart()->data().note, QStringLiteral("this CPU: not measured"));
    QVERIFY2(page.roofNote().contains(QStringLiteral("not measured")), qPrintable(page.roofNote()));
    auto* measure = page.findChild<QPushButton*>(QStringLiteral("measure"));
    QVERIFY(measure && !measure->isHidden());
    Roofline roof; // a test fixture, not a figure of any CPU
    roof.device = "Test CPU";
    roof.dtype = "fp32";
    roof.peakFlopsPerSecond = 1e12;
    roof.bandwidthBytesPerSecond = 20e9;
    page.setMeasuredCpuRoof(ComputeType::fp32, roof);
    QVERIFY(page.roof());
    QCOMPARE(page.roof()->ridgeFlopsPerByte(), 50.0);
    MatmulSweep cpu;
    cpu.device.backend = "cpu";
    cpu.device.name = "Test CPU";
    // n = 64 fp32: intensity 2·64/(3·4) = 10.67, roof 213 GFLOP/s; 300 GFLOP/s is above it.
    cpu.results = {result(64, BenchDtype::fp32, 300e9), result(1024, BenchDtype::fp32, 400e9)};
    page.addMeasuredSweep(cpu);
    QVERIFY(page.aboveRoofMessage().contains(QStringLiteral("n=64 fp32")));
    QVERIFY(!page.aboveRoofMessage().contains(QStringLiteral("n=1024 fp32")));
}

// Measure runs the engine's CPU roofline on the page's worker (small arrays here, to stay quick: that
// bandwidth is the cache's) and draws what it measured, with its sources; fp8 is refused with the
// engine's reason and the roof stays "not measured".
void TestRooflinePage::measureRunsOffTheGuiThread() {
    RooflinePage page;
    page.setMeasurementBytesPerArray(1 << 20);
    page.applyScenario({"cpu", ComputeType::fp32});
    auto* measure = page.findChild<QPushButton*>(QStringLiteral("measure"));
    QVERIFY(measure->isEnabled());
    QTest::mouseClick(measure, Qt::LeftButton);
    QVERIFY(!measure->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(page.roof().has_value(), 20000);
    QVERIFY(page.roof()->peakFlopsPerSecond > 0);
    QVERIFY(page.roof()->bandwidthBytesPerSecond > 0);
    QVERIFY(page.roof()->peakSource.starts_with("measured on this CPU"));
    QVERIFY(page.roof()->bandwidthSource.starts_with("measured on this CPU"));
    QVERIFY2(page.roofNote().contains(QStringLiteral("measured on this CPU")), qPrintable(page.roofNote()));
    QCOMPARE(measure->text(), QStringLiteral("Measure again"));
    page.applyScenario({"cpu", ComputeType::fp8});
    QTest::mouseClick(measure, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(measure->isEnabled(), 20000);
    QVERIFY(!page.roof());
    QVERIFY2(page.roofNote().startsWith(QStringLiteral("This CPU: not measured: ")),
             qPrintable(page.roofNote()));
}

// The decode and prefill points are roofline lower bounds of the same roof: each sits on it.
void TestRooflinePage::inferencePointsSitOnTheRoof() {
    RooflinePage page;
    const InferenceInput in = defaultRooflineInference();
    const InferenceResult r = accountInference(in, *GpuCatalog::builtIn().find("H100-SXM"));
    std::vector<RooflineChartData::Point> analytic;
    for (const auto& p : page.chart()->data().points)
        if (p.style == RooflineChartData::Style::analytic)
            analytic.push_back(p);
    QCOMPARE(analytic.size(), std::size_t{2});
    const auto& decode = analytic[0];
    QCOMPARE(decode.flopsPerByte, r.arithmeticIntensity.value);
    QCOMPARE(decode.flopsPerSecond, r.decodeStepFlops.value / r.decodeSecondsPerToken.value);
    QCOMPARE(decode.flopsPerSecond, r.decodeFlopsPerSecondPerGpu.value);
    QVERIFY(near(decode.flopsPerSecond, page.roof()->attainableFlopsPerSecond(decode.flopsPerByte)));
    QVERIFY(decode.flopsPerByte < page.roof()->ridgeFlopsPerByte()); // batch 1: memory-bound
    const auto& prefill = analytic[1];
    QCOMPARE(prefill.flopsPerByte, r.prefillFlops.value / r.prefillBytes.value);
    QCOMPARE(prefill.flopsPerSecond, r.prefillFlops.value / r.prefillSeconds.value);
    QVERIFY(near(prefill.flopsPerSecond, page.roof()->attainableFlopsPerSecond(prefill.flopsPerByte)));
    QVERIFY(prefill.flopsPerByte > page.roof()->ridgeFlopsPerByte()); // 8192 tokens: compute-bound
    auto* note = page.findChild<QLabel*>(QStringLiteral("inferenceNote"));
    QVERIFY2(note->text().contains(QStringLiteral("Llama 3 8B on H100-SXM")), qPrintable(note->text()));
}

// The Inference tab hands over its setting and its result; the page draws the result's points as they are.
void TestRooflinePage::theInferenceTabsResultIsDrawn() {
    RooflinePage page;
    InferenceInput batch64 = defaultRooflineInference();
    batch64.batch = 64;
    InferenceResult r = accountInference(batch64, *GpuCatalog::builtIn().find("H100-SXM"));
    r.decodeFlopsPerSecondPerGpu.value = 1.25e14; // a marker: drawn as given, not accounted again
    page.setInferenceSetting(batch64, r);
    auto* note = page.findChild<QLabel*>(QStringLiteral("inferenceNote"));
    QVERIFY2(note->text().contains(QStringLiteral("Inference tab")), qPrintable(note->text()));
    std::vector<RooflineChartData::Point> analytic;
    for (const auto& p : page.chart()->data().points)
        if (p.style == RooflineChartData::Style::analytic)
            analytic.push_back(p);
    QCOMPARE(analytic.size(), std::size_t{2});
    QCOMPARE(analytic[0].flopsPerSecond, 1.25e14);
    QCOMPARE(analytic[0].flopsPerByte, r.arithmeticIntensity.value);
    QVERIFY(analytic[0].label.contains(QStringLiteral("B=64")));
    QCOMPARE(analytic[1].flopsPerByte, r.prefillArithmeticIntensity.value);
    QCOMPARE(analytic[1].flopsPerSecond, r.prefillFlopsPerSecondPerGpu.value);
}

void TestRooflinePage::hoverShowsTheNumbers() {
    RooflinePage page;
    page.addMeasuredSweep(h100Sweep({result(1024, BenchDtype::bf16, 700e12)}));
    page.resize(1200, 800);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    page.chart()->replotNow();
    const auto& points = page.chart()->data().points;
    const auto it = std::find_if(points.begin(), points.end(),
                                 [](const auto& p) { return p.label == QStringLiteral("n=1024 bf16"); });
    QVERIFY(it != points.end());
    // Find the point's pixel by scanning: the chart's axes are private to it.
    int found = -1;
    for (int x = 0; x < page.chart()->width() && found < 0; x += 4)
        for (int y = 0; y < page.chart()->height() && found < 0; y += 4) {
            const int hit = page.chart()->pointAt(QPointF(x, y), 3);
            if (hit >= 0 && points[static_cast<std::size_t>(hit)].label == it->label)
                found = hit;
        }
    QVERIFY(found >= 0);
    const QString tip = points[static_cast<std::size_t>(found)].tooltip;
    QVERIFY2(tip.contains(QStringLiteral("341.3 FLOPs/byte")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("70.7% of its roof")), qPrintable(tip)); // 700 / 989.4
    QVERIFY2(tip.contains(QStringLiteral("NVIDIA H100 80GB HBM3")), qPrintable(tip));
}

void TestRooflinePage::scenarioRoundTrip() {
    RooflinePage page;
    const RooflineScenario want{"A100-SXM", ComputeType::fp32};
    QVERIFY(page.applyScenario(want).isEmpty());
    QCOMPARE(page.scenario(), want);
    QCOMPARE(page.roof()->device, std::string("A100-SXM"));
    RooflinePage other;
    QVERIFY(other.applyScenario(page.scenario()).isEmpty());
    QCOMPARE(other.scenario(), want);
    const RooflineScenario cpu{"cpu", ComputeType::bf16};
    QVERIFY(other.applyScenario(cpu).isEmpty());
    QCOMPARE(other.scenario(), cpu);
}

// An unknown device is a warning and the page keeps its own; a type the GPU has no peak in draws no roof
// and says why.
void TestRooflinePage::badScenarioValuesGiveAMessage() {
    RooflinePage page;
    const QStringList warnings = page.applyScenario({"H900", ComputeType::bf16});
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings[0].contains(QStringLiteral("roofline.device: 'H900'")), qPrintable(warnings[0]));
    QCOMPARE(page.scenario().device, std::string("H100-SXM"));
    QVERIFY(page.applyScenario({"A100-SXM", ComputeType::fp8}).isEmpty());
    QVERIFY(!page.roof());
    QVERIFY2(page.roofNote().contains(QStringLiteral("A100-SXM has no dense fp8 peak in the catalog")),
             qPrintable(page.roofNote()));
    page.addMeasuredSweep(h100Sweep({result(1024, BenchDtype::bf16, 700e12)})); // no crash without a roof
    QVERIFY(page.chart()->data().note.contains(QStringLiteral("no roof")));
}

void TestRooflinePage::screenshot() {
    const QByteArray dir = qgetenv("NAPKIN_SCREENSHOT_DIR");
    if (dir.isEmpty())
        QSKIP("set NAPKIN_SCREENSHOT_DIR to write the page as PNGs");
    BackendOptions options;
    options.cpuMeasurePeak = false;
    const auto cpu = makeBackend("cpu", options); // oneDNN where the build has it, as the Benchmarks page
    QVERIFY(cpu);
    std::vector<MatmulCase> cases;
    for (long n : {64L, 128L, 256L, 512L})
        for (BenchDtype d : {BenchDtype::fp32, BenchDtype::bf16})
            cases.push_back({n, n, n, d});
    const MatmulSweep sweep = runMatmulSweep(*cpu, cases);
    RooflinePage page;
    page.addMeasuredSweep(sweep);
    const QString base = QString::fromLocal8Bit(dir);
    QCOMPARE(savePage(page, base + QStringLiteral("/roofline-h100.png"), QSize(1400, 900)), QString());
    page.applyScenario({"cpu", ComputeType::fp32});
    QCOMPARE(savePage(page, base + QStringLiteral("/roofline-cpu-unmeasured.png"), QSize(1400, 900)),
             QString());
    // This CPU's roof as a user gets it: Measure with the engine's default arrays (about 10 s here).
    QTest::mouseClick(page.findChild<QPushButton*>(QStringLiteral("measure")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(page.roof().has_value(), 120000);
    QCOMPARE(savePage(page, base + QStringLiteral("/roofline-cpu.png"), QSize(1400, 900)), QString());
}

QTEST_MAIN(TestRooflinePage)
#include "tst_roofline_page.moc"

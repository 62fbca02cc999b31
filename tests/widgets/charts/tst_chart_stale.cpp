// SPDX-License-Identifier: GPL-3.0-or-later
// What a chart says when it no longer shows the controls' setup (an invalid input keeps the last valid
// result on the page): a veil over the whole chart, greyed, with the reason, lifted when the input is
// valid again. And the memory timeline's peak label tells the engine's story for a step whose order is not
// modelled: the peak is the sum, not "at backward".
// With NAPKIN_TEST_SNAPSHOTS set, it also writes the veiled chart there as a PNG (for eyes, not asserts).
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"

#include <QLabel>
#include <QtTest>

#include <algorithm>
#include <cmath>

namespace {

// How much the picture's lightness varies (its standard deviation over a grid of pixels): bars, axes and
// text on paper vary a lot; the same under a veil of the window's colour, much less (greyed).
double lightnessSpread(const QImage& image) {
    double sum = 0, squares = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 4)
        for (int x = 0; x < image.width(); x += 4) {
            const double l = image.pixelColor(x, y).lightnessF();
            sum += l;
            squares += l * l;
            ++n;
        }
    const double mean = sum / n;
    return std::sqrt(std::max(0.0, squares / n - mean * mean));
}

// A dense step drawn as its phases: start (weights and optimizer state), forward, backward (the gradients
// join), the optimizer step and zero_grad; its peak is the sum, 16 GB for 1e9 fp32 AdamW parameters.
MemoryTimelineChartData phasesOnly(bool eventByEvent) {
    MemoryTimelineChartData d;
    d.events = {QStringLiteral("start"), QStringLiteral("forward"), QStringLiteral("backward"),
                QStringLiteral("optimizer step"), QStringLiteral("zero_grad")};
    d.phases = {QStringLiteral("start"), QStringLiteral("forward"), QStringLiteral("backward"),
                QStringLiteral("optimizer"), QStringLiteral("zero_grad")};
    const std::array<double, 6> states{4e9, 0, 0, 8e9, 0, 0}, withGradients{4e9, 4e9, 0, 8e9, 0, 0};
    d.bytes = {states, states, withGradients, withGradients, states};
    d.capacityBytes = 80e9;
    d.sum = {4e9, 4e9, 0, 8e9, 0};
    d.eventByEvent = eventByEvent;
    return d;
}

} // namespace

class TestChartStale : public QObject {
    Q_OBJECT
private slots:
    void veilSaysWhyAndLifts();
    void peakOfAnUnorderedStepIsTheSum();
};

void TestChartStale::veilSaysWhyAndLifts() {
    MemoryChart chart;
    MemoryChartData d;
    d.segments[0] = {QStringLiteral("parameters"), 4e9, QStringLiteral("P × 4 B")};
    d.capacityBytes = 16e9;
    d.gpuLabel = QStringLiteral("one of 1024 × T4");
    chart.setData(d);
    chart.resize(480, 320);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replotNow();
    QVERIFY(chart.staleReason().isEmpty());
    const QImage current = chart.grab().toImage();

    chart.setStale(QStringLiteral("heads: must divide d-model (768), got 7"));
    QCOMPARE(chart.staleReason(),
             QStringLiteral("Not the current setup — heads: must divide d-model (768), got 7"));
    auto* veil = chart.findChild<QLabel*>(QStringLiteral("staleVeil"));
    QVERIFY(veil && veil->isVisible());
    QCOMPARE(veil->geometry(), chart.rect());
    chart.resize(600, 400); // the veil follows the chart
    QCOMPARE(veil->geometry(), chart.rect());
    chart.resize(480, 320);
    const QImage veiled = chart.grab().toImage();
    if (const QByteArray dir = qgetenv("NAPKIN_TEST_SNAPSHOTS"); !dir.isEmpty()) {
        current.save(QString::fromLocal8Bit(dir) + QStringLiteral("/memory_chart_current.png"));
        veiled.save(QString::fromLocal8Bit(dir) + QStringLiteral("/memory_chart_stale.png"));
    }
    // Greyed: the veil flattens the bars, axes and text it covers (the reason's own text adds some back).
    const double before = lightnessSpread(current), after = lightnessSpread(veiled);
    QVERIFY2(after < 0.75 * before,
             qPrintable(QStringLiteral("spread %1 veiled, %2 current").arg(after).arg(before)));

    chart.setStale({});
    QVERIFY(chart.staleReason().isEmpty());
    QVERIFY(!veil->isVisible());
}

void TestChartStale::peakOfAnUnorderedStepIsTheSum() {
    MemoryTimelineChart chart;
    chart.setData(phasesOnly(false));
    QCOMPARE(chart.peakText(), QStringLiteral("peak = the sum, 16 GB"));
    // Where the order is modelled, the peak is an event's.
    chart.setData(phasesOnly(true));
    QCOMPARE(chart.peakText(), QStringLiteral("peak 16 GB at backward"));
}

QTEST_MAIN(TestChartStale)
#include "tst_chart_stale.moc"

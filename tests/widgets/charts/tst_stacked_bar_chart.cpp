// The training bar and the serving bar are one StackedBarChart: the same segment under the pointer, the
// same tooltip (name, size, exact bytes, formula), a zero segment left out of the legend, for both.
#include "widgets/charts/inference_memory_chart.h"
#include "widgets/charts/memory_chart.h"

#include <QtTest>

class TestStackedBarChart : public QObject {
    Q_OBJECT
private slots:
    void servingBar();
    void trainingBar();
};

// Llama 3 8B on one H100 at 8192 tokens (tests/engine/accounting/tst_inference_accounting.cpp): weights
// 16,060,522,496 B, a 1 GiB cache; activations left at 0 to see the legend drop them.
void TestStackedBarChart::servingBar() {
    InferenceMemoryChart chart;
    InferenceMemoryChartData d;
    d.segments[0] = {QStringLiteral("weights"), 16060522496.0, QStringLiteral("Q·2 + R·2")};
    d.segments[1] = {QStringLiteral("KV cache"), 1073741824.0, QStringLiteral("B·S·kv_per_token")};
    d.segments[2] = {QStringLiteral("activations"), 0, {}};
    d.capacityBytes = 80e9;
    chart.setData(d);
    QCOMPARE(chart.segmentAt(1e9), 0);
    QCOMPARE(chart.segmentAt(16.5e9), 1);
    QCOMPARE(chart.segmentAt(17.2e9), -1); // above the bar (16,060,522,496 + 1,073,741,824)
    QCOMPARE(chart.tooltipFor(1), QStringLiteral("KV cache: 1.074 GB (1073741824 B)\nB·S·kv_per_token"));
    chart.replotNow();
    QCOMPARE(chart.layoutGeometry().legend.isEmpty(), false);
    QCOMPARE(chart.legendNames(), QStringList({QStringLiteral("weights"), QStringLiteral("KV cache")}));
}

// The lecture's Cruncher in fp32 with AdamW: 144 B parameters, 144 gradients, 288 optimizer state and
// 64 activations; no master weights, which the legend leaves out.
void TestStackedBarChart::trainingBar() {
    MemoryChart chart;
    MemoryChartData d;
    d.segments[0].bytes = 144;
    d.segments[1].bytes = 144;
    d.segments[3].bytes = 288;
    d.segments[4] = {QStringLiteral("activations"), 64, QStringLiteral("B·d·L·4")};
    d.capacityBytes = 80e9;
    chart.setData(d);
    QCOMPARE(chart.segmentAt(300), 3);
    QCOMPARE(chart.segmentAt(600), 4);
    QCOMPARE(chart.segmentAt(700), -1);
    QCOMPARE(chart.tooltipFor(4), QStringLiteral("activations: 64 B (64 B)\nB·d·L·4"));
    chart.setByteUnits(napkin::ByteUnits::binary);
    QCOMPARE(chart.byteUnits(), napkin::ByteUnits::binary);
    chart.replotNow();
    QCOMPARE(chart.legendNames(), QStringList({QStringLiteral("parameters"), QStringLiteral("gradients"),
                                               QStringLiteral("optimizer state"), QStringLiteral("activations")}));
}

QTEST_MAIN(TestStackedBarChart)
#include "tst_stacked_bar_chart.moc"

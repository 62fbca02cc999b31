// One slider tick's work, counted rather than timed (the tick's 8 ms budget is measured by
// app/tools/bench_accounting_page; docs/benchmarks.md): a tick accounts the setup once, with formulas, and
// replots only the charts whose data it changed. Dragging the training tokens changes the training time and
// no chart, so it replots none; dragging a dense model's parameters changes all three.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "engine/numerics/work_counts.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/log_slider_field.h"

#include <QSlider>
#include <QtTest>

#include <vector>

class TestAccountingTick : public QObject {
    Q_OBJECT
private slots:
    void tickWork_data();
    void tickWork();
};

void TestAccountingTick::tickWork_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("chartsChange");
    QTest::addColumn<int>("maxProbes"); // today: 0, 3 and 5 (tst_accounting_work's budgets)
    QTest::newRow("70b-15t-1024-h100 (parameters)") << "70b-15t-1024-h100" << true << 1;
    QTest::newRow("gpt3-175b (tokens)") << "gpt3-175b" << false << 4;
    QTest::newRow("llama3-70b (tokens)") << "llama3-70b" << false << 6;
}

void TestAccountingTick::tickWork() {
    QFETCH(QString, preset);
    QFETCH(bool, chartsChange);
    QFETCH(int, maxProbes);
    AccountingPage page;
    page.resize(1600, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    const Preset* p = findPreset(preset);
    QVERIFY(p);
    page.applyPreset(*p);
    const bool dense = p->input.model.kind == napkin::ModelKind::dense;
    QSlider* slider = (dense ? page.controls()->parametersField() : page.controls()->tokensField())->slider();
    const std::vector<ChartView*> charts{page.memoryChart(), page.flopChart(), page.timelineChart()};
    int replots = 0;
    for (ChartView* chart : charts)
        connect(chart, &ChartView::replotted, this, [&] { ++replots; });
    const auto settle = [&] {
        QTRY_VERIFY(std::none_of(charts.begin(), charts.end(),
                                 [](const ChartView* c) { return c->replotPending(); }));
    };
    settle();
    for (const int position : {300, 420}) {
        replots = 0;
        const napkin::WorkCounter counter;
        slider->setValue(position);
        for (const ChartView* chart : charts)
            QCOMPARE(chart->replotPending(), chartsChange);
        settle();
        const napkin::WorkCounts w = counter.counted();
        QCOMPARE(w.peakEvaluations, 1); // one account() per tick, its searches probing without formulas
        QVERIFY2(w.fastPeaks <= maxProbes, qPrintable(QString::number(w.fastPeaks)));
        // account()'s timelines, and the one the chart draws.
        QCOMPARE(w.timelineBuilds, w.peakEvaluations + w.fastPeaks + 1);
        // The charts' settings line names the nearest zoo model: the zoo's configs are read once per
        // process, not on every tick (twenty JSON parses once cost more than the accounting).
        QCOMPARE(w.configsParsed, 0);
        QCOMPARE(replots, chartsChange ? 3 : 0);
    }
}

QTEST_MAIN(TestAccountingTick)
#include "tst_accounting_tick.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// One slider tick's work, counted rather than timed (the tick's 8 ms budget is measured by
// app/tools/bench_accounting_page; docs/benchmarks.md): a tick accounts the setup once, with formulas, and
// replots only the charts whose data it changed. Dragging the training tokens changes the training time and
// no chart, so it replots none; dragging a dense model's parameters changes all three.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/accounting/reserved_line.h"
#include "engine/numerics/work_counts.h"
#include "widgets/charts/flop_chart.h"
#include "widgets/charts/memory_chart.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/explain_pane.h"
#include "widgets/controls/log_slider_field.h"
#include "widgets/controls/number_field.h"

#include <QSlider>
#include <QtTest>

#include <algorithm>
#include <vector>

class TestAccountingTick : public QObject {
    Q_OBJECT
private slots:
    void tickWork_data();
    void tickWork();
    void batchEditsReplotEachChartOnce_data();
    void batchEditsReplotEachChartOnce();
};

namespace {

// The page as a user sees it (1600×900, `preset` applied), counting its three charts' replots.
class ShownPage {
public:
    explicit ShownPage(const QString& preset)
        : preset_(findPreset(preset)) {
        page.resize(1600, 900);
        // The reserved line is simulated once the controls rest (100 ms, a replot of its own): held back
        // here, so that the tests count the ticks' own work and replots.
        page.reservedLine()->setDelay(3'600'000);
        page.show();
        exposed_ = QTest::qWaitForWindowExposed(&page);
        if (preset_)
            page.applyPreset(*preset_);
        for (ChartView* chart : charts())
            QObject::connect(chart, &ChartView::replotted, &page, [this] { ++replots; });
    }
    bool ready() const { return exposed_ && preset_; }
    const Preset& preset() const { return *preset_; }
    std::vector<ChartView*> charts() const {
        return {page.memoryChart(), page.flopChart(), page.timelineChart()};
    }
    /// No chart has a replot queued: the event loop ran the tick's replots.
    bool settled() const {
        const std::vector<ChartView*> all = charts();
        return std::none_of(all.begin(), all.end(), [](const ChartView* c) { return c->replotPending(); });
    }

    AccountingPage page;
    int replots = 0;

private:
    const Preset* preset_;
    bool exposed_ = false;
};

} // namespace

void TestAccountingTick::tickWork_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("chartsChange");
    QTest::addColumn<int>("maxProbes"); // today: 0, 3 and 5 (tst_accounting_work's budgets)
    QTest::addColumn<int>("replays");   // stepReserved() a tick: 1 where fits is judged on reserved
    QTest::newRow("70b-15t-1024-h100 (parameters)") << "70b-15t-1024-h100" << true << 1 << 0;
    QTest::newRow("gpt3-175b (tokens)") << "gpt3-175b" << false << 4 << 1;
    QTest::newRow("llama3-70b (tokens)") << "llama3-70b" << false << 6 << 0; // phases only
}

void TestAccountingTick::tickWork() {
    QFETCH(QString, preset);
    QFETCH(bool, chartsChange);
    QFETCH(int, maxProbes);
    QFETCH(int, replays);
    ShownPage shown(preset);
    QVERIFY(shown.ready());
    const bool dense = shown.preset().input.model.kind == napkin::ModelKind::dense;
    AccountingControls* controls = shown.page.controls();
    QSlider* slider = (dense ? controls->parametersField() : controls->tokensField())->slider();
    QTRY_VERIFY(shown.settled());
    ExplainPane* explain = shown.page.explainPane();
    QVERIFY(!explain->isExpanded());
    const int made = explain->madeCount();
    for (const int position : {300, 420}) {
        shown.replots = 0;
        const napkin::WorkCounter counter;
        slider->setValue(position);
        for (const ChartView* chart : shown.charts())
            QCOMPARE(chart->replotPending(), chartsChange);
        QTRY_VERIFY(shown.settled());
        const napkin::WorkCounts w = counter.counted();
        QCOMPARE(w.peakEvaluations, 1); // one account() per tick, its searches probing without formulas
        QVERIFY2(w.fastPeaks <= maxProbes, qPrintable(QString::number(w.fastPeaks)));
        // fits on reserved (engine/allocator/fit_verdict.h): one simulated step a tick, on the chart's own
        // timeline, where the verdict is judged on reserved; none where it is not (phases only). Its replay
        // builds the first step's timeline; the reserved line is simulated once the controls rest, not in a
        // tick (its delay is set beyond the test above).
        QCOMPARE(w.stepReplays, replays);
        QCOMPARE(shown.page.lastFitVerdict()->basis == napkin::FitBasis::reserved, replays == 1);
        QVERIFY2(w.allocatorEvents < 5000, qPrintable(QString::number(w.allocatorEvents)));
        // account()'s timelines, the one the chart draws, and the replay's first step
        QCOMPARE(w.timelineBuilds, w.peakEvaluations + w.fastPeaks + 1 + replays);
        // The charts' settings line names the nearest zoo model: the zoo's configs are read once per
        // process, not on every tick (twenty JSON parses once cost more than the accounting).
        QCOMPARE(w.configsParsed, 0);
        QCOMPARE(shown.replots, chartsChange ? 3 : 0);
        // How is this computed? closed: its derivation is not written on a tick (6 % of a gpt3-175b tick).
        QVERIFY(explain->sourcePending());
        QCOMPARE(explain->madeCount(), made);
    }
    // Opened, it is written once, for the setup the controls show now.
    explain->setExpanded(true);
    QCOMPARE(explain->madeCount(), made + 1);
    QVERIFY(!explain->plainText().isEmpty());
    explain->setExpanded(false);
    slider->setValue(360);
    QTRY_VERIFY(shown.settled());
    QCOMPARE(explain->madeCount(), made + 1);
}

// A batch typed into its field changes all three charts: each replots once. The memory chart's tick labels
// grow and shrink with the batch ("980 GB", "1.5 TB"), which moves its axes by a few pixels; refitting the
// ticks after every such move queued a fourth replot on about half the edits (bench_accounting_page's batch
// mode: 701 replots in 200 edits, p95 9.6 ms against 6.2).
void TestAccountingTick::batchEditsReplotEachChartOnce_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("deepseek-v3") << "deepseek-v3";
    QTest::newRow("gpt3-175b") << "gpt3-175b";
}

void TestAccountingTick::batchEditsReplotEachChartOnce() {
    QFETCH(QString, preset);
    ShownPage shown(preset);
    QVERIFY(shown.ready());
    QTRY_VERIFY(shown.settled());
    NumberField* batch = shown.page.controls()->batchField();
    const std::vector<double> batches{1, 2, 7, 16, 33, 64, 3, 48, 9, 27};
    shown.replots = 0;
    int edits = 0;
    for (const double b : batches) {
        if (b == shown.page.controls()->input().batch)
            continue; // the preset's own batch: nothing changes
        batch->setValue(b);
        emit batch->valueEdited(b);
        QTRY_VERIFY(shown.settled());
        ++edits;
    }
    QVERIFY(edits >= 9);
    QCOMPARE(shown.replots, 3 * edits);
}

QTEST_MAIN(TestAccountingTick)
#include "tst_accounting_tick.moc"

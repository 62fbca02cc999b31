// SPDX-License-Identifier: GPL-3.0-or-later
// The Benchmarks page while a run is still going, on the real CPU backend: each matmul case is a point of
// the chart and a row of the table as soon as it finishes, and the loss curve grows step by step. Before,
// the chart and table stayed empty until the sweep ended and the loss chart said "No training run yet."
// at step 44 of 5000 (issue 35). What is shown mid-run is a prefix of what the finished run delivers.
#include "app/benchmarks/benchmarks_page.h"
#include "app/benchmarks/matmul_sweep_panel.h"
#include "app/benchmarks/training_run_panel.h"
#include "widgets/charts/loss_chart.h"
#include "widgets/charts/throughput_chart.h"

#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include <algorithm>
#include <vector>

class TestLiveBenchmarks : public QObject {
    Q_OBJECT
private slots:
    void sweepShowsEachCaseAsItFinishes();
    void lossCurveGrowsEachStep();

private:
    static QPushButton* button(const QWidget& root, const QString& text) {
        for (auto* b : root.findChildren<QPushButton*>())
            if (b->text() == text)
                return b;
        return nullptr;
    }
    static QLabel* labelStartingWith(const QWidget& root, const QString& start) {
        for (auto* l : root.findChildren<QLabel*>())
            if (l->text().startsWith(start))
                return l;
        return nullptr;
    }
};

// fp32 16³ then two 2048³ cases (seconds each): while the first 2048³ runs, 16³ is already in the table and
// on the chart, and the basis line says the sweep is running. The whole sweep (sweep(), the exports) waits.
void TestLiveBenchmarks::sweepShowsEachCaseAsItFinishes() {
    BenchmarksPage page;
    for (auto* c : page.findChildren<QCheckBox*>())
        c->setChecked(c->text() == QStringLiteral("fp32"));
    page.findChild<QLineEdit*>(QStringLiteral("sizes"))->setText(QStringLiteral("16,2048,2048"));
    auto* table = page.findChild<QTableWidget*>(QStringLiteral("results"));
    QVERIFY(table);
    QTest::mouseClick(button(page, QStringLiteral("Run")), Qt::LeftButton);
    QVERIFY(page.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 0 || !page.isRunning(), 60000);
    QVERIFY2(page.isRunning(), "the table stayed empty until the sweep ended");
    QCOMPARE(table->rowCount(), 1);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("fp32"));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("16"));
    const ThroughputChartData live = page.sweepPanel()->chart()->data();
    QCOMPARE(live.series.size(), std::size_t{1});
    QCOMPARE(live.series[0].points.size(), std::size_t{1});
    QCOMPARE(live.series[0].points[0].size, 16.0);
    QVERIFY(live.series[0].points[0].flopsPerSecond > 0);
    QVERIFY(labelStartingWith(page, QStringLiteral("Running: 1 of 3 case(s) finished")));
    QVERIFY(!page.sweepPanel()->sweep()); // exports wait for the whole sweep

    QTest::mouseClick(button(page, QStringLiteral("Cancel")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 60000);
    const auto& sweep = page.sweepPanel()->sweep();
    QVERIFY(sweep && sweep->cancelled && !sweep->results.empty());
    // The point shown mid-run is the one the finished sweep delivered.
    QCOMPARE(sweep->results[0].flopsPerSecond, live.series[0].points[0].flopsPerSecond);
    QCOMPARE(table->rowCount(), static_cast<int>(sweep->results.size()));
    QVERIFY(!labelStartingWith(page, QStringLiteral("Running:")));
}

// A long run (5000 steps of a 256-wide Cruncher): mid-run the loss chart holds the losses of the steps
// finished, grows, and the summary says which step it is at; a cancel keeps the same losses, and more.
void TestLiveBenchmarks::lossCurveGrowsEachStep() {
    BenchmarksPage page;
    auto spin = [&page](const char* name) { return page.findChild<QSpinBox*>(QString::fromLatin1(name)); };
    spin("dim")->setValue(256);
    spin("layers")->setValue(4);
    spin("batch")->setValue(64);
    spin("steps")->setValue(5000);
    const LossChart& chart = *page.trainingPanel()->chart();
    QTest::mouseClick(button(page, QStringLiteral("Train")), Qt::LeftButton);
    QVERIFY(page.isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(!chart.losses().empty() || !page.isRunning(), 60000);
    QVERIFY2(page.isRunning(), "the loss chart stayed empty until the run ended");
    QVERIFY(!labelStartingWith(page, QStringLiteral("No training run yet.")));
    QVERIFY(labelStartingWith(page, QStringLiteral("Training: step ")));
    QVERIFY(!page.trainingPanel()->run()); // the run's timing and memory wait for its end
    const std::size_t first = chart.losses().size();
    QTRY_VERIFY_WITH_TIMEOUT(chart.losses().size() > first || !page.isRunning(), 60000);
    QVERIFY2(page.isRunning(), "the loss curve did not grow while the run trained");
    const std::vector<double> live = chart.losses();
    QVERIFY(live.size() < 5000);

    QTest::mouseClick(button(page, QStringLiteral("Cancel")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 60000);
    const auto& run = page.trainingPanel()->run();
    QVERIFY(run && run->cancelled);
    QVERIFY(run->losses.size() >= live.size());
    QVERIFY(std::equal(live.begin(), live.end(), run->losses.begin()));
    QCOMPARE(chart.losses(), run->losses);
}

QTEST_MAIN(TestLiveBenchmarks)
#include "tst_live_benchmarks.moc"

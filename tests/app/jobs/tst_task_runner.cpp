// SPDX-License-Identifier: GPL-3.0-or-later
// The one runner for work off the GUI thread: results come back on the GUI thread, a superseded or
// cancelled run's result is dropped, an exception becomes failed() with its message, and progress is
// delivered for the current run only.
#include "app/jobs/task_runner.h"

#include <QThread>
#include <QtTest>

#include <atomic>
#include <stdexcept>

class TestTaskRunner : public QObject {
    Q_OBJECT
private slots:
    void deliversOnTheGuiThread();
    void supersededWorkIsDropped();
    void cancelDropsAndStopsEarly();
    void exceptionBecomesFailed();
    void progressOfTheCurrentRunOnly();
    void partialResultsArriveInOrderBeforeTheEnd();
    void supersededPartialResultsAreDropped();
};

void TestTaskRunner::deliversOnTheGuiThread() {
    TaskRunner runner;
    QThread* worker = nullptr;
    QThread* delivered = nullptr;
    QSignalSpy busy(&runner, &TaskRunner::busyChanged);
    runner.start([&](const TaskContext&) {
        worker = QThread::currentThread();
        return TaskRunner::Deliver([&] { delivered = QThread::currentThread(); });
    });
    QTRY_VERIFY(delivered != nullptr);
    QVERIFY(worker != QThread::currentThread());
    QCOMPARE(delivered, QThread::currentThread());
    QTRY_COMPARE(busy.count(), 2); // true, then false
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
    QVERIFY(!runner.isBusy());
}

void TestTaskRunner::supersededWorkIsDropped() {
    TaskRunner runner;
    std::atomic<bool> release{false};
    int first = 0, second = 0;
    runner.start([&](const TaskContext& task) {
        while (!release && task.keepGoing())
            QThread::msleep(1);
        return TaskRunner::Deliver([&] { ++first; });
    });
    runner.start([&](const TaskContext&) { return TaskRunner::Deliver([&] { ++second; }); });
    QTRY_COMPARE(second, 1);
    QTRY_VERIFY(!runner.isBusy());
    QTest::qWait(50);
    QCOMPARE(first, 0); // it saw keepGoing() turn false and its result was dropped
}

void TestTaskRunner::cancelDropsAndStopsEarly() {
    TaskRunner runner;
    std::atomic<int> steps{0};
    bool delivered = false;
    runner.start([&](const TaskContext& task) {
        while (task.keepGoing() && steps < 100000) {
            ++steps;
            QThread::msleep(1);
        }
        return TaskRunner::Deliver([&] { delivered = true; });
    });
    QTRY_VERIFY(steps > 3);
    runner.cancel();
    QTRY_VERIFY(!runner.isBusy());
    QTest::qWait(50);
    QVERIFY(!delivered);
    QVERIFY(steps < 100000);
}

void TestTaskRunner::exceptionBecomesFailed() {
    TaskRunner runner;
    QSignalSpy failed(&runner, &TaskRunner::failed);
    runner.start(
        [](const TaskContext&) -> TaskRunner::Deliver { throw std::runtime_error("no CUDA device"); });
    QTRY_COMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("no CUDA device"));
}

void TestTaskRunner::progressOfTheCurrentRunOnly() {
    TaskRunner runner;
    QSignalSpy progress(&runner, &TaskRunner::progress);
    runner.start([](const TaskContext& task) {
        task.progress(0.5, QStringLiteral("timing"));
        QThread::msleep(30);
        task.progress(1.0, QStringLiteral("verify")); // a new phase is posted at once
        return TaskRunner::Deliver([] {});
    });
    QTRY_VERIFY(!runner.isBusy());
    QTRY_COMPARE(progress.count(), 2);
    const auto report = progress.at(1).at(0).value<TaskProgress>();
    QCOMPARE(report.phase, QStringLiteral("verify"));
    QCOMPARE(report.fraction, 1.0);
    QVERIFY(report.elapsedSeconds >= 0.02);
    QVERIFY(report.remainingSeconds && *report.remainingSeconds == 0.0);
}

// What a run hands over while it works (a finished case, a step's loss) reaches the GUI thread in order,
// each before the final result.
void TestTaskRunner::partialResultsArriveInOrderBeforeTheEnd() {
    TaskRunner runner;
    QStringList seen;
    QThread* on = nullptr;
    runner.start([&](const TaskContext& task) {
        for (int i = 1; i <= 3; ++i)
            task.deliverPartial([&seen, &on, i] {
                seen << QString::number(i);
                on = QThread::currentThread();
            });
        return TaskRunner::Deliver([&seen] { seen << QStringLiteral("end"); });
    });
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(seen, QStringList({"1", "2", "3", "end"}));
    QCOMPARE(on, QThread::currentThread());
}

// A superseded run's partial results are dropped like its final one: no stale point on a new chart.
void TestTaskRunner::supersededPartialResultsAreDropped() {
    TaskRunner runner;
    QStringList seen;
    std::atomic<bool> release = false;
    runner.start([&](const TaskContext& task) {
        while (!release.load())
            QThread::msleep(1);
        task.deliverPartial([&seen] { seen << QStringLiteral("old"); });
        return TaskRunner::Deliver([] {});
    });
    runner.start([&](const TaskContext& task) {
        task.deliverPartial([&seen] { seen << QStringLiteral("new"); });
        return TaskRunner::Deliver([] {});
    });
    release = true;
    QTRY_VERIFY(!runner.isBusy());
    QCOMPARE(seen, QStringList({"new"}));
}

QTEST_MAIN(TestTaskRunner)
#include "tst_task_runner.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// File ▸ Open measured run… and a dropped trace: through the window, a trace torch made on the CPU lies
// over the predicted step, its peak less the bytes the run names equal to napkin's peak to the byte, with
// the answers and the note under the chart saying so; a bad file shows its one line under the chart and in
// the status bar and changes nothing; Clear takes the run off.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/shell/main_window.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/hardware/gpu_catalog.h"
#include "widgets/charts/image_format.h"
#include "widgets/charts/memory_timeline_chart.h"
#include "widgets/controls/explain_pane.h"

#include <QAction>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUrl>
#include <QtTest>

#include <algorithm>

using namespace napkin;

namespace {

const QString kCpuTrace = QStringLiteral(NAPKIN_MEASURED_DATA "/cpu_trace_gpt2_one_layer.json");

// The setup scripts/measure-run.py ran for that trace (tests/engine/measured/tst_measured_run.cpp).
AccountingScenario traceSetup() {
    AccountingScenario s;
    AccountingInput& in = s.input;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 24;
    in.model.heads = 2;
    in.model.layers = 1;
    in.model.vocab = 17;
    in.model.seq = 5;
    in.model.ffnDim = 40;
    in.model.bias = true;
    in.model.embeddings = EmbeddingTying::tied;
    in.model.dropout = false;
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.batch = 2;
    in.precision = PrecisionRecipe::fp32;
    in.optimizer = OptimizerKind::adamw;
    in.optimizerImplementation = OptimizerImplementation::singleTensor; // the trace's: torch 1.13 on the CPU
    in.recompute = Recompute::none;
    in.attention = AttentionMask::causal;
    return s;
}

bool drop(MainWindow& w, const QString& path) {
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    const QPoint at = w.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &dropped);
    return dropped.isAccepted();
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes) {
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

} // namespace

class TestMeasuredRunWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void cpuTraceOverlaysThePrediction() {
        MainWindow w;
        AccountingPage& page = *w.accountingPage();
        page.applyScenario(traceSetup());
        QVERIFY(page.lastResult());
        QCOMPARE(page.lastResult()->peakMemory.value, 94828.0);
        QAction* clear = w.findChild<QAction*>(QStringLiteral("clearMeasuredRun"));
        QVERIFY(clear);
        QVERIFY(!clear->isEnabled());

        QCOMPARE(w.openMeasuredRun(kCpuTrace), QString());
        const MeasuredRunCurve& curve = page.timelineChart()->data().run;
        QVERIFY(!curve.isEmpty());
        QCOMPARE(curve.label, QStringLiteral("cpu_trace_gpt2_one_layer.json"));
        QVERIFY(curve.reserved.isEmpty()); // the CPU allocator reserves nothing
        // Every sample lies on the predicted step's axis, and the overlay's peak less the 324 B the run
        // names (tokens 160, buffers 100, AdamW's step counters 64) is the prediction's peak.
        const double events = static_cast<double>(page.timelineChart()->data().events.size());
        for (double x : curve.x)
            QVERIFY(x >= -0.5 && x <= events - 0.5);
        QCOMPARE(curve.peakAllocated() - 324,
                 page.timelineChart()->data().totalAt(page.timelineChart()->data().peakIndex()));
        const MeasuredComparison* c = page.measuredComparison();
        QVERIFY(c);
        QCOMPARE(c->measuredPeakBytes, 95152.0);
        QCOMPARE(c->unexplainedBytes, 0.0);
        QVERIFY(
            page.answers()->valueText(QStringLiteral("measuredPeak")).contains(QStringLiteral("95.15 kB")));
        QCOMPARE(page.answers()->valueText(QStringLiteral("measuredDifference")),
                 QStringLiteral("+324 B, 0 B unexplained"));
        QVERIFY(page.measuredRunNote()->isVisibleTo(&page));
        QVERIFY(page.measuredRunNote()->text().contains(QStringLiteral("0 B (0 B) unexplained")));
        QVERIFY(clear->isEnabled());

        // The exported chart carries the overlay (set NAPKIN_MEASURED_SCREENSHOT=FILE.png to look at it).
        const QByteArray png = page.timelineChart()->renderAs(ImageFormat::png, QSize(1000, 520));
        QVERIFY(png.startsWith("\x89PNG"));
        if (const QString out = qEnvironmentVariable("NAPKIN_MEASURED_SCREENSHOT"); !out.isEmpty()) {
            QFile f(out);
            QVERIFY(f.open(QIODevice::WriteOnly) && f.write(png) == png.size());
        }

        // A change of setup recomputes the comparison against the new prediction; the run stays. Batch 8:
        // op by op, the step still peaks in AdamW's update at batch 4 (94,828 B, whatever the batch), and at
        // batch 8 the head's backward passes it (122,705 B).
        AccountingScenario bigger = traceSetup();
        bigger.input.batch = 8;
        page.applyScenario(bigger);
        QVERIFY(page.measuredComparison());
        QVERIFY(page.measuredComparison()->unexplainedBytes < 0); // the prediction grew, the run did not

        clear->trigger();
        QVERIFY(page.timelineChart()->data().run.isEmpty());
        QVERIFY(!page.measuredComparison());
        QVERIFY(!page.measuredRunNote()->isVisibleTo(&page));
        QVERIFY(!clear->isEnabled());
    }

    void badFileShowsItsLineAndKeepsTheRun_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("error");
        QTest::newRow("cut trace") << QByteArray(R"({"traceEvents": [{"ph": "i", "name": "[memory]")")
                                   << QStringLiteral("not JSON at byte 48");
        QTest::newRow("no memory events")
            << QByteArray(R"({"traceEvents": [{"ph": "X", "name": "aten::mm", "ts": 1, "dur": 2}]})")
            << QStringLiteral("no memory");
        QTest::newRow("pickle naming code")
            << QByteArray("\x80\x04\x63os\nsystem\n.", 15) << QStringLiteral("refused opcode GLOBAL");
    }
    void badFileShowsItsLineAndKeepsTheRun() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, error);
        MainWindow w;
        AccountingPage& page = *w.accountingPage();
        page.applyScenario(traceSetup());
        QCOMPARE(w.openMeasuredRun(kCpuTrace), QString());
        const MeasuredRunCurve before = page.timelineChart()->data().run;
        const QString path = writeFile(m_dir, QStringLiteral("bad.json"), bytes);
        const QString message = w.openMeasuredRun(path);
        QVERIFY2(message.contains(error), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n'))); // one line
        QVERIFY(message.startsWith(path));             // naming the file
        QCOMPARE(page.measuredRunNote()->text(), QStringLiteral("Measured run not opened: %1").arg(message));
        QVERIFY(page.measuredRunNote()->isVisibleTo(&page));
        QVERIFY(w.statusBar()->currentMessage().contains(message));
        QCOMPARE(page.timelineChart()->data().run, before); // nothing lost
        QVERIFY(page.measuredComparison());
        // The line stays through a recompute, until the next file or Clear.
        page.recompute();
        QVERIFY(page.measuredRunNote()->text().startsWith(QStringLiteral("Measured run not opened")));
    }

    void droppedTraceOpensOnTheAccountingPage() {
        MainWindow w;
        w.accountingPage()->applyScenario(traceSetup());
        QVERIFY(drop(w, kCpuTrace));
        QVERIFY(w.accountingPage()->measuredComparison());
        QCOMPARE(w.accountingPage()->measuredComparison()->unexplainedBytes, 0.0);
        // A dropped pickle that names code is a measured run refused, not a model config.
        const QString hostile =
            writeFile(m_dir, QStringLiteral("hostile.pickle"), QByteArray("\x80\x04\x63os\nsystem\n.", 15));
        QVERIFY(drop(w, hostile));
        QVERIFY(w.accountingPage()->measuredRunNote()->text().contains(QStringLiteral("refused opcode")));
        QVERIFY(w.accountingPage()->measuredComparison()); // the trace opened before stays
    }

    // The shipped trace says the setup it was made with (measure-run.py's "napkin_scenario"). Opened over
    // another setup the page says the setup probably differs and offers "Use the run's setup"; one click sets
    // the controls to it (a preset's way: the GPU and the rest as the run had them), the comparison is then
    // exact, the button goes, and Undo brings the page's own setup and the button back. Before the fix the
    // twelve controls had to be set by hand.
    void runBringsItsSetup() {
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        AccountingPage& page = *w.accountingPage();
        const AccountingInput before = page.controls()->input();
        QCOMPARE(w.openMeasuredRun(kCpuTrace), QString());
        QPushButton* use = page.useRunSetupButton();
        QVERIFY(use->isVisibleTo(&page));
        QVERIFY(
            page.measuredRunNote()->text().startsWith(QStringLiteral("The run's setup probably differs")));
        QVERIFY(page.measuredComparison()->unexplainedBytes != 0.0);

        QTest::mouseClick(use, Qt::LeftButton);
        QTRY_VERIFY(!use->isVisibleTo(&page));
        AccountingInput expected = traceSetup().input;
        QCOMPARE(page.controls()->input().model.dModel, expected.model.dModel);
        QCOMPARE(page.controls()->input().batch, expected.batch);
        QCOMPARE(page.lastResult()->peakMemory.value, 94828.0);
        QCOMPARE(page.measuredComparison()->unexplainedBytes, 0.0);
        QVERIFY(page.measuredRunNote()->text().contains(QStringLiteral("0 B (0 B) unexplained")));

        QAction* undo = w.findChild<QAction*>(QStringLiteral("undo"));
        QVERIFY(undo);
        QTRY_VERIFY(undo->isEnabled()); // the step is taken once the click has been handled
        undo->trigger();
        QVERIFY(page.controls()->input() == before);
        QVERIFY(use->isVisibleTo(&page));
    }

    // The run's time by phase in "How is this computed?": the page's prediction (H100's published figures,
    // which have no fp32 GEMM) beside the trace's ranges, and a GPU's figures against a CPU run said to be
    // not comparable.
    void explainShowsTimeByPhase() {
        MainWindow w;
        AccountingPage& page = *w.accountingPage();
        page.applyScenario(traceSetup());
        QCOMPARE(w.openMeasuredRun(kCpuTrace), QString());
        const QString explain = page.explainPane()->plainText();
        for (const char* text : {"Time by phase", "ProfilerStep#2", "Not comparable", "forward", "zero_grad"})
            QVERIFY2(explain.contains(QLatin1String(text)), text);
    }

    // A run that carries the profile it was predicted from (measure-run.py's napkin_hardware_profile), opened
    // on a page set to that profile's device, is costed from it: predicted, and comparable.
    void runCarriesItsProfile() {
        GpuSpec cpu = *GpuCatalog::builtIn().find("H100-SXM"); // a part with figures the catalog accepts
        cpu.id = "this-cpu";
        SessionGpuCatalog::instance().add(cpu);
        QJsonObject profile{{"format", "napkin-hardware-profile"},
                            {"version", 1},
                            {"device", "this-cpu"},
                            {"source", "test input: round figures, not a measurement"},
                            {"memory_bandwidth_bytes_per_second", 1e10},
                            {"per_op_overhead_seconds", 1e-5}};
        profile.insert(QStringLiteral("gemm"),
                       QJsonArray{QJsonObject{
                           {"dtype", "fp32"}, {"m", 64}, {"n", 64}, {"k", 64}, {"flops_per_second", 1e9}}});
        QFile shipped(kCpuTrace);
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QJsonObject trace = QJsonDocument::fromJson(shipped.readAll()).object();
        trace.insert(QStringLiteral("napkin_hardware_profile"),
                     QString::fromUtf8(QJsonDocument(profile).toJson(QJsonDocument::Compact)));
        const QString path =
            writeFile(m_dir, QStringLiteral("with-profile.json"), QJsonDocument(trace).toJson());
        MainWindow w;
        AccountingPage& page = *w.accountingPage();
        AccountingScenario setup = traceSetup();
        setup.input.gpu = "this-cpu";
        page.applyScenario(setup);
        QCOMPARE(w.openMeasuredRun(path), QString());
        const QString explain = page.explainPane()->plainText();
        QVERIFY2(explain.contains(QStringLiteral("(the profile the run carries: napkin_hardware_profile)")),
                 qPrintable(explain));
        QVERIFY(!explain.contains(QStringLiteral("Not comparable")));
        QVERIFY(!explain.contains(QStringLiteral("The step time is not predicted")));
    }

    // A run without a setup (an older measure-run.py, torch's own export) offers none.
    void runWithoutSetupOffersNone() {
        QFile shipped(kCpuTrace);
        QVERIFY(shipped.open(QIODevice::ReadOnly));
        QJsonObject trace = QJsonDocument::fromJson(shipped.readAll()).object();
        trace.remove(QStringLiteral("napkin_scenario"));
        const QString path = writeFile(m_dir, QStringLiteral("no-setup.json"), QJsonDocument(trace).toJson());
        MainWindow w;
        QCOMPARE(w.openMeasuredRun(path), QString());
        QVERIFY(!w.accountingPage()->useRunSetupButton()->isVisibleTo(w.accountingPage()));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestMeasuredRunWindow)
#include "tst_measured_run_window.moc"

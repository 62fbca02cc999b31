// SPDX-License-Identifier: GPL-3.0-or-later
// The measured run's time by phase in the Accounting page's "How is this computed?": the engine's
// comparison (engine/measured/measured_step_time.h) as a table, the prediction's basis named, a GPU's
// figures against a CPU run said to be not comparable, and "not modelled" / "not named" / "–" where a side
// has no figure, never a number of its own. The shipped CPU trace (tests/engine/measured/data) is the run.
#include "app/accounting/measured_run_section.h"
#include "engine/accounting/accounting.h"
#include "engine/accounting/memory_timeline.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/measured/measured_step_time.h"
#include "engine/measured/measured_timeline.h"
#include "engine/steptime/step_time.h"

#include <QtTest>

using namespace napkin;

namespace {

AccountingInput traceSetup() { // the trace's own flags (tests/engine/measured/tst_measured_run.cpp)
    AccountingInput in;
    in.optimizerImplementation = OptimizerImplementation::singleTensor;
    in.model.kind = ModelKind::transformer;
    in.model.dModel = 24;
    in.model.heads = 2;
    in.model.layers = 1;
    in.model.vocab = 17;
    in.model.seq = 5;
    in.model.ffnDim = 40;
    in.model.dropout = false;
    in.model.activationsOf = ActivationProfile::pytorchEager;
    in.batch = 2;
    return in;
}

MeasuredRun shippedRun() {
    MeasuredRunRead r = readMeasuredRun(NAPKIN_MEASURED_DATA "/cpu_trace_gpt2_one_layer.json");
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return std::move(r.run);
}

} // namespace

class TestMeasuredTimeSection : public QObject {
    Q_OBJECT
private slots:
    // What the section says for each case; `absent` must not appear.
    void saysWhatEachSideHas_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("predicted");
        QTest::addColumn<QStringList>("present");
        QTest::addColumn<QStringList>("absent");
        QTest::newRow("a GPU's figures against a CPU run")
            << "H100-SXM" << true << QStringList{"Time by phase",    "Predicted for H100-SXM from test input",
                                                 "ProfilerStep#2",   "Not comparable",
                                                 "<td>forward</td>", "<td>zero_grad</td>",
                                                 "not modelled",     "<td>step</td>"}
            << QStringList{"not named", "not predicted"};
        QTest::newRow("this CPU, no profile: not predicted")
            << "this-cpu" << false
            << QStringList{"Time by phase", "The step time is not predicted", "ProfilerStep#2",
                           "<td>step</td>"}
            << QStringList{"Not comparable", "not modelled"};
    }
    void saysWhatEachSideHas() {
        QFETCH(QString, gpu);
        QFETCH(bool, predicted);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const AccountingInput in = traceSetup();
        const GpuSpec& h100 = *GpuCatalog::builtIn().find("H100-SXM");
        GpuSpec device = h100;
        device.id = gpu.toStdString();
        StepTime t;
        if (predicted) {
            HardwareProfile profile; // test input: round figures, not a measurement
            profile.device = device.id;
            profile.source = "test input";
            profile.gemms = {{ComputeType::fp32, 64, 64, 64, 1e9},
                             {ComputeType::fp32, 1024, 1024, 1024, 1e10}};
            profile.memoryBandwidthBytesPerSecond = 1e10;
            profile.perOpOverheadSeconds = 1e-5;
            t = predictStepTime(in, account(in, h100), profile);
        } else {
            t.whyNot = "no published profile for this-cpu";
        }
        QCOMPARE(t.predicted, predicted);
        const MeasuredRun run = shippedRun();
        const QString html =
            explainMeasuredTime(compareTimeWithMeasured(t, device, run, run.devices.front().device));
        for (const QString& text : present)
            QVERIFY2(html.contains(text), qPrintable(text + QStringLiteral(" not in ") + html));
        for (const QString& text : absent)
            QVERIFY2(!html.contains(text), qPrintable(text + QStringLiteral(" in ") + html));
    }

    // The whole measured-run section carries the time table after the memory comparison.
    void sectionEndsWithTheTime() {
        const AccountingInput in = traceSetup();
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const AccountingResult result = account(in, gpu);
        const MemoryTimeline predicted = memoryTimeline(in, result);
        const MeasuredRun run = shippedRun();
        const MeasuredComparison c = compareMeasuredRun(result, predicted, run, run.devices.front());
        const QString html = explainMeasuredRun(c, run, publishedStepTime(in, result, gpu), gpu,
                                                QStringLiteral("run.json"), ByteUnits::decimal);
        QVERIFY(html.indexOf(QStringLiteral("Your measured run")) <
                html.indexOf(QStringLiteral("Time by phase")));
        QVERIFY(html.contains(QStringLiteral("Not comparable")));
    }
};

QTEST_MAIN(TestMeasuredTimeSection)
#include "tst_measured_time_section.moc"

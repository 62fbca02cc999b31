// SPDX-License-Identifier: GPL-3.0-or-later
// A measured run's time beside the predicted step time: the measured step's seconds by phase from the
// trace's own "dur" (a hand-made trace whose durations are known exactly, and the shipped CPU trace of a
// one-layer GPT-2), the ledger's seconds by phase, their ratio, and what stays unset (a phase no range
// names, a phase the ledger has no row in, a run with no step range) rather than a made-up figure. No
// assertion here times anything: structure, nulls and arithmetic only.
#include "engine/accounting/accounting.h"
#include "engine/hardware/gpu_catalog.h"
#include "engine/io/bounded_file_read.h"
#include "engine/measured/chrome_trace_reader.h"
#include "engine/measured/measured_step_time.h"
#include "engine/measured/measured_timeline.h"
#include "engine/steptime/step_time.h"

#include <QTest>

#include <cmath>

using namespace napkin;

namespace {

// Two steps (the last is measured), a warm-up step whose optimizer range must not count, nested optimizer
// ranges, and one memory event (a trace needs one to be read). Durations in µs.
const char* kTwoSteps = R"({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "warm-up step 1", "ts": 0, "dur": 500},
 {"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#AdamW.step", "ts": 400, "dur": 90},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "ts": 500, "dur": 400},
 {"ph": "X", "cat": "user_annotation", "name": "forward", "ts": 500, "dur": 100},
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "ts": 1000, "dur": 1000},
 {"ph": "X", "cat": "user_annotation", "name": "forward", "ts": 1000, "dur": 300},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 1010, "dur": 200},
 {"ph": "X", "cat": "user_annotation", "name": "backward", "ts": 1300, "dur": 400},
 {"ph": "X", "cat": "user_annotation", "name": "optimizer step", "ts": 1700, "dur": 200},
 {"ph": "X", "cat": "user_annotation", "name": "Optimizer.step#AdamW.step", "ts": 1710, "dur": 180},
 {"ph": "X", "cat": "user_annotation", "name": "zero_grad", "ts": 1900, "dur": 50},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "ts": 1005,
  "args": {"Total Allocated": 64, "Bytes": 64, "Device Id": -1, "Device Type": 0}}
]})";

const char* kNoStep = R"({"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "forward", "ts": 0, "dur": 300},
 {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "ts": 5,
  "args": {"Total Allocated": 64, "Bytes": 64, "Device Type": 0}}
]})";

// A profile of round test figures, not a measurement, which a run carries (as measure-run.py writes it when
// given --hardware-profile) as a JSON string: carriesProfile() escapes its quotes.
const char* kRoundProfile = R"({"format": "napkin-hardware-profile", "version": 1, "device": "this-cpu",
 "source": "test input", "gemm": [{"dtype": "fp32", "m": 64, "n": 64, "k": 64, "flops_per_second": 1e9}],
 "memory_bandwidth_bytes_per_second": 1e10, "per_op_overhead_seconds": 1e-5})";

std::string carriesProfile() {
    std::string escaped;
    for (const char c : std::string(kRoundProfile)) {
        if (c == '"')
            escaped += '\\';
        if (c != '\n')
            escaped += c;
    }
    return R"({"traceEvents": [{"ph": "i", "name": "[memory]", "ts": 5, "args": {"Bytes": 64, "Device Type": 0}}],
 "napkin_hardware_profile": ")" +
           escaped + "\"}";
}

MeasuredRun readTrace(const char* text) {
    MeasuredRunRead r = readChromeTrace(text, "trace.json");
    if (!r.ok())
        qFatal("%s", r.error.c_str());
    return std::move(r.run);
}

MeasuredRun shippedTrace() {
    const BoundedFileRead file =
        readBoundedFile(std::string(NAPKIN_MEASURED_DATA) + "/cpu_trace_gpt2_one_layer.json", 1 << 20);
    if (!file.ok())
        qFatal("%s", file.error.c_str());
    return readTrace(file.bytes.c_str());
}

StepTimeRow row(StepTimePhase phase, StepTimeKind kind, double seconds) {
    StepTimeRow r;
    r.name = std::string(stepTimePhaseName(phase)) + " " + std::string(stepTimeKindName(kind));
    r.phase = phase;
    r.kind = kind;
    r.seconds = seconds;
    return r;
}

// A ledger whose seconds per phase are known: forward 150 µs (compute + overhead), backward 300 µs (with
// 100 µs of recompute), optimizer 30 µs, and 30 µs outside every phase (communication, bubble).
StepTime handLedger() {
    StepTime t;
    t.predicted = true;
    t.basis = "a hand-made ledger";
    t.ledger = {row(StepTimePhase::forward, StepTimeKind::compute, 100e-6),
                row(StepTimePhase::forward, StepTimeKind::overhead, 50e-6),
                row(StepTimePhase::backward, StepTimeKind::compute, 200e-6),
                row(StepTimePhase::recompute, StepTimeKind::compute, 100e-6),
                row(StepTimePhase::optimizer, StepTimeKind::memory, 30e-6),
                row(StepTimePhase::communication, StepTimeKind::communication, 10e-6),
                row(StepTimePhase::pipeline, StepTimeKind::bubble, 20e-6)};
    for (const StepTimeRow& r : t.ledger)
        t.seconds += r.seconds;
    return t;
}

GpuSpec device(const char* id) {
    GpuSpec gpu;
    gpu.id = id;
    return gpu;
}

constexpr MeasuredDevice kCpu{MeasuredDeviceType::cpu, -1};
constexpr MeasuredDevice kCuda0{MeasuredDeviceType::cuda, 0};

bool near(double a, double b) {
    return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

} // namespace

class TstMeasuredStepTime : public QObject {
    Q_OBJECT
private slots:
    // Each phase's measured seconds: the union of its ranges inside the last ProfilerStep#N ("optimizer
    // step" around "Optimizer.step#AdamW.step" once; the warm-up step's and ProfilerStep#2's ranges not at
    // all). -1: unset.
    void measuredPhases_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<int>("phase"); // 0..3, 4: the step
        QTest::addColumn<double>("seconds");
        QTest::addColumn<QStringList>("ranges");
        QTest::newRow("hand forward") << "two steps" << 0 << 300e-6 << QStringList{"forward"};
        QTest::newRow("hand backward") << "two steps" << 1 << 400e-6 << QStringList{"backward"};
        QTest::newRow("hand optimizer, nested")
            << "two steps" << 2 << 200e-6 << QStringList{"optimizer step", "Optimizer.step#AdamW.step"};
        QTest::newRow("hand zero_grad") << "two steps" << 3 << 50e-6 << QStringList{"zero_grad"};
        QTest::newRow("hand step, the last") << "two steps" << 4 << 1000e-6 << QStringList{"ProfilerStep#3"};
        // data/cpu_trace_gpt2_one_layer.json (scripts/measure-run.py on the CPU, torch 1.13): its ranges'
        // "dur" as the file has them.
        QTest::newRow("shipped forward") << "shipped" << 0 << 455e-6 << QStringList{"forward"};
        QTest::newRow("shipped backward") << "shipped" << 1 << 560e-6 << QStringList{"backward"};
        QTest::newRow("shipped optimizer")
            << "shipped" << 2 << 470e-6 << QStringList{"optimizer step", "Optimizer.step#AdamW.step"};
        QTest::newRow("shipped zero_grad")
            << "shipped" << 3 << 18e-6 << QStringList{"zero_grad", "Optimizer.zero_grad#AdamW.zero_grad"};
        QTest::newRow("shipped step") << "shipped" << 4 << 1537e-6 << QStringList{"ProfilerStep#2"};
        QTest::newRow("no step range") << "no step" << 4 << -1.0 << QStringList{};
        QTest::newRow("no step range, no phase") << "no step" << 0 << -1.0 << QStringList{};
    }
    void measuredPhases() {
        QFETCH(QString, trace);
        QFETCH(int, phase);
        QFETCH(double, seconds);
        QFETCH(QStringList, ranges);
        const MeasuredRun run =
            trace == "shipped" ? shippedTrace() : readTrace(trace == "no step" ? kNoStep : kTwoSteps);
        const MeasuredStepSeconds m = measuredStepSeconds(run);
        const std::optional<double> got =
            phase == 4 ? m.stepSeconds : m.phaseSeconds.at(static_cast<std::size_t>(phase));
        QCOMPARE(got.has_value(), seconds >= 0);
        if (got)
            QVERIFY2(near(*got, seconds), std::to_string(*got).c_str());
        QStringList names;
        if (phase == 4 && !m.stepRange.empty())
            names << QString::fromStdString(m.stepRange);
        if (phase < 4)
            for (const std::string& n : m.phaseRanges.at(static_cast<std::size_t>(phase)))
                names << QString::fromStdString(n);
        QCOMPARE(names, ranges);
        QCOMPARE(m.whyNot.empty(), trace != "no step");
    }

    // The phases lie inside the step: their sum is at most the step's, and the rest is what the loop spent
    // between the ranges.
    void phasesSumWithinTheStep_data() {
        QTest::addColumn<bool>("shipped");
        QTest::newRow("hand") << false;
        QTest::newRow("shipped") << true;
    }
    void phasesSumWithinTheStep() {
        QFETCH(bool, shipped);
        const MeasuredRun run = shipped ? shippedTrace() : readTrace(kTwoSteps);
        const MeasuredTimeComparison c = compareTimeWithMeasured(handLedger(), device("this-cpu"), run, kCpu);
        double phases = 0;
        for (const PhaseTimeComparison& p : c.phases)
            phases += p.measuredSeconds.value();
        QVERIFY(c.step.measuredSeconds);
        QVERIFY(phases <= *c.step.measuredSeconds);
        QVERIFY(c.measuredOutsidePhasesSeconds);
        QVERIFY(near(*c.measuredOutsidePhasesSeconds, *c.step.measuredSeconds - phases));
    }

    // The ledger by phase: recompute inside backward, communication and the bubble in the step but in no
    // phase, zero_grad unset (no row: not modelled), the ratio predicted / measured. -1: unset.
    void predictedAgainstMeasured_data() {
        QTest::addColumn<int>("phase"); // 0..3, 4: the step
        QTest::addColumn<double>("predicted");
        QTest::addColumn<double>("measured");
        QTest::newRow("forward") << 0 << 150e-6 << 300e-6;
        QTest::newRow("backward with recompute") << 1 << 300e-6 << 400e-6;
        QTest::newRow("optimizer step") << 2 << 30e-6 << 200e-6;
        QTest::newRow("zero_grad, not modelled") << 3 << -1.0 << 50e-6;
        QTest::newRow("step") << 4 << 510e-6 << 1000e-6;
    }
    void predictedAgainstMeasured() {
        QFETCH(int, phase);
        QFETCH(double, predicted);
        QFETCH(double, measured);
        const MeasuredTimeComparison c =
            compareTimeWithMeasured(handLedger(), device("this-cpu"), readTrace(kTwoSteps), kCpu);
        const PhaseTimeComparison& p = phase == 4 ? c.step : c.phases.at(static_cast<std::size_t>(phase));
        QCOMPARE(p.predictedSeconds.has_value(), predicted >= 0);
        if (p.predictedSeconds)
            QVERIFY(near(*p.predictedSeconds, predicted));
        QVERIFY(p.measuredSeconds);
        QVERIFY(near(*p.measuredSeconds, measured));
        QCOMPARE(p.ratio.has_value(), predicted >= 0);
        if (p.ratio)
            QVERIFY(near(*p.ratio, predicted / measured));
        double byKind = 0;
        for (double s : p.predictedByKindSeconds)
            byKind += s;
        QVERIFY(near(byKind, std::max(predicted, 0.0)) || (predicted < 0 && byKind == 0));
        QVERIFY(p.largestRows.size() <= 3);
        for (std::size_t i = 1; i < p.largestRows.size(); ++i)
            QVERIFY(p.largestRows[i - 1].seconds >= p.largestRows[i].seconds);
        QVERIFY(near(c.predictedOutsidePhasesSeconds, 30e-6));
        QVERIFY(c.comparable);
    }

    // A real prediction (the shipped trace's own setup, fp32, from a profile of round test figures): its
    // phases and what lies outside them add up to its step.
    void realLedgerAddsUp() {
        AccountingInput in;
        in.model.kind = ModelKind::transformer;
        in.model.dModel = 24;
        in.model.heads = 2;
        in.model.layers = 1;
        in.model.vocab = 17;
        in.model.seq = 5;
        in.model.ffnDim = 40;
        in.batch = 2;
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        HardwareProfile profile; // test input: round figures, not a measurement
        profile.device = gpu.id;
        profile.source = "test input";
        profile.gemms = {{ComputeType::fp32, 64, 64, 64, 1e9}, {ComputeType::fp32, 1024, 1024, 1024, 1e10}};
        profile.memoryBandwidthBytesPerSecond = 1e10;
        profile.perOpOverheadSeconds = 1e-5;
        const StepTime t = predictStepTime(in, account(in, gpu), profile);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const MeasuredTimeComparison c = compareTimeWithMeasured(t, gpu, shippedTrace(), kCpu);
        double sum = c.predictedOutsidePhasesSeconds;
        for (const PhaseTimeComparison& p : c.phases)
            sum += p.predictedSeconds.value_or(0);
        QVERIFY(near(sum, t.seconds));
        QVERIFY(!c.phases[3].predictedSeconds); // zero_grad: no row
        QCOMPARE(c.basis, t.basis);
        // A GPU's figures against a CPU run: said, not hidden.
        QVERIFY(!c.comparable);
        QVERIFY(c.comparability.find("not comparable") != std::string::npos);
    }

    // The step a run's time is compared with when the user names no profile: the run's own where it reads
    // and is for the page's device, else the published one, whatever is wrong with the run's.
    void runStepTimeFromItsProfile_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("runs");
        QTest::newRow("the run's profile, its device") << "carries"
                                                       << "this-cpu" << true;
        QTest::newRow("the run's profile, another device") << "carries"
                                                           << "H100-SXM" << false;
        QTest::newRow("no profile in the run") << "none"
                                               << "this-cpu" << false;
        QTest::newRow("a damaged profile") << "damaged"
                                           << "this-cpu" << false;
    }
    void runStepTimeFromItsProfile() {
        QFETCH(QString, trace);
        QFETCH(QString, gpu);
        QFETCH(bool, runs);
        MeasuredRun run = readTrace(trace == "none" ? kNoStep : carriesProfile().c_str());
        if (trace == "damaged")
            run.hardwareProfile = run.hardwareProfile.substr(0, 40);
        QCOMPARE(run.hardwareProfile.empty(), trace == "none");
        AccountingInput in;
        in.model.kind = ModelKind::transformer;
        in.model.dModel = 24;
        in.model.heads = 2;
        in.model.layers = 1;
        in.model.vocab = 17;
        in.model.seq = 5;
        in.model.ffnDim = 40;
        in.batch = 2;
        GpuSpec spec = *GpuCatalog::builtIn().find("H100-SXM");
        spec.id = gpu.toStdString();
        StepTime published;
        published.basis = "published";
        const StepTime t = runStepTime(in, account(in, spec), spec, run, published);
        QCOMPARE(t.predicted, runs);
        QCOMPARE(t.basis == "published", !runs);
        if (runs)
            QCOMPARE(t.basis,
                     std::string("test input (the profile the run carries: napkin_hardware_profile)"));
    }

    void comparability_data() {
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<bool>("cpuRun");
        QTest::addColumn<bool>("comparable");
        QTest::newRow("GPU figures, CPU run") << "H100-SXM" << true << false;
        QTest::newRow("this CPU, CPU run") << "this-cpu" << true << true;
        QTest::newRow("GPU figures, GPU run") << "H100-SXM" << false << true;
        QTest::newRow("this CPU, GPU run") << "this-cpu" << false << false;
    }
    void comparability() {
        QFETCH(QString, gpu);
        QFETCH(bool, cpuRun);
        QFETCH(bool, comparable);
        const std::string why = timeComparability(device(gpu.toStdString().c_str()), cpuRun ? kCpu : kCuda0);
        QCOMPARE(why.empty(), comparable);
    }

    // Nothing to compare on one side: unset, with the reason, never a figure.
    void unsetSides() {
        StepTime notPredicted;
        notPredicted.whyNot = "the profile has no fp32 GEMM rate";
        const MeasuredTimeComparison c =
            compareTimeWithMeasured(notPredicted, device("this-cpu"), readTrace(kNoStep), kCpu);
        QVERIFY(!c.predicted);
        QCOMPARE(c.whyNotPredicted, notPredicted.whyNot);
        QVERIFY(c.whyNotMeasured.find("ProfilerStep#N") != std::string::npos);
        QVERIFY(!c.step.predictedSeconds && !c.step.measuredSeconds && !c.step.ratio);
        for (const PhaseTimeComparison& p : c.phases)
            QVERIFY(!p.predictedSeconds && !p.measuredSeconds && !p.ratio);
        QVERIFY(!c.measuredOutsidePhasesSeconds);
        MeasuredRun snapshot;
        snapshot.format = "CUDA memory snapshot";
        QVERIFY(measuredStepSeconds(snapshot).whyNot.find("no named ranges") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TstMeasuredStepTime)
#include "tst_measured_step_time.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The Cruncher's predicted step (engine/benchmarks/cruncher_step_time.h): its GEMMs are the ones the run
// counts (6·B·P − 2·B·D² with nothing frozen), each row is max(FLOPs / rate, bytes / bandwidth) worked here
// by hand from a two-rate profile, and a profile that lacks the recipe's GEMMs or a bandwidth says why it
// predicts nothing. One real CPU run calibrated in this process checks the structure only: no time is
// asserted.
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/calibration_run.h"
#include "engine/benchmarks/cruncher_step_time.h"

#include <QtTest>

#include <algorithm>

#include <cmath>

using namespace napkin;

namespace {

// Two fp32 GEMM rates (1 GFLOP/s at 64³, 4 GFLOP/s at 512³), one bandwidth (1 GB/s), 1 µs per op.
HardwareProfile tinyProfile() {
    HardwareProfile p;
    p.device = "this-cpu";
    p.source = "hand-made";
    p.gemms = {{ComputeType::fp32, 64, 64, 64, 1e9}, {ComputeType::fp32, 512, 512, 512, 4e9}};
    p.memoryBandwidthBytesPerSecond = 1e9;
    p.perOpOverheadSeconds = 1e-6;
    return p;
}

// tinyProfile with a rate in every dtype a Cruncher recipe computes in.
HardwareProfile everyDtypeProfile() {
    HardwareProfile p = tinyProfile();
    for (const ComputeType t : {ComputeType::tf32, ComputeType::bf16, ComputeType::fp16})
        p.gemms.push_back({t, 256, 256, 256, 2e9});
    return p;
}

CruncherConfig cruncher(long d, long b, long layers, const char* recipe, OptimizerKind optimizer) {
    CruncherConfig c;
    c.dim = d;
    c.batch = b;
    c.layers = layers;
    c.optimizer = optimizer;
    if (!setTrainingRecipe(c, recipe))
        qFatal("unknown recipe %s", recipe);
    return c;
}

double ledgerFlops(const StepTime& t) {
    double sum = 0;
    for (const StepTimeRow& row : t.ledger)
        sum += row.flops;
    return sum;
}

const StepTimeRow* rowStarting(const StepTime& t, const std::string& prefix) {
    for (const StepTimeRow& row : t.ledger)
        if (row.name.rfind(prefix, 0) == 0)
            return &row;
    return nullptr;
}

} // namespace

class TestCruncherStepTime : public QObject {
    Q_OBJECT
private slots:
    void ledgerFlopsAreTheRunsCount_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<bool>("drawTimed");
        QTest::newRow("lecture D=4 L=2 B=2 fp32") << 4 << 2 << 2 << "fp32" << true;
        QTest::newRow("D=256 L=2 B=256 fp32") << 256 << 256 << 2 << "fp32" << true;
        QTest::newRow("D=512 L=4 B=1024 mixed-bf16") << 512 << 1024 << 4 << "mixed-bf16" << true;
        QTest::newRow("D=1024 L=1 B=256 mixed-bf16") << 1024 << 256 << 1 << "mixed-bf16" << false;
        QTest::newRow("D=128 L=3 B=64 mixed-fp16 (device step)") << 128 << 64 << 3 << "mixed-fp16" << false;
        QTest::newRow("D=2048 L=8 B=32 tf32 (device step)") << 2048 << 32 << 8 << "tf32" << false;
    }
    void ledgerFlopsAreTheRunsCount() {
        QFETCH(int, dim);
        QFETCH(int, batch);
        QFETCH(int, layers);
        QFETCH(QString, recipe);
        QFETCH(bool, drawTimed);
        for (const OptimizerKind optimizer : {OptimizerKind::sgd, OptimizerKind::adam}) {
            const CruncherConfig c = cruncher(dim, batch, layers, recipe.toUtf8().constData(), optimizer);
            const StepTime t = predictCruncherStepTime(c, everyDtypeProfile(), drawTimed);
            QVERIFY2(t.predicted, t.whyNot.c_str());
            // 6·B·P − 2·B·D², P = L·D² + D: computed here, apart from the engine's own count.
            const double D = dim, B = batch, P = layers * D * D + D;
            QCOMPARE(ledgerFlops(t), 6 * B * P - 2 * B * D * D);
            QCOMPARE(rowStarting(t, "batch draw") != nullptr, drawTimed);
            double sum = 0;
            for (const StepTimeRow& row : t.ledger) {
                QVERIFY2(row.seconds > 0, row.name.c_str());
                QVERIFY2(!row.formula.empty(), row.name.c_str());
                sum += row.seconds;
            }
            QCOMPARE(t.seconds, sum);
        }
    }

    // A frozen layer issues no dW, and nothing below the lowest trained layer runs backward.
    void frozenLayersAreTheRunsCount() {
        CruncherConfig c = cruncher(64, 32, 4, "fp32", OptimizerKind::adagrad);
        c.frozenLayers = {1, 3};
        const StepTime t = predictCruncherStepTime(c, tinyProfile(), true);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        QCOMPARE(ledgerFlops(t), cruncherCountedFlopsPerStep(c));
        QVERIFY(ledgerFlops(t) < 6.0 * 32 * cruncherParameters(c) - 2.0 * 32 * 64 * 64);
    }

    // D = B = 64, L = 1, SGD, fp32, no draw, from tinyProfile: every row worked by hand.
    void rowsByHand_data() {
        QTest::addColumn<int>("dim");
        QTest::addColumn<QString>("row");
        QTest::addColumn<double>("seconds");
        // 2·64³ FLOPs at 64³'s 1e9 FLOP/s beat 3·64²·4 B at 1e9 B/s: compute-bound.
        QTest::newRow("layer forward") << 64 << "layer forward" << 2.0 * 64 * 64 * 64 / 1e9;
        // 2·64·64 FLOPs / 1e9 = 8.2 µs < (64·64 + 64 + 64)·4 B / 1e9 = 16.9 µs: memory-bound.
        QTest::newRow("head forward") << 64 << "head forward" << (64.0 * 64 + 64 + 64) * 4 / 1e9;
        QTest::newRow("head dX") << 64 << "head dX" << (64.0 + 64 + 64 * 64) * 4 / 1e9;
        QTest::newRow("MSE loss") << 64 << "MSE loss" << 64.0 * (2 * 4 + 4) / 1e9;
        // SGD: 4 B gradient + 8 B weights read and written per parameter.
        QTest::newRow("sgd update, layer") << 64 << "sgd update, layer" << 64.0 * 64 * 12 / 1e9;
        // 8 ops dispatched in all: forward 2, backward 4 (loss, dw, dX, dW), optimizer 2.
        QTest::newRow("overhead, backward") << 64 << "per-op overhead (backward)" << 4e-6;
        // 128³ = 2²¹ lies a third of the way from 2¹⁸ to 2²⁷ in log volume: 1e9 + (4e9 − 1e9)/3 = 2e9.
        QTest::newRow("layer forward, interpolated") << 128 << "layer forward" << 2.0 * 128 * 128 * 128 / 2e9;
    }
    void rowsByHand() {
        QFETCH(int, dim);
        QFETCH(QString, row);
        QFETCH(double, seconds);
        const StepTime t =
            predictCruncherStepTime(cruncher(dim, dim, 1, "fp32", OptimizerKind::sgd), tinyProfile(), false);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const StepTimeRow* found = rowStarting(t, row.toStdString());
        QVERIFY2(found, qPrintable(row));
        QCOMPARE(found->seconds, seconds);
    }

    void wholeStepByHand() {
        const StepTime t =
            predictCruncherStepTime(cruncher(64, 64, 1, "fp32", OptimizerKind::sgd), tinyProfile(), false);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const double layerGemm = 2.0 * 64 * 64 * 64 / 1e9;   // forward and dW
        const double headGemm = (64.0 * 64 + 128) * 4 / 1e9; // forward, dw and dX, memory-bound
        const double loss = 64.0 * 12 / 1e9, update = (64.0 * 64 + 64) * 12 / 1e9, overhead = 8e-6;
        QCOMPARE(t.seconds, 2 * layerGemm + 3 * headGemm + loss + update + overhead);
        QCOMPARE(t.basis, std::string("hand-made"));
    }

    void notPredicted_data() {
        QTest::addColumn<QString>("recipe");
        QTest::addColumn<bool>("bandwidth");
        QTest::addColumn<QString>("reason");
        QTest::newRow("mixed-bf16 without bf16 GEMMs") << "mixed-bf16" << true << "has no bf16 GEMM rate";
        QTest::newRow("tf32 without tf32 GEMMs") << "tf32" << true << "has no tf32 GEMM rate";
        QTest::newRow("mixed-fp16 without fp16 GEMMs") << "mixed-fp16" << true << "has no fp16 GEMM rate";
        QTest::newRow("no bandwidth") << "fp32" << false << "has no memory bandwidth";
        QTest::newRow("pure bf16: no trainer runs it")
            << "bf16" << true << "no Cruncher trainer runs this recipe";
    }
    void notPredicted() {
        QFETCH(QString, recipe);
        QFETCH(bool, bandwidth);
        QFETCH(QString, reason);
        HardwareProfile p = tinyProfile();
        if (!bandwidth)
            p.memoryBandwidthBytesPerSecond = 0;
        const StepTime t = predictCruncherStepTime(
            cruncher(64, 64, 2, recipe.toUtf8().constData(), OptimizerKind::adam), p, true);
        QVERIFY(!t.predicted);
        QVERIFY2(t.whyNot.find(reason.toStdString()) != std::string::npos, t.whyNot.c_str());
        QVERIFY(t.ledger.empty());
    }

    void profileMustBeTheRunsDevice() {
        DeviceInfo cpu;
        cpu.backend = "cpu";
        cpu.name = "Some CPU @ 2.0GHz";
        HardwareProfile p = tinyProfile();
        p.deviceName = cpu.name;
        QCOMPARE(cruncherProfileMismatch(p, cpu), std::string());
        p.deviceName = "Another CPU";
        QCOMPARE(cruncherProfileMismatch(p, cpu).rfind("device_name: ", 0), std::size_t{0});
        p.device = "H100-SXM";
        QCOMPARE(cruncherProfileMismatch(p, cpu),
                 std::string("device: the profile was measured on H100-SXM, this run is on this-cpu"));
        // A CPU profile calibrated at another thread count times another machine's GEMMs.
        p = tinyProfile();
        p.deviceName = cpu.name;
        p.threads = 2;
        cpu.threads = 1;
        QCOMPARE(cruncherProfileMismatch(p, cpu),
                 std::string("threads: the profile was measured with 2 thread(s), this run uses 1"));
        cpu.threads = 2;
        QCOMPARE(cruncherProfileMismatch(p, cpu), std::string());
        p.threads = 0; // not recorded (an older profile): taken as it is
        cpu.threads = 1;
        QCOMPARE(cruncherProfileMismatch(p, cpu), std::string());
        std::string whyNot;
        QVERIFY(!defaultCruncherProfile(cpu, whyNot));
        QCOMPARE(whyNot, std::string("no profile for this CPU (napkin-cli calibrate writes one)"));
    }

    void ratioAndLine() {
        TrainingRun run;
        run.request.config = cruncher(64, 64, 1, "fp32", OptimizerKind::sgd);
        run.stepTiming.medianSeconds = 1e-3;
        attachUnpredictedStep(run, "no profile for this CPU (napkin-cli calibrate writes one)");
        QVERIFY(!predictedOverMeasured(run));
        QCOMPARE(
            predictedStepLine(run),
            std::string("step: measured 1 ms, not predicted: no profile for this CPU (napkin-cli calibrate "
                        "writes one)"));
        attachPredictedStep(run, tinyProfile(), "tiny.json");
        QVERIFY2(run.predictedStep.predicted, run.predictedStep.whyNot.c_str());
        QVERIFY(rowStarting(run.predictedStep, "batch draw")); // the CPU's whole step includes the draw
        QCOMPARE(predictedOverMeasured(run).value_or(0), run.predictedStep.seconds / 1e-3);
        QCOMPARE(run.predictedStep.basis, std::string("tiny.json (hand-made)"));
        QVERIFY2(predictedStepLine(run).find(" from tiny.json (hand-made)") != std::string::npos,
                 predictedStepLine(run).c_str());
        // A device that times its own step (CUDA events) starts after the draw, and the ratio uses that step.
        run.deviceStepTiming = TimingSummary{};
        run.deviceStepTiming->medianSeconds = 5e-4;
        attachPredictedStep(run, tinyProfile(), "tiny.json");
        QVERIFY(!rowStarting(run.predictedStep, "batch draw"));
        QCOMPARE(predictedOverMeasured(run).value_or(0), run.predictedStep.seconds / 5e-4);
    }

    // A real CPU run beside a calibration made in this process: predicted, with a finite ratio. Its value
    // depends on the machine's load, so it is not asserted.
    // A profile that timed the trainer's own loops (napkin-cli calibrate on the CPU) prices the draw by its
    // normals and the update at the update's rate; without them the ledger says what is left out.
    void trainerLoopsAtTheirRates() {
        const CruncherConfig c = cruncher(64, 32, 1, "fp32", OptimizerKind::sgd);
        const StepTime bytesOnly = predictCruncherStepTime(c, tinyProfile(), true);
        QVERIFY2(bytesOnly.predicted, bytesOnly.whyNot.c_str());
        QCOMPARE(int(std::count_if(bytesOnly.notModelled.begin(), bytesOnly.notModelled.end(),
                                   [](const std::string& line) {
                                       return line.find("batch draw") != std::string::npos ||
                                              line.find("optimizer's arithmetic") != std::string::npos;
                                   })),
                 2);
        HardwareProfile p = tinyProfile();
        p.normalDrawsPerSecond = 1e6; // 32·64 draws: 2.048 ms, far above the bytes' 8.6 µs
        p.updates = {{OptimizerKind::sgd, OptimizerImplementation::fused, StorageType::fp32, 4096, 1e8}};
        const StepTime t = predictCruncherStepTime(c, p, true);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const StepTimeRow* draw = rowStarting(t, "batch draw");
        QVERIFY(draw);
        QCOMPARE(draw->seconds, 32.0 * 64 / 1e6);
        QCOMPARE(int(draw->kind), int(StepTimeKind::compute));
        // SGD's 12 B per parameter of the 64² layer at the update's 1e8 B/s, not the bandwidth's 1e9.
        const StepTimeRow* update = rowStarting(t, "sgd update, layer");
        QVERIFY(update);
        QCOMPARE(update->seconds, 64.0 * 64 * 12 / 1e8);
        QVERIFY(t.notModelled.size() + 2 == bytesOnly.notModelled.size());
        // Another optimizer's rate is not this one's.
        p.updates.front().optimizer = OptimizerKind::adam;
        QCOMPARE(rowStarting(predictCruncherStepTime(c, p, true), "sgd update, layer")->seconds,
                 64.0 * 64 * 12 / 1e9);
    }

    void cpuRunCalibratedHere() {
        std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu");
        QVERIFY(backend);
        CalibrationOptions options;
        options.dtypes = {BenchDtype::fp32};
        options.shapes = {{32, 32, 32}, {64, 64, 64}};
        options.repeats = 1;
        options.bandwidthBytesPerArray = 1 << 20;
        std::string whyNot;
        const std::optional<CalibrationRun> calibration = runCalibration(*backend, options, &whyNot);
        QVERIFY2(calibration, whyNot.c_str());
        // The trainer's own loops were timed with it: the draw, and an update per optimizer.
        QVERIFY(calibration->profile.normalDrawsPerSecond > 0);
        QCOMPARE(calibration->profile.updates.size(), allOptimizers().size());
        const HardwareProfileRead back = hardwareProfileFromJson(hardwareProfileToJson(calibration->profile));
        QVERIFY2(back.profile, back.error.c_str());
        QCOMPARE(back.profile->normalDrawsPerSecond, calibration->profile.normalDrawsPerSecond);
        QVERIFY(calibration->profile.threads > 0);
        QCOMPARE(back.profile->threads, calibration->profile.threads);
        TrainingRunRequest request;
        request.config = cruncher(64, 32, 2, "fp32", OptimizerKind::adagrad);
        request.steps = 3;
        TrainingRun run = runCruncherTraining(*backend, request);
        QCOMPARE(cruncherProfileMismatch(calibration->profile, run.device), std::string());
        attachPredictedStep(run, calibration->profile, "this run's calibration");
        QVERIFY2(run.predictedStep.predicted, run.predictedStep.whyNot.c_str());
        const double ratio = predictedOverMeasured(run).value_or(0);
        QVERIFY(ratio > 0 && std::isfinite(ratio));
    }
};

QTEST_APPLESS_MAIN(TestCruncherStepTime)
#include "tst_cruncher_step_time.moc"

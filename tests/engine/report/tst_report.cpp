// SPDX-License-Identifier: GPL-3.0-or-later
// engine/report: the conventions of every document (whole numbers as integers, null for what does not
// apply, CSV quoting and shortest exact numbers), and the benchmark documents built from made-up results:
// a sweep keeps the method it was measured with, a failed case keeps its message, the CSVs have their
// header and one row per case or step.
#include "engine/report/csv_values.h"
#include "engine/report/json_values.h"
#include "engine/report/matmul_report.h"
#include "engine/report/training_report.h"

#include <QtTest>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

using namespace napkin;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

MatmulSweep madeUpSweep() {
    MatmulSweep sweep;
    sweep.device.backend = "cpu";
    sweep.device.name = "test CPU";
    sweep.device.promisedFlopsPerSecond["fp32"] = 1e11;
    sweep.options.repeats = 7;
    sweep.options.seed = 5;
    MatmulResult ok;
    ok.shape = {64, 64, 64, BenchDtype::fp32};
    ok.ok = true;
    ok.flops = 2.0 * 64 * 64 * 64;
    ok.timing.medianSeconds = 0.25;
    ok.timing.samples = 7;
    ok.flopsPerSecond = ok.flops / 0.25;
    ok.promisedFlopsPerSecond = 1e11;
    ok.mfu = ok.flopsPerSecond / 1e11;
    ok.verifiedEntries = 64;
    MatmulResult failed;
    failed.shape = {32, 32, 32, BenchDtype::fp64};
    failed.flops = 65536;
    failed.error = "fp64: no, \"really\"";
    sweep.results = {ok, failed};
    return sweep;
}

} // namespace

class TestReport : public QObject {
    Q_OBJECT
private slots:
    void jsonNumbers_data();
    void jsonNumbers();
    void csvNumbersAndFields_data();
    void csvNumbersAndFields();
    void sweepJsonKeepsItsMethod();
    void sweepCsvHasARowPerCase();
    void gpuSweepSaysWhereItsDataComeFrom();
    void trainingCsvHasItsSections();
    void trainingTimelineMeasuredOrNull();
    void trainingSplitsGpuFromHostTime();
    void deviceComponentsAreAttributed();
};

void TestReport::jsonNumbers_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("GPT-2 small's parameters, an integer") << 124439808.0 << "124439808";
    QTest::newRow("a fraction stays a double") << 0.5 << "0.5";
    QTest::newRow("2^53 - 1 is still exact") << 9007199254740991.0 << "9007199254740991";
    QTest::newRow("6.3e24 FLOPs, beyond 2^53") << 6.3e24 << "6.3e+24";
    QTest::newRow("negative whole") << -3.0 << "-3";
}

void TestReport::jsonNumbers() {
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(jsonNumber(value).dump()), text);
}

void TestReport::csvNumbersAndFields_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("expected");
    QTest::newRow("shortest exact 0.1") << QString::fromStdString(csvNumber(0.1)) << "0.1";
    QTest::newRow("whole number") << QString::fromStdString(csvNumber(65536)) << "65536";
    QTest::newRow("large") << QString::fromStdString(csvNumber(6.3e24)) << "6.3e+24";
    QTest::newRow("unset is empty") << QString::fromStdString(csvOptional(std::nullopt)) << "";
    QTest::newRow("plain text") << QString::fromStdString(csvField("ok")) << "ok";
    QTest::newRow("a comma is quoted") << QString::fromStdString(csvField("a,b")) << "\"a,b\"";
    QTest::newRow("quotes doubled") << QString::fromStdString(csvField("say \"hi\"")) << "\"say \"\"hi\"\"\"";
}

void TestReport::csvNumbersAndFields() {
    QFETCH(QString, field);
    QFETCH(QString, expected);
    QCOMPARE(field, expected);
}

void TestReport::sweepJsonKeepsItsMethod() {
    const nlohmann::json doc = matmulSweepJson(madeUpSweep());
    QCOMPARE(doc["benchmark"].get<std::string>(), std::string("matmul"));
    QCOMPARE(doc["method"]["repeats"].get<int>(), 7);
    QVERIFY(doc["method"]["data"].get<std::string>().find("seeded with 5") != std::string::npos);
    QCOMPARE(doc["method"]["timer"].get<std::string>(), std::string("std::chrono::steady_clock"));
    QCOMPARE(doc["device"]["promised_flops_per_second"]["fp32"].get<double>(), 1e11);
    const auto& ok = doc["results"][0];
    QCOMPARE(ok["flops"].dump(), std::string("524288")); // an integer, not 524288.0
    QVERIFY(ok["error"].is_null());
    QCOMPARE(ok["verified_entries"].get<int>(), 64);
    const auto& failed = doc["results"][1];
    QVERIFY(!failed["ok"].get<bool>());
    QCOMPARE(failed["error"].get<std::string>(), std::string("fp64: no, \"really\""));
    QVERIFY(!failed.contains("seconds_median")); // measured fields only for a measured case
    QVERIFY(jsonText(doc).back() == '\n');
}

// On a GPU the inputs are drawn on the device (splitmix64), the first case spins the clock up, and fp8's
// C is bf16: 2 bytes in the roofline's bytes, not 1. n = 64: (2·64²·1 + 64²·2) = 16384 B, 2·64³ / 16384 = 32.
void TestReport::gpuSweepSaysWhereItsDataComeFrom() {
    MatmulSweep sweep;
    sweep.device.backend = "cuda";
    MatmulResult fp8;
    fp8.shape = {64, 64, 64, BenchDtype::fp8e4m3};
    fp8.flops = 2.0 * 64 * 64 * 64;
    fp8.error = "not run";
    sweep.results = {fp8};
    const nlohmann::json doc = matmulSweepJson(sweep);
    const std::string data = doc["method"]["data"].get<std::string>();
    QVERIFY2(data.find("splitmix64") != std::string::npos && data.find("mt19937") == std::string::npos,
             data.c_str());
    QVERIFY(doc["method"]["warmup"].get<std::string>().find("back to back") != std::string::npos);
    QCOMPARE(doc["results"][0]["bytes"].dump(), std::string("16384"));
    QCOMPARE(doc["results"][0]["arithmetic_intensity"].get<double>(), 32.0);
}

void TestReport::sweepCsvHasARowPerCase() {
    const std::vector<std::string> rows = lines(matmulSweepCsv(madeUpSweep()));
    QCOMPARE(rows.size(), std::size_t{3});
    QVERIFY(rows[0].rfind("dtype,m,n,k,ok,flops,seconds_median", 0) == 0);
    QVERIFY(rows[1].rfind("fp32,64,64,64,true,524288,0.25,", 0) == 0);
    // The failed case: its measured fields empty, its message quoted because it holds a comma.
    QVERIFY(rows[2].rfind("fp64,32,32,32,false,65536,,", 0) == 0);
    QVERIFY(rows[2].find("\"fp64: no, \"\"really\"\"\"") != std::string::npos);
}

void TestReport::trainingCsvHasItsSections() {
    TrainingRun run;
    run.request.config.dim = 4;
    run.request.config.layers = 2;
    run.request.config.batch = 2;
    run.request.steps = 3;
    run.firstStep = 6; // resumed after five steps
    run.losses = {0.5, 0.25, 0.125};
    run.memory.total = {496, 496};
    const std::vector<std::string> rows = lines(trainingRunCsv(run));
    QVERIFY(rows[0].rfind("section,dim,layers,batch,steps,optimizer", 0) == 0);
    QVERIFY(rows[1].rfind("run,4,2,2,3,adagrad,", 0) == 0);
    QVERIFY(std::find(rows.begin(), rows.end(), "memory,total,496,496") != rows.end());
    QCOMPARE(rows.back(), std::string("loss,8,0.125")); // steps numbered from where the run began
}

// The timeline of a run: predicted and measured totals per event; a trainer that records no events
// (the CUDA trainer) leaves measured_bytes null and the timeline not in agreement.
void TestReport::trainingTimelineMeasuredOrNull() {
    TrainingRun run;
    run.request.config.dim = 4; // the lecture's Cruncher: D = 4, L = 2, B = 2, AdaGrad
    run.memory.predictedTimeline = memoryTimeline(cruncherAccountingInput(run.request.config),
                                                  predictedCruncherAccounting(run.request.config));
    run.memory.measuredTimeline = run.memory.predictedTimeline.events;
    run.memory.peakMeasuredBytes = 464;
    nlohmann::json doc = trainingRunJson(run)["memory"];
    QCOMPARE(doc["timeline"].size(), std::size_t(10));
    QCOMPARE(doc["timeline"][6]["event"].get<std::string>(), std::string("backward layer 2"));
    QCOMPARE(doc["timeline"][6]["phase"].get<std::string>(), std::string("backward"));
    QCOMPARE(doc["timeline"][6]["predicted_bytes"].dump(), std::string("464"));
    QCOMPARE(doc["timeline"][6]["measured_bytes"].dump(), std::string("464"));
    QCOMPARE(doc["timeline_agree"].get<bool>(), true);
    QCOMPARE(doc["timeline_step"].get<std::string>(), std::string("steady"));
    QCOMPARE(doc["peak_predicted_event"].get<std::string>(), std::string("backward layer 2"));
    QCOMPARE(doc["peak_measured_event"].get<std::string>(), std::string("backward layer 2"));
    const std::vector<std::string> rows = lines(trainingRunCsv(run));
    QVERIFY(std::find(rows.begin(), rows.end(), "timeline,backward layer 2,backward,464,464") != rows.end());

    run.memory.measuredTimeline.clear();
    doc = trainingRunJson(run)["memory"];
    QVERIFY(doc["timeline"][6]["measured_bytes"].is_null());
    QCOMPARE(doc["timeline_agree"].get<bool>(), false);
    QVERIFY(doc["peak_measured_event"].is_null());
    const std::vector<std::string> unmeasured = lines(trainingRunCsv(run));
    QVERIFY(std::find(unmeasured.begin(), unmeasured.end(), "timeline,start,start,288,") != unmeasured.end());
}

// A GPU run: MFU over the GPU's step time, the host's share beside it; a CPU run keeps those fields null.
void TestReport::trainingSplitsGpuFromHostTime() {
    TrainingRun run;
    run.stepTiming.medianSeconds = 0.5;
    run.deviceStepTiming = TimingSummary{0.03, 0.029, 0.031, 0.028, 0.032, 19};
    run.batchDrawSecondsMedian = 0.0004;
    run.mfu = 0.6;
    run.wallMfu = 0.036;
    run.mfuBasis = "gpu_step_seconds_median (CUDA events)";
    nlohmann::json doc = trainingRunJson(run);
    QCOMPARE(doc["gpu_step_seconds_median"].get<double>(), 0.03);
    QCOMPARE(doc["gpu_step_seconds_p80"].get<double>(), 0.031);
    QCOMPARE(doc["batch_draw_seconds_median"].get<double>(), 0.0004);
    QVERIFY(!doc.contains("host_wait_seconds_median")); // the host draws nothing: the batch is drawn on the GPU
    QCOMPARE(doc["wall_mfu"].get<double>(), 0.036);
    QVERIFY(doc["mfu_basis"].get<std::string>().rfind("gpu_step_seconds_median", 0) == 0);
    run.deviceStepTiming.reset();
    run.batchDrawSecondsMedian.reset();
    doc = trainingRunJson(run);
    QVERIFY(doc["gpu_step_seconds_median"].is_null());
    QVERIFY(doc["batch_draw_seconds_median"].is_null());
}

// Per component on a GPU: the prediction (where the formula has one), what was asked of cudaMalloc,
// cudaMemGetInfo's drop and why they differ.
void TestReport::deviceComponentsAreAttributed() {
    TrainingRun run;
    run.memory.parameters = {72, 72};
    run.memory.deviceAllocations = {{"parameters", 72, 2, 2097152},
                                    {"gradients", 72, 2, 0},
                                    {"inputs", 32, 3, 32},
                                    {"first step (not the trainer's: cuBLAS workspace)", 0, 0, 4194304}};
    const nlohmann::json c = trainingRunJson(run)["memory"]["device_components"];
    QCOMPARE(c.size(), std::size_t(4));
    QCOMPARE(c[0]["predicted_bytes"].dump(), std::string("72"));
    QCOMPARE(c[0]["difference_bytes"].dump(), std::string("2097080"));
    QVERIFY(c[0]["attribution"].get<std::string>().find("granularity") != std::string::npos);
    QVERIFY(c[1]["attribution"].get<std::string>().find("already mapped") != std::string::npos ||
            c[1]["attribution"].get<std::string>().find("an earlier component") != std::string::npos);
    QVERIFY(c[2]["predicted_bytes"].is_null()); // the formula has no inputs
    QCOMPARE(c[2]["attribution"].get<std::string>(), std::string("equal"));
    QVERIFY(c[3]["attribution"].get<std::string>().find("not allocated by the trainer") != std::string::npos);
    run.memory.deviceAllocations.clear(); // the CPU
    QVERIFY(trainingRunJson(run)["memory"]["device_components"].empty());
}

QTEST_APPLESS_MAIN(TestReport)
#include "tst_report.moc"

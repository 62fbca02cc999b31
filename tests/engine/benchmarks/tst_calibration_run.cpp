// SPDX-License-Identifier: GPL-3.0-or-later
// `napkin-cli calibrate`'s service: a CPU calibration writes a profile the reader takes back whole, with
// one GEMM rate per shape and dtype run, a bandwidth and a per-op overhead, each with its source. No time
// is asserted: only that each figure was measured (positive and finite).
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/calibration_run.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

class TestCalibrationRun : public QObject {
    Q_OBJECT
private slots:
    void cpuProfileReadsBack() {
        std::unique_ptr<BenchmarkBackend> backend = makeBackend("cpu");
        QVERIFY(backend);
        CalibrationOptions options;
        options.dtypes = {BenchDtype::fp32};
        options.shapes = {{16, 16, 16}, {48, 32, 64}};
        options.repeats = 1;
        options.bandwidthBytesPerArray = 1 << 20;
        std::string whyNot;
        const std::optional<CalibrationRun> run = runCalibration(*backend, options, &whyNot);
        QVERIFY2(run, whyNot.c_str());
        const HardwareProfile p = run.value_or(CalibrationRun{}).profile;
        QCOMPARE(p.device, std::string("this-cpu"));
        QCOMPARE(p.gemms.size(), std::size_t{2});
        QCOMPARE(p.gemms[1].m, 48.0);
        QCOMPARE(p.gemms[1].k, 64.0);
        for (const GemmRate& g : p.gemms)
            QVERIFY(g.flopsPerSecond > 0 && std::isfinite(g.flopsPerSecond));
        QVERIFY(p.memoryBandwidthBytesPerSecond > 0);
        QVERIFY(p.perOpOverheadSeconds > 0);
        QVERIFY(!p.source.empty() && !p.bandwidthSource.empty() && !p.overheadSource.empty());
        const HardwareProfileRead read = hardwareProfileFromJson(hardwareProfileToJson(p));
        QVERIFY2(read.profile, read.error.c_str());
        QVERIFY(read.profile.value_or(HardwareProfile{}) == p);
        // The CPU's catalog entry: its fp32 peak the best rate measured, bf16 not given.
        const GpuSpec entry = cpuCatalogEntry(p);
        QCOMPARE(entry.id, std::string("this-cpu"));
        QCOMPARE(entry.densePeakFp32, std::max(p.gemms[0].flopsPerSecond, p.gemms[1].flopsPerSecond));
        QVERIFY(densePeakGiven(entry, ComputeType::fp32));
        QVERIFY(!densePeakGiven(entry, ComputeType::bf16));
    }
};

QTEST_APPLESS_MAIN(TestCalibrationRun)
#include "tst_calibration_run.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The CPU backend's GEMM and the sweep runner: FLOP counts, results against a naive reference,
// failing cases recorded, cancellation.
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/compute/cpu/cpu_backend.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::BenchDtype)

namespace {
CpuBackendOptions noPeak() {
    CpuBackendOptions o;
    o.measurePeak = false; // the FMA loop is a measurement, not needed to check arithmetic
    return o;
}
MatmulRunOptions quick() {
    MatmulRunOptions o;
    o.repeats = 2;
    o.maxWarmupRuns = 2;
    o.minSampleSeconds = 0;
    return o;
}
} // namespace

class TestCpuMatmul : public QObject {
    Q_OBJECT
private slots:
    void flopCount_data();
    void flopCount();
    void matchesNaiveReference_data();
    void matchesNaiveReference();
    void sweepRecordsFailuresAndGoesOn();
    void cancelStopsTheSweep();
    void eachCaseIsReportedAsItFinishes();
    void cancelStopsALongGemmBetweenPanels();
    void cudaIsListedWithAReason();
    void cpuBackendsAreListedWithAReason();
    void deviceTimedProblemsReportDeviceSeconds();
};

void TestCpuMatmul::flopCount_data() {
    QTest::addColumn<long>("m");
    QTest::addColumn<long>("n");
    QTest::addColumn<long>("k");
    QTest::addColumn<double>("flops");
    QTest::newRow("2x2x2") << 2L << 2L << 2L << 16.0;
    QTest::newRow("512^3") << 512L << 512L << 512L << 268435456.0;
    QTest::newRow("2048^3") << 2048L << 2048L << 2048L << 17179869184.0;
    QTest::newRow("4096x4096x1024") << 4096L << 4096L << 1024L << 34359738368.0;
    QTest::newRow("GPT-3 FFN 16384x49152x12288") << 16384L << 49152L << 12288L << 19791209299968.0;
}

void TestCpuMatmul::flopCount() {
    QFETCH(long, m);
    QFETCH(long, n);
    QFETCH(long, k);
    QFETCH(double, flops);
    QCOMPARE(matmulFlops({m, n, k, BenchDtype::fp32}), flops);
}

void TestCpuMatmul::matchesNaiveReference_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<long>("m");
    QTest::addColumn<long>("n");
    QTest::addColumn<long>("k");
    QTest::addColumn<double>("tolerance"); // |c − ref| ≤ tolerance · Σ|a·b|
    // fp32/fp64: a few units of eps; 16-bit: Eigen rounds every partial sum to 16 bits, so the error
    // grows with k: bf16 eps 2^-8, fp16 eps 2^-11.
    QTest::newRow("fp32 1x1x1") << BenchDtype::fp32 << 1L << 1L << 1L << 1e-6;
    QTest::newRow("fp32 7x5x3") << BenchDtype::fp32 << 7L << 5L << 3L << 1e-6;
    QTest::newRow("fp32 65x33x129") << BenchDtype::fp32 << 65L << 33L << 129L << 1e-6;
    QTest::newRow("fp32 200x300x70 (panels)") << BenchDtype::fp32 << 200L << 300L << 70L << 1e-6;
    QTest::newRow("fp64 33x17x65") << BenchDtype::fp64 << 33L << 17L << 65L << 1e-14;
    QTest::newRow("bf16 16x16x16") << BenchDtype::bf16 << 16L << 16L << 16L << 0.05;
    QTest::newRow("fp16 16x16x16") << BenchDtype::fp16 << 16L << 16L << 16L << 0.01;
}

void TestCpuMatmul::matchesNaiveReference() {
    QFETCH(BenchDtype, dtype);
    QFETCH(long, m);
    QFETCH(long, n);
    QFETCH(long, k);
    QFETCH(double, tolerance);
    CpuBackend backend(noPeak());
    auto problem = backend.prepareMatmul({m, n, k, dtype}, 7);
    QVERIFY(problem->run({}));
    const auto s = problem->snapshot();
    QCOMPARE(s.c.size(), static_cast<std::size_t>(m * n));
    double worst = 0;
    for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) {
            long double ref = 0, scale = 0;
            for (long p = 0; p < k; ++p) { // column-major: A(i,p) = a[i + p·m], B(p,j) = b[p + j·k]
                const long double term = static_cast<long double>(s.a[static_cast<std::size_t>(i + p * m)]) *
                                         s.b[static_cast<std::size_t>(p + j * k)];
                ref += term;
                scale += std::fabs(term);
            }
            worst = std::max(worst, static_cast<double>(
                                        std::fabs(s.c[static_cast<std::size_t>(i + j * m)] - ref) / scale));
        }
    QVERIFY2(worst <= tolerance, qPrintable(QString("max error %1 > %2").arg(worst).arg(tolerance)));
    // The sampled check the benchmark reports agrees with the full one (it can only be smaller).
    QVERIFY(problem->maxRelativeError(64, 1) <= worst + 1e-18);
}

void TestCpuMatmul::sweepRecordsFailuresAndGoesOn() {
    CpuBackend backend(noPeak());
    const std::vector<MatmulCase> cases = {{16, 16, 16, BenchDtype::fp32},
                                           {16, 16, 16, BenchDtype::tf32},
                                           {16, 16, 16, BenchDtype::fp8e4m3},
                                           {0, 16, 16, BenchDtype::fp32},
                                           {16, 8, 4, BenchDtype::fp64}};
    const MatmulSweep sweep = runMatmulSweep(backend, cases, quick());
    QVERIFY(!sweep.cancelled);
    QCOMPARE(sweep.results.size(), cases.size());
    QVERIFY(sweep.results[0].ok);
    QVERIFY(!sweep.results[1].ok);
    QVERIFY(QString::fromStdString(sweep.results[1].error).contains("--dtype tf32"));
    QVERIFY(!sweep.results[2].ok);
    QVERIFY(QString::fromStdString(sweep.results[2].error).contains("fp8"));
    QVERIFY(!sweep.results[3].ok);
    QVERIFY(sweep.results[4].ok);
    QCOMPARE(sweep.results[4].flops, 2.0 * 16 * 8 * 4);
    QVERIFY(sweep.results[4].maxRelError < 1e-14);
    QCOMPARE(sweep.results[4].timing.samples, 2);
}

void TestCpuMatmul::cancelStopsTheSweep() {
    CpuBackend backend(noPeak());
    const std::vector<MatmulCase> cases(4, MatmulCase{32, 32, 32, BenchDtype::fp32});
    int calls = 0;
    QStringList phases;
    // Let the first case finish, cancel in the middle of the second one's timing.
    const MatmulSweep sweep = runMatmulSweep(backend, cases, quick(), [&](const BenchmarkProgress& p) {
        ++calls;
        phases << QString::fromStdString(p.phase);
        return !(p.caseIndex == 1 && p.phase == "timing");
    });
    QVERIFY(sweep.cancelled);
    QCOMPARE(sweep.results.size(), std::size_t{1});
    QVERIFY(sweep.results[0].ok);
    QVERIFY(phases.contains("warm-up") || phases.contains("timing"));
    QCOMPARE(phases.last(), QString("timing"));
    QVERIFY(calls > 2);
}

// A front end shows each case as it lands (the Benchmarks page's chart grows): the sweep reports every
// finished case once, in order, with the result it then returns; a "no" to the last report cancels nothing.
void TestCpuMatmul::eachCaseIsReportedAsItFinishes() {
    CpuBackend backend(noPeak());
    const std::vector<MatmulCase> cases{{16, 16, 16, BenchDtype::fp32}, {8, 8, 8, BenchDtype::fp64}};
    std::vector<MatmulResult> reported;
    std::vector<double> fractions;
    std::vector<int> indices;
    std::vector<std::string> phases;
    const MatmulSweep sweep = runMatmulSweep(backend, cases, quick(), [&](const BenchmarkProgress& p) {
        if (!p.finishedCase)
            return true;
        reported.push_back(*p.finishedCase);
        fractions.push_back(p.fraction);
        indices.push_back(p.caseIndex);
        phases.push_back(p.phase);
        return p.caseIndex + 1 < p.caseCount; // "stop" only once every case ran
    });
    QVERIFY(!sweep.cancelled);
    QCOMPARE(reported.size(), std::size_t{2});
    QCOMPARE(fractions, std::vector<double>({0.5, 1.0}));
    QCOMPARE(indices, std::vector<int>({0, 1}));
    QCOMPARE(phases, std::vector<std::string>({"done", "done"}));
    for (std::size_t i = 0; i < 2; ++i) {
        QCOMPARE(reported[i].shape.n, sweep.results[i].shape.n);
        QCOMPARE(reported[i].flopsPerSecond, sweep.results[i].flopsPerSecond);
        QCOMPARE(reported[i].ok, sweep.results[i].ok);
    }
}

void TestCpuMatmul::cancelStopsALongGemmBetweenPanels() {
    // A 512³ bf16 GEMM is split into 0.1 GFLOP column panels (3 here): a cancel is noticed after the
    // first panel, not after the whole product.
    CpuBackend backend(noPeak());
    auto problem = backend.prepareMatmul({512, 512, 512, BenchDtype::bf16}, 3);
    int asked = 0;
    QVERIFY(!problem->run([&] {
        ++asked;
        return false;
    }));
    QCOMPARE(asked, 1);
    int askedWhenKeptGoing = 0;
    QVERIFY(problem->run([&] {
        ++askedWhenKeptGoing;
        return true;
    }));
    QCOMPARE(askedWhenKeptGoing, 2); // between 3 panels
}

void TestCpuMatmul::cudaIsListedWithAReason() {
    bool sawCpu = false, sawCuda = false, cudaAvailable = false;
    for (const BackendEntry& e : listBackends()) {
        if (e.name == "cpu") {
            sawCpu = true;
            QVERIFY(e.available);
        }
        if (e.name == "cuda") {
            sawCuda = true;
            cudaAvailable = e.available;
            QCOMPARE(e.unavailableReason.empty(), e.available); // a reason exactly when unavailable
        }
    }
    QVERIFY(sawCpu && sawCuda);
    std::string why;
    if (!cudaAvailable) { // no CUDA backend in this build, or no GPU here
        QVERIFY(makeBackend("cuda", &why) == nullptr);
        QVERIFY(QString::fromStdString(why).contains("CUDA"));
    }
    QVERIFY(makeBackend("tpu", &why) == nullptr);
    QVERIFY(QString::fromStdString(why).contains("unknown"));
    QVERIFY(makeBackend("cpu") != nullptr);
}

void TestCpuMatmul::cpuBackendsAreListedWithAReason() {
    const std::vector<BackendEntry> cpu = listCpuBackends();
    QCOMPARE(cpu.size(), std::size_t{2});
    QCOMPARE(cpu[0].name, std::string("onednn"));
    QCOMPARE(cpu[0].unavailableReason.empty(), cpu[0].available);
    QCOMPARE(cpu[1].name, std::string("eigen"));
    QVERIFY(cpu[1].available); // the portable fallback is always built
    QCOMPARE(defaultCpuBackend(), cpu[0].available ? CpuBackendKind::onednn : CpuBackendKind::eigen);
    BackendOptions onednn;
    onednn.cpuBackend = CpuBackendKind::onednn;
    std::string why;
    auto backend = makeBackend("cpu", onednn, &why);
    QCOMPARE(backend != nullptr, cpu[0].available);
    if (!cpu[0].available) // a build without oneDNN says why, and the default cpu backend is Eigen
        QVERIFY2(QString::fromStdString(why).contains("no oneDNN"), why.c_str());
    BackendOptions eigen;
    eigen.cpuBackend = CpuBackendKind::eigen;
    auto e = makeBackend("cpu", eigen);
    QVERIFY(e != nullptr);
    QVERIFY(e->unsupportedReason(BenchDtype::fp64).empty());
}

namespace {
// A problem that times itself "on a device": the runner must report its seconds, not the host clock's.
class DeviceTimedProblem final : public MatmulProblem {
public:
    explicit DeviceTimedProblem(int* hostRuns)
        : hostRuns_(hostRuns) {}
    bool run(const KeepGoing&) override {
        ++*hostRuns_;
        return true;
    }
    double maxRelativeError(int, std::uint64_t) const override { return 0; }
    Snapshot snapshot() const override { return {}; }
    std::optional<double> timedRun(int calls, const KeepGoing&) override {
        ++timedCalls;
        return 0.25 + 0.0 * calls;
    }
    int timedCalls = 0;

private:
    int* hostRuns_;
};

class DeviceTimedBackend final : public BenchmarkBackend {
public:
    DeviceInfo deviceInfo() const override {
        DeviceInfo d;
        d.backend = "fake";
        d.promisedFlopsPerSecond["fp32"] = 2.0 * 1000 * 1000 * 1000 / 0.25 * 4; // MFU 0.25 at 0.25 s
        return d;
    }
    std::string unsupportedReason(BenchDtype) const override { return {}; }
    std::unique_ptr<MatmulProblem> prepareMatmul(const MatmulCase&, std::uint64_t) override {
        return std::make_unique<DeviceTimedProblem>(&hostRuns);
    }
    std::unique_ptr<CruncherTrainer> makeCruncherTrainer(const CruncherConfig&) override { return nullptr; }
    int hostRuns = 0;
};
} // namespace

void TestCpuMatmul::deviceTimedProblemsReportDeviceSeconds() {
    DeviceTimedBackend backend;
    MatmulRunOptions o = quick();
    o.repeats = 5;
    o.minSampleSeconds = 0.002;
    const MatmulSweep sweep = runMatmulSweep(backend, {{1000, 1000, 1000, BenchDtype::fp32}}, o);
    QCOMPARE(sweep.results.size(), std::size_t{1});
    const MatmulResult& r = sweep.results[0];
    QVERIFY2(r.ok, r.error.c_str());
    QCOMPARE(r.timing.medianSeconds, 0.25);
    QCOMPARE(r.timing.p20Seconds, 0.25);
    QCOMPARE(r.callsPerSample, 1);
    QCOMPARE(r.flopsPerSecond, 2e9 / 0.25);
    QVERIFY(r.mfu.has_value());
    QCOMPARE(*r.mfu, 0.25);
    QCOMPARE(backend.hostRuns, 0); // never timed through run() with the host clock
}

QTEST_APPLESS_MAIN(TestCpuMatmul)
#include "tst_cpu_matmul.moc"

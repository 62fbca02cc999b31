// The CUDA backend on a real GPU (label "gpu"; every test skips where no device is present):
// GEMMs of every dtype against an independent reference, the fp8 algorithm cache, out-of-memory as a
// result, and the Cruncher trainer against the CPU trainer (same data, same update rules).
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/compute/cpu/cpu_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_backend.h"
#include "engine/compute/cuda/cuda_copy_factory.h"
#include "engine/compute/cuda/cuda_cruncher_trainer.h"
#include "engine/compute/cuda/cuda_device_query.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::BenchDtype)
Q_DECLARE_METATYPE(napkin::OptimizerKind)

namespace {
#define NAPKIN_REQUIRE_GPU()                                                                                 \
    do {                                                                                                     \
        if (const std::string why = cuda::noDeviceReason(); !why.empty())                                    \
            QSKIP(why.c_str());                                                                              \
    } while (0)

MatmulRunOptions quick() {
    MatmulRunOptions o;
    o.repeats = 3;
    o.maxWarmupRuns = 3;
    o.minSampleSeconds = 0;
    return o;
}
} // namespace

class TestCudaGpu : public QObject {
    Q_OBJECT
private slots:
    void deviceInfoIsFilled();
    void gemmMatchesReference_data();
    void gemmMatchesReference();
    void fp8CachesItsAlgorithm();
    void outOfMemoryIsAResult();
    void trainerMatchesCpu_data();
    void trainerMatchesCpu();
    void checkpointRoundTrip();
    void copySweepHasEveryCase();
    void allocCheckCountsTwoTensors();
};

void TestCudaGpu::deviceInfoIsFilled() {
    NAPKIN_REQUIRE_GPU();
    cuda::CudaBackend backend(0);
    const DeviceInfo d = backend.deviceInfo();
    QCOMPARE(d.backend, std::string("cuda"));
    QVERIFY(!d.name.empty());
    QVERIFY(d.cores > 0);
    QVERIFY(d.clockHz && *d.clockHz > 1e8);
}

void TestCudaGpu::gemmMatchesReference_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<double>(
        "tolerance"); // on |c − ref| / Σ|a·b|: the output format's unit roundoff, roughly
    QTest::newRow("fp32") << BenchDtype::fp32 << 1e-6;
    QTest::newRow("fp64") << BenchDtype::fp64 << 1e-14;
    QTest::newRow("tf32") << BenchDtype::tf32
                          << 4e-3; // inputs cut to 10 mantissa bits: ≤ 2·2^-10 per product
    QTest::newRow("fp16") << BenchDtype::fp16 << 2e-3;
    QTest::newRow("bf16") << BenchDtype::bf16 << 1e-2;
    QTest::newRow("fp8-e4m3") << BenchDtype::fp8e4m3 << 1e-2; // exact products, bf16 output
}

void TestCudaGpu::gemmMatchesReference() {
    NAPKIN_REQUIRE_GPU();
    QFETCH(BenchDtype, dtype);
    QFETCH(double, tolerance);
    cuda::CudaBackend backend(0);
    if (const std::string why = backend.unsupportedReason(dtype); !why.empty())
        QSKIP(why.c_str());
    const MatmulCase shape{48, 32, 64, dtype};
    auto problem = backend.prepareMatmul(shape, 7);
    QVERIFY(problem->run({}));
    const auto snap = problem->snapshot();
    double worst = 0;
    for (long i = 0; i < shape.m; ++i)
        for (long j = 0; j < shape.n; ++j) {
            long double ref = 0, scale = 0;
            for (long p = 0; p < shape.k; ++p) {
                const long double t =
                    static_cast<long double>(snap.a[static_cast<std::size_t>(i + p * shape.m)]) *
                    snap.b[static_cast<std::size_t>(p + j * shape.k)];
                ref += t;
                scale += std::fabs(t);
            }
            const double err = static_cast<double>(
                std::fabs(snap.c[static_cast<std::size_t>(i + j * shape.m)] - ref) / scale);
            worst = std::max(worst, err);
        }
    QVERIFY2(worst <= tolerance, qPrintable(QString::number(worst)));
    const double sampled = problem->maxRelativeError(64, 3);
    QVERIFY(sampled <= worst * (1 + 1e-12)); // sampled entries are a subset of all entries
    const std::optional<double> seconds = problem->timedRun(2, {});
    QVERIFY(seconds && *seconds > 0 && *seconds < 1);
}

void TestCudaGpu::fp8CachesItsAlgorithm() {
    NAPKIN_REQUIRE_GPU();
    cuda::CudaBackend backend(0);
    if (!backend.unsupportedReason(BenchDtype::fp8e4m3).empty())
        QSKIP("no fp8 on this GPU");
    const MatmulSweep sweep = runMatmulSweep(backend,
                                             {{256, 256, 256, BenchDtype::fp8e4m3},
                                              {256, 256, 256, BenchDtype::fp8e4m3},
                                              {24, 16, 16, BenchDtype::fp8e4m3}},
                                             quick());
    QCOMPARE(sweep.results.size(), std::size_t{3});
    QVERIFY2(sweep.results[0].ok && sweep.results[1].ok, sweep.results[0].error.c_str());
    QVERIFY(!sweep.results[2].ok);
    QVERIFY(sweep.results[2].error.find("multiples of 16") != std::string::npos);
}

void TestCudaGpu::outOfMemoryIsAResult() {
    NAPKIN_REQUIRE_GPU();
    cuda::CudaBackend backend(0);
    // 3 × 2^20 × 2^20 fp32 ≈ 13 TB: no GPU holds it; the sweep records the message and goes on.
    const MatmulSweep sweep = runMatmulSweep(
        backend, {{1L << 20, 1L << 20, 1L << 20, BenchDtype::fp32}, {64, 64, 64, BenchDtype::fp32}}, quick());
    QCOMPARE(sweep.results.size(), std::size_t{2});
    QVERIFY(!sweep.results[0].ok);
    QVERIFY2(sweep.results[0].error.find("out of GPU memory") != std::string::npos,
             sweep.results[0].error.c_str());
    QVERIFY2(sweep.results[1].ok, sweep.results[1].error.c_str());
}

void TestCudaGpu::trainerMatchesCpu_data() {
    QTest::addColumn<OptimizerKind>("optimizer");
    for (OptimizerKind k : allOptimizers())
        QTest::newRow(std::string(optimizerName(k)).c_str()) << k;
}

void TestCudaGpu::trainerMatchesCpu() {
    NAPKIN_REQUIRE_GPU();
    QFETCH(OptimizerKind, optimizer);
    CruncherConfig config;
    config.dim = 32;
    config.layers = 3;
    config.batch = 16;
    config.optimizer = optimizer;
    config.hyper.learningRate = defaultLearningRate(optimizer, config.dim);
    cuda::CudaBackend backend(0);
    auto gpu = backend.makeCruncherTrainer(config);
    CpuCruncherTrainer cpu(config);
    for (int s = 0; s < 5; ++s) {
        const double lg = gpu->step(), lc = cpu.step();
        QVERIFY2(std::fabs(lg - lc) <= 1e-4 * std::max(1.0, std::fabs(lc)),
                 qPrintable(QString("%1 vs %2").arg(lg).arg(lc)));
    }
    const std::vector<float> pg = gpu->parameters(), pc = cpu.parameters();
    QCOMPARE(pg.size(), pc.size());
    for (std::size_t i = 0; i < pg.size(); ++i)
        QVERIFY(std::fabs(pg[i] - pc[i]) <= 1e-4f);
    // Each component at its peak: the CPU trainer frees activations and gradients within each step, the
    // CUDA trainer holds everything from the start. Their workspaces differ (the CUDA trainer keeps y,
    // dL/dy and two B·D buffers at once; the CPU trainer at most two B·D), so they are not compared.
    for (MemoryTag tag : {MemoryTag::parameters, MemoryTag::gradients, MemoryTag::optimizerState,
                          MemoryTag::activations, MemoryTag::inputs})
        QCOMPARE(gpu->ledger().peakBytes(tag), cpu.ledger().peakBytes(tag));
}

void TestCudaGpu::checkpointRoundTrip() {
    NAPKIN_REQUIRE_GPU();
    CruncherConfig config;
    config.dim = 16;
    config.optimizer = OptimizerKind::adam;
    cuda::CudaBackend backend(0);
    auto a = backend.makeCruncherTrainer(config);
    a->step();
    QTemporaryDir dir;
    const std::string path = dir.filePath("c.bin").toStdString();
    a->saveCheckpoint(path);
    auto b = backend.makeCruncherTrainer(config);
    b->loadCheckpoint(path);
    QCOMPARE(b->stepsDone(), 1L);
    QCOMPARE(b->step(), a->step()); // same parameters, state and data stream
    CpuCruncherTrainer cpu(config); // the CPU trainer reads the same format
    cpu.loadCheckpoint(path);
    QCOMPARE(cpu.stepsDone(), 1L);
}

// Every size in both directions with both host memories comes back measured, with a positive rate
// that no copy can beat by much: twice the promise would mean the timer or the byte count is wrong.
void TestCudaGpu::copySweepHasEveryCase() {
    NAPKIN_REQUIRE_GPU();
    const std::vector<std::uint64_t> sizes = {4096, 1 << 20, 16 << 20};
    CopyRunOptions options;
    options.repeats = 5;
    const CopySweep sweep = runCudaCopySweep(copyCases(sizes), options);
    QVERIFY(!sweep.deviceName.empty());
    QCOMPARE(sweep.results.size(), sizes.size() * 4);
    for (std::uint64_t bytes : sizes)
        for (CopyDirection d : {CopyDirection::hostToDevice, CopyDirection::deviceToHost})
            for (HostMemory m : {HostMemory::pageable, HostMemory::pinned}) {
                const auto it =
                    std::find_if(sweep.results.begin(), sweep.results.end(), [&](const CopyResult& r) {
                        return r.copy.bytes == bytes && r.copy.direction == d && r.copy.hostMemory == m;
                    });
                QVERIFY(it != sweep.results.end());
                QVERIFY2(it->ok, it->error.c_str());
                QCOMPARE(it->timing.samples, 5);
                QVERIFY(it->timing.p20Seconds <= it->timing.medianSeconds);
                QVERIFY(it->timing.medianSeconds <= it->timing.p80Seconds);
                QVERIFY(it->bytesPerSecond > 0);
                if (sweep.promisedBytesPerSecond)
                    QVERIFY(it->bytesPerSecond < 2 * *sweep.promisedBytesPerSecond);
            }
}

// The lecture's check: 2 * 32 * 32 * 4 bytes, exact in the accounting allocator; cudaMemGetInfo moves in
// the driver's granularity, so it may show 0 (a pooled page) or more, never less than nothing.
void TestCudaGpu::allocCheckCountsTwoTensors() {
    NAPKIN_REQUIRE_GPU();
    const AllocCheck check = runCudaAllocCheck();
    QCOMPARE(check.expectedBytes, 8192.0);
    QCOMPARE(check.allocatorBytesBefore, 0.0);
    QCOMPARE(check.allocatorBytes, 8192.0);
    QCOMPARE(check.memGetInfoDeltaBytes, check.freeBytesBefore - check.freeBytesAfter);
    QVERIFY(check.memGetInfoDeltaBytes >= 0);
}

QTEST_APPLESS_MAIN(TestCudaGpu)
#include "tst_cuda_gpu.moc"

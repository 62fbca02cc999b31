// SPDX-License-Identifier: GPL-3.0-or-later
// Host-side logic of the CUDA backend, run on the CPU (no GPU needed): dtype support per compute
// capability, fp8 shape rules, catalog matching and DeviceInfo assembly, the algorithm cache,
// dtype → cuBLAS type mapping, error-status conversion, what the registry says without a device, and the
// Cruncher trainer's buffers per recipe against the accounting's prediction.
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/training_run.h"
#include "engine/compute/cpu/optimizer_step.h"
#include "engine/compute/cuda/cublas_types.h"
#include "engine/compute/cuda/cuda_check.h"
#include "engine/compute/cuda/cuda_cruncher_plan.h"
#include "engine/compute/cuda/cuda_device_query.h"
#include "engine/compute/cuda/cuda_matmul_rules.h"
#include "engine/compute/cuda/cuda_optimizer_args.h"
#include "engine/compute/cuda/optimizer_update.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <random>
#include <vector>

using namespace napkin;
using namespace napkin::cuda;

Q_DECLARE_METATYPE(napkin::BenchDtype)
Q_DECLARE_METATYPE(napkin::OptimizerKind)

class TestCudaHost : public QObject {
    Q_OBJECT
private slots:
    void dtypeSupport_data();
    void dtypeSupport();
    void shapeRules_data();
    void shapeRules();
    void catalogMatch_data();
    void catalogMatch();
    void deviceInfoForH100();
    void deviceInfoForUnknownGpu();
    void fastestIndexSkipsFailures();
    void algorithmCacheIsPerShapeAndDtype();
    void cublasTypes_data();
    void cublasTypes();
    void statusesBecomeExceptions();
    void registryGivesTheRuntimeReason();
    void missingDeviceText_data();
    void missingDeviceText();
    void kernelUpdateRulesMatchTheCpu_data();
    void kernelUpdateRulesMatchTheCpu();
    void trainerBuffersArePredicted_data();
    void trainerBuffersArePredicted();
    void trainerRefusesOtherRecipes();
};

void TestCudaHost::dtypeSupport_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<int>("major");
    QTest::addColumn<int>("minor");
    QTest::addColumn<bool>("supported");
    QTest::newRow("fp32 on Turing 7.5") << BenchDtype::fp32 << 7 << 5 << true;
    QTest::newRow("fp16 on Turing 7.5") << BenchDtype::fp16 << 7 << 5 << true;
    QTest::newRow("fp64 on Turing 7.5") << BenchDtype::fp64 << 7 << 5 << true;
    QTest::newRow("tf32 on Turing 7.5") << BenchDtype::tf32 << 7 << 5 << false;
    QTest::newRow("bf16 on Turing 7.5") << BenchDtype::bf16 << 7 << 5 << false;
    QTest::newRow("tf32 on A100 8.0") << BenchDtype::tf32 << 8 << 0 << true;
    QTest::newRow("bf16 on A100 8.0") << BenchDtype::bf16 << 8 << 0 << true;
    QTest::newRow("fp8 on A100 8.0") << BenchDtype::fp8e4m3 << 8 << 0 << false;
    QTest::newRow("fp8 on RTX 3090 8.6") << BenchDtype::fp8e4m3 << 8 << 6 << false;
    QTest::newRow("fp8 on Ada 8.9") << BenchDtype::fp8e4m3 << 8 << 9 << true;
    QTest::newRow("fp8 on H100 9.0") << BenchDtype::fp8e4m3 << 9 << 0 << true;
    QTest::newRow("fp8 on B200 10.0") << BenchDtype::fp8e4m3 << 10 << 0 << true;
}

void TestCudaHost::dtypeSupport() {
    QFETCH(BenchDtype, dtype);
    QFETCH(int, major);
    QFETCH(int, minor);
    QFETCH(bool, supported);
    const std::string why = dtypeUnsupportedReason(dtype, {major, minor});
    QCOMPARE(why.empty(), supported);
    if (!supported) { // the message names the option and the GPU's capability
        QVERIFY2(why.find("--dtype") != std::string::npos, why.c_str());
        QVERIFY2(why.find(std::to_string(major) + "." + std::to_string(minor)) != std::string::npos,
                 why.c_str());
    }
}

void TestCudaHost::shapeRules_data() {
    QTest::addColumn<long>("m");
    QTest::addColumn<long>("n");
    QTest::addColumn<long>("k");
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<QString>("problem"); // empty: accepted; else a word the message must contain
    QTest::newRow("fp32 odd sizes") << 17L << 33L << 5L << BenchDtype::fp32 << QString();
    QTest::newRow("bf16 odd sizes") << 1L << 1L << 1L << BenchDtype::bf16 << QString();
    QTest::newRow("fp8 multiples of 16") << 16L << 4096L << 8192L << BenchDtype::fp8e4m3 << QString();
    QTest::newRow("fp8 m=8") << 8L << 16L << 16L << BenchDtype::fp8e4m3 << "multiples of 16";
    QTest::newRow("fp8 n=24") << 16L << 24L << 16L << BenchDtype::fp8e4m3 << "16x24x16";
    QTest::newRow("fp8 k=4100") << 4096L << 4096L << 4100L << BenchDtype::fp8e4m3 << "multiples of 16";
    QTest::newRow("zero m") << 0L << 16L << 16L << BenchDtype::fp32 << "positive";
    QTest::newRow("negative k") << 16L << 16L << -1L << BenchDtype::fp16 << "positive";
    QTest::newRow("k beyond int") << 16L << 16L << 3000000000L << BenchDtype::fp32 << "int";
}

void TestCudaHost::shapeRules() {
    QFETCH(long, m);
    QFETCH(long, n);
    QFETCH(long, k);
    QFETCH(BenchDtype, dtype);
    QFETCH(QString, problem);
    const QString got = QString::fromStdString(shapeProblem({m, n, k, dtype}));
    if (problem.isEmpty())
        QVERIFY2(got.isEmpty(), qPrintable(got));
    else
        QVERIFY2(got.contains(problem), qPrintable(got));
}

void TestCudaHost::catalogMatch_data() {
    // Names as cudaGetDeviceProperties reports them.
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("id");
    QTest::newRow("H100 SXM") << "NVIDIA H100 80GB HBM3"
                              << "H100-SXM";
    QTest::newRow("H100 PCIe") << "NVIDIA H100 PCIe"
                               << "H100-PCIe";
    QTest::newRow("H100 NVL") << "NVIDIA H100 NVL"
                              << "H100-NVL";
    QTest::newRow("H200") << "NVIDIA H200"
                          << "H200";
    QTest::newRow("A100 SXM") << "NVIDIA A100-SXM4-80GB"
                              << "A100-SXM";
    QTest::newRow("A100 PCIe") << "NVIDIA A100 80GB PCIe"
                               << "A100-PCIe";
    QTest::newRow("B200") << "NVIDIA B200"
                          << "B200";
    QTest::newRow("L40S") << "NVIDIA L40S"
                          << "L40S";
    QTest::newRow("RTX 4090") << "NVIDIA GeForce RTX 4090"
                              << "RTX-4090";
    QTest::newRow("unknown") << "NVIDIA GeForce GTX 1080"
                             << "";
}

void TestCudaHost::catalogMatch() {
    QFETCH(QString, name);
    QFETCH(QString, id);
    QCOMPARE(QString::fromStdString(catalogIdForDevice(name.toStdString())), id);
    if (!id.isEmpty())
        QVERIFY(GpuCatalog::builtIn().find(id.toStdString()) != nullptr); // every answer is a real entry
}

void TestCudaHost::deviceInfoForH100() {
    CudaDeviceFacts f;
    f.name = "NVIDIA H100 80GB HBM3";
    f.cc = {9, 0};
    f.smCount = 132;
    f.clockHz = 1.98e9;
    f.memoryBytes = 85e9;
    const DeviceInfo d = assembleDeviceInfo(f, GpuCatalog::builtIn());
    QCOMPARE(d.backend, std::string("cuda"));
    QCOMPARE(d.cores, 132);
    QCOMPARE(d.simd, std::string("sm_90"));
    // 132 SMs · 128 lanes · 2 · 1.98 GHz = 66.9 TFLOP/s, the datasheet's "67 TFLOPS".
    QVERIFY(d.specFp32FlopsPerSecond.has_value());
    QCOMPARE(*d.specFp32FlopsPerSecond, 132.0 * 128 * 2 * 1.98e9);
    QCOMPARE(d.promisedFlopsPerSecond.at("fp32"), 67e12);
    QCOMPARE(d.promisedFlopsPerSecond.at("tf32"), 494.7e12);
    QCOMPARE(d.promisedFlopsPerSecond.at("bf16"), 989.4e12);
    QCOMPARE(d.promisedFlopsPerSecond.at("fp16"), 989.4e12);
    QCOMPARE(d.promisedFlopsPerSecond.at("fp8-e4m3"), 1978.9e12);
    QVERIFY(!d.promisedFlopsPerSecond.contains("fp64")); // no fp64 peak in the catalog: no MFU
    QVERIFY(d.promisedBasis.find("H100-SXM") != std::string::npos);
}

void TestCudaHost::deviceInfoForUnknownGpu() {
    CudaDeviceFacts f;
    f.name = "NVIDIA A100-SXM4-40GB-but-renamed";
    f.cc = {8, 0};
    f.smCount = 108;
    f.clockHz = 1.41e9;
    DeviceInfo d = assembleDeviceInfo(f, GpuCatalog::builtIn());
    QCOMPARE(*d.specFp32FlopsPerSecond, 108.0 * 64 * 2 * 1.41e9); // A100: 64 FP32 lanes per SM → 19.5 TFLOP/s
    QVERIFY(!d.promisedFlopsPerSecond.contains("fp8-e4m3"));      // A100's fp8 peak is 0: no such path
    f.name = "Mystery GPU";
    d = assembleDeviceInfo(f, GpuCatalog::builtIn());
    QVERIFY(d.promisedFlopsPerSecond.empty());
    QVERIFY(d.promisedBasis.find("not in the GPU catalog") != std::string::npos);
    f.cc = {6, 1};
    d = assembleDeviceInfo(f, GpuCatalog::builtIn());
    QVERIFY(!d.specFp32FlopsPerSecond.has_value());
    QVERIFY(d.specFp32Formula.find("6.1") != std::string::npos);
}

void TestCudaHost::fastestIndexSkipsFailures() {
    const double inf = std::numeric_limits<double>::infinity();
    QCOMPARE(fastestIndex(std::vector<double>{3e-3, 1e-3, 2e-3}), std::optional<std::size_t>(1));
    QCOMPARE(fastestIndex(std::vector<double>{inf, 5e-3, 0.0, 4e-3}), std::optional<std::size_t>(3));
    QCOMPARE(fastestIndex(std::vector<double>{inf, std::nan("")}), std::optional<std::size_t>());
    QCOMPARE(fastestIndex(std::vector<double>{}), std::optional<std::size_t>());
}

void TestCudaHost::algorithmCacheIsPerShapeAndDtype() {
    AlgorithmCache<int> cache;
    const MatmulCase a{4096, 4096, 4096, BenchDtype::fp8e4m3};
    QVERIFY(cache.find(a) == nullptr);
    cache.store(a, 7);
    QVERIFY(cache.find(a) != nullptr);
    QCOMPARE(*cache.find(a), 7);
    QVERIFY(cache.find({4096, 4096, 4096, BenchDtype::bf16}) == nullptr); // dtype is part of the key
    QVERIFY(cache.find({4096, 4096, 2048, BenchDtype::fp8e4m3}) == nullptr);
    QVERIFY(cache.find({4096, 2048, 4096, BenchDtype::fp8e4m3}) == nullptr);
    cache.store(a, 3); // re-timing replaces
    QCOMPARE(*cache.find(a), 3);
    QCOMPARE(cache.size(), std::size_t{1});
}

void TestCudaHost::cublasTypes_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<int>("ab");
    QTest::addColumn<int>("c");
    QTest::addColumn<int>("compute");
    QTest::addColumn<int>("abBytes");
    QTest::addColumn<bool>("lt");
    QTest::newRow("fp32: TF32 off") << BenchDtype::fp32 << int(CUDA_R_32F) << int(CUDA_R_32F)
                                    << int(CUBLAS_COMPUTE_32F) << 4 << false;
    QTest::newRow("tf32") << BenchDtype::tf32 << int(CUDA_R_32F) << int(CUDA_R_32F)
                          << int(CUBLAS_COMPUTE_32F_FAST_TF32) << 4 << false;
    QTest::newRow("fp16, fp32 accumulate")
        << BenchDtype::fp16 << int(CUDA_R_16F) << int(CUDA_R_16F) << int(CUBLAS_COMPUTE_32F) << 2 << false;
    QTest::newRow("bf16, fp32 accumulate")
        << BenchDtype::bf16 << int(CUDA_R_16BF) << int(CUDA_R_16BF) << int(CUBLAS_COMPUTE_32F) << 2 << false;
    QTest::newRow("fp64") << BenchDtype::fp64 << int(CUDA_R_64F) << int(CUDA_R_64F) << int(CUBLAS_COMPUTE_64F)
                          << 8 << false;
    QTest::newRow("fp8 via cuBLASLt") << BenchDtype::fp8e4m3 << int(CUDA_R_8F_E4M3) << int(CUDA_R_16BF)
                                      << int(CUBLAS_COMPUTE_32F) << 1 << true;
}

void TestCudaHost::cublasTypes() {
    QFETCH(BenchDtype, dtype);
    QFETCH(int, ab);
    QFETCH(int, c);
    QFETCH(int, compute);
    QFETCH(int, abBytes);
    QFETCH(bool, lt);
    const GemmTypes t = gemmTypes(dtype);
    QCOMPARE(int(t.ab), ab);
    QCOMPARE(int(t.c), c);
    QCOMPARE(int(t.compute), compute);
    QCOMPARE(int(t.abBytes), abBytes);
    QCOMPARE(t.abBytes, static_cast<std::size_t>(benchDtypeBytes(dtype)));
    // The report's bytes and intensity count C at the size cuBLAS writes it (fp8's C is bf16).
    QCOMPARE(t.cBytes, static_cast<std::size_t>(benchDtypeOutputBytes(dtype)));
    QCOMPARE(t.lt, lt);
    QCOMPARE(int(t.scale), dtype == BenchDtype::fp64 ? int(CUDA_R_64F) : int(CUDA_R_32F));
}

void TestCudaHost::statusesBecomeExceptions() {
    try {
        NAPKIN_CUDA_CHECK(cudaErrorMemoryAllocation);
        QFAIL("no exception");
    } catch (const CudaError& e) {
        QVERIFY(e.outOfMemory());
        const QString what = QString::fromLatin1(e.what());
        QVERIFY2(what.startsWith("out of GPU memory"), e.what());
        QVERIFY2(what.contains("cudaErrorMemoryAllocation"), e.what());
        QVERIFY2(what.contains("engine/cuda/") || what.contains("tst_cuda_host"), e.what());
    }
    try {
        NAPKIN_CUBLAS_CHECK(CUBLAS_STATUS_INVALID_VALUE);
        QFAIL("no exception");
    } catch (const CudaError& e) {
        QVERIFY(!e.outOfMemory());
        QVERIFY2(QString::fromLatin1(e.what()).contains("CUBLAS_STATUS_INVALID_VALUE"), e.what());
    }
    QVERIFY_THROWS_NO_EXCEPTION(NAPKIN_CUDA_CHECK(cudaSuccess));
}

void TestCudaHost::registryGivesTheRuntimeReason() {
    const std::string why = noDeviceReason();
    if (why.empty())
        QSKIP("a CUDA device is present: the no-device reason cannot be observed here");
    QVERIFY2(QString::fromStdString(why).startsWith("no CUDA device: "), why.c_str());
    for (const BackendEntry& e : listBackends())
        if (e.name == "cuda") {
            QVERIFY(!e.available);
            QCOMPARE(e.unavailableReason, why);
        }
    std::string whyNot;
    QVERIFY(makeBackend("cuda", &whyNot) == nullptr);
    QCOMPARE(whyNot, why);
}

// What a machine without a usable GPU is told. cudaDriverGetVersion gives 0 where no driver is installed
// (CUDA Runtime API, cudaDriverGetVersion: "If no driver is installed, then 0 is returned"); the runtime's
// own reason there, cudaErrorInsufficientDriver's "CUDA driver version is insufficient for CUDA runtime
// version", sent a CPU-only machine's user to update a driver it does not have.
void TestCudaHost::missingDeviceText_data() {
    QTest::addColumn<int>("driver");
    QTest::addColumn<bool>("driverHasNoDevice");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no driver")
        << 0 << false
        << "no NVIDIA GPU or driver found (this machine has no NVIDIA driver; the benchmarks "
           "run on the CPU)";
    QTest::newRow("no driver, no device")
        << 0 << true
        << "no NVIDIA GPU or driver found (this machine has no NVIDIA driver; "
           "the benchmarks run on the CPU)";
    QTest::newRow("driver 12.2 under runtime 13.0")
        << 12020 << false
        << "the NVIDIA driver supports CUDA 12.2, older than this "
           "build's CUDA runtime 13.0: update the driver";
    QTest::newRow("driver, no GPU") << 13000 << true
                                    << "no NVIDIA GPU found: the NVIDIA driver (CUDA 13.0) reports none";
}

void TestCudaHost::missingDeviceText() {
    QFETCH(int, driver);
    QFETCH(bool, driverHasNoDevice);
    QFETCH(QString, expected);
    QCOMPARE(QString::fromStdString(cuda::missingDeviceText(driver, 13000, driverHasNoDevice)), expected);
    // And this machine's own answer never sends a user without a driver to update one.
    const std::string why = noDeviceReason();
    QVERIFY2(why.find("insufficient") == std::string::npos, why.c_str());
}

void TestCudaHost::kernelUpdateRulesMatchTheCpu_data() {
    QTest::addColumn<OptimizerKind>("optimizer");
    for (OptimizerKind k : allOptimizers())
        QTest::newRow(std::string(optimizerName(k)).c_str()) << k;
}

// The optimizer kernel's per-element rule (optimizer_update.h, host-compiled here) against the CPU
// trainer's applyOptimizerStep, over three steps (Adam's bias corrections change with the step).
void TestCudaHost::kernelUpdateRulesMatchTheCpu() {
    QFETCH(OptimizerKind, optimizer);
    CruncherConfig config;
    config.optimizer = optimizer;
    config.hyper.learningRate = 0.03;
    config.hyper.weightDecay = 0.1;
    constexpr std::size_t n = 257;
    std::mt19937_64 rng(11);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::vector<float> p(n), s1(n, 0.0f), s2(n, 0.0f);
    for (float& x : p)
        x = normal(rng);
    const std::vector<float> initial = p;
    std::vector<float> q = p, t1 = s1, t2 = s2;
    const int states = stateTensorsPerParameter(optimizer);
    for (long step = 1; step <= 3; ++step) {
        std::vector<float> g(n);
        for (float& x : g)
            x = normal(rng) * 0.1f;
        applyOptimizerStep(optimizer, config.hyper, step, p, g,
                           states > 0 ? std::span<float>(s1) : std::span<float>(),
                           states > 1 ? std::span<float>(s2) : std::span<float>());
        const OptimizerArgs args = optimizerArgsFor(config, step);
        for (std::size_t i = 0; i < n; ++i)
            updateElement(args, q[i], g[i], t1[i], t2[i]);
    }
    for (std::size_t i = 0; i < n; ++i) {
        // The same double arithmetic in the same order; only a fused multiply-add may differ (the CPU
        // library is built with -march=native, and GCC contracts a·b + c there), i.e. a float ulp or so.
        auto close = [](float a, float b) { return std::fabs(a - b) <= 1e-6f * std::fabs(b) + 1e-12f; };
        QVERIFY2(close(q[i], p[i]), qPrintable(QString("p[%1]: %2 vs %3").arg(i).arg(q[i]).arg(p[i])));
        QVERIFY2(states < 1 || close(t1[i], s1[i]),
                 qPrintable(QString("s1[%1]: %2 vs %3").arg(i).arg(t1[i]).arg(s1[i])));
        QVERIFY2(states < 2 || close(t2[i], s2[i]),
                 qPrintable(QString("s2[%1]: %2 vs %3").arg(i).arg(t2[i]).arg(s2[i])));
    }
    QVERIFY(q != initial); // the parameters moved
}

void TestCudaHost::trainerBuffersArePredicted_data() {
    QTest::addColumn<QByteArray>("recipe");
    QTest::addColumn<OptimizerKind>("optimizer");
    QTest::addColumn<double>("totalBytes"); // parameters + gradients + master + state + activations
    QTest::addColumn<double>("inputsBytes");
    // The lecture's Cruncher (docs/DESIGN: D = 4, L = 2, B = 2, AdaGrad, fp32): params 36, activations 16,
    // grads 36, state 36 → 4·124 = 496 B; tf32 is a matmul mode, the same 496 B. Mixed 16-bit: 2·36 + 2·36
    // + 4·36 (master) + 4·36 + 2·16 = 464 B (bench_contract.cmake's mixed-bf16 run on oneDNN). Inputs: the
    // batch B·D in the working type, t (B) and w* (D) in fp32: 4·8 + 8 + 16 = 56 B, or 2·8 + 24 = 40 B.
    QTest::newRow("fp32 adagrad (the lecture)") << QByteArray("fp32") << OptimizerKind::adagrad << 496.0 << 56.0;
    QTest::newRow("tf32 adagrad") << QByteArray("tf32") << OptimizerKind::adagrad << 496.0 << 56.0;
    QTest::newRow("mixed-bf16 adagrad") << QByteArray("mixed-bf16") << OptimizerKind::adagrad << 464.0 << 40.0;
    QTest::newRow("mixed-fp16 adagrad") << QByteArray("mixed-fp16") << OptimizerKind::adagrad << 464.0 << 40.0;
    // Adam keeps two states (4·36 more), SGD none (4·36 less).
    QTest::newRow("mixed-fp16 adam") << QByteArray("mixed-fp16") << OptimizerKind::adam << 608.0 << 40.0;
    QTest::newRow("mixed-bf16 sgd") << QByteArray("mixed-bf16") << OptimizerKind::sgd << 320.0 << 40.0;
    QTest::newRow("fp32 adam") << QByteArray("fp32") << OptimizerKind::adam << 640.0 << 56.0;
}

// Every buffer the CUDA trainer allocates (its plan), summed per memory tag, against the accounting's
// prediction for the same recipe: component by component, to the byte, with no GPU.
void TestCudaHost::trainerBuffersArePredicted() {
    QFETCH(QByteArray, recipe);
    QFETCH(OptimizerKind, optimizer);
    QFETCH(double, totalBytes);
    QFETCH(double, inputsBytes);
    CruncherConfig config;
    config.dim = 4;
    config.layers = 2;
    config.batch = 2;
    config.optimizer = optimizer;
    QVERIFY(setTrainingRecipe(config, recipe.toStdString()));
    std::map<MemoryTag, double> bytes;
    for (const PlannedBuffer& b : cruncherBufferPlan(config))
        bytes[b.tag] += static_cast<double>(b.count * elementBytes(b.type));
    const AccountingResult p = predictedCruncherAccounting(config);
    QCOMPARE(bytes[MemoryTag::parameters], p.memory.parameters.value);
    QCOMPARE(bytes[MemoryTag::gradients], p.memory.gradients.value);
    QCOMPARE(bytes[MemoryTag::masterWeights], p.memory.masterWeights.value);
    QCOMPARE(bytes[MemoryTag::optimizerState], p.memory.optimizerState.value);
    QCOMPARE(bytes[MemoryTag::activations], p.memory.activations.value);
    QCOMPARE(p.memory.total.value, totalBytes);
    QCOMPARE(bytes[MemoryTag::inputs], inputsBytes);
    QCOMPARE(bytes[MemoryTag::scratch], 0.0);
}

void TestCudaHost::trainerRefusesOtherRecipes() {
    for (const char* recipe : {"fp16", "bf16", "fp8-mixed"}) {
        CruncherConfig config;
        QVERIFY(setTrainingRecipe(config, recipe));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cruncherWorkingType(config));
    }
    CruncherConfig tf32Mixed;
    tf32Mixed.precision = PrecisionRecipe::mixedBf16;
    tf32Mixed.tf32Matmuls = true; // TF32 is fp32 storage's matmul mode only
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, cruncherWorkingType(tf32Mixed));
}

QTEST_APPLESS_MAIN(TestCudaHost)
#include "tst_cuda_host.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The oneDNN backend's GEMMs: the same inputs as Eigen's, results within the stated error bounds against
// the long-double reference, one primitive per shape, cancel between panels, which library ran each case
// and what it promises.
#include "engine/benchmarks/backend_registry.h"
#include "engine/benchmarks/matmul_sweep.h"
#include "engine/compute/cpu/onednn_backend.h"
#include "engine/compute/cpu/onednn_gemm.h"
#include "engine/compute/cpu/onednn_matmul_problem.h"

#include <QtTest>

#include <cmath>

using namespace napkin;

Q_DECLARE_METATYPE(napkin::BenchDtype)

namespace {
OnednnBackendOptions options(bool eigenFallback, bool measurePeak = false) {
    OnednnBackendOptions o;
    o.cpu.measurePeak = measurePeak;
    o.cpu.peakSecondsPerTrial = 0.02;
    o.cpu.threads = 2;
    o.eigenFallback = eigenFallback;
    return o;
}
// The bound the sweep's max_rel_error is checked against (|c − ref| / Σ|a·b|, ref in long double from the
// same rounded inputs). fp32: γ_k ≈ k·2^-24 (Higham, "Accuracy and Stability of Numerical Algorithms",
// eq. 3.5, for any summation order). bf16: products of bf16 values are exact in fp32 and accumulate in
// fp32 (another k·2^-24), then C is rounded to bf16 once: + 2^-8, bf16's unit roundoff.
double errorBound(BenchDtype dtype, long k) {
    const double accumulation = 1.01 * static_cast<double>(k) * 0x1p-24;
    return dtype == BenchDtype::bf16 ? 0x1p-8 + accumulation : accumulation;
}
double fullCheck(const MatmulProblem::Snapshot& s, long m, long n, long k) {
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
            if (scale > 0)
                worst = std::max(
                    worst,
                    static_cast<double>(std::fabs(s.c[static_cast<std::size_t>(i + j * m)] - ref) / scale));
        }
    return worst;
}
} // namespace

class TestOnednnMatmul : public QObject {
    Q_OBJECT
private slots:
    void withinTheErrorBound_data();
    void withinTheErrorBound();
    void sameInputsAsEigen_data();
    void sameInputsAsEigen();
    void onePrimitivePerShape();
    void cancelStopsBetweenPanels();
    void typesOnednnLacks();
    void eachResultNamesItsLibrary();
    void deviceNamesLibraryIsaAndBf16Promise();
    void registryDefaultIsTheFasterOnePresent();
};

void TestOnednnMatmul::withinTheErrorBound_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::addColumn<long>("m");
    QTest::addColumn<long>("n");
    QTest::addColumn<long>("k");
    QTest::newRow("fp32 1x1x1") << BenchDtype::fp32 << 1L << 1L << 1L;
    QTest::newRow("fp32 7x5x3") << BenchDtype::fp32 << 7L << 5L << 3L;
    QTest::newRow("fp32 65x33x129") << BenchDtype::fp32 << 65L << 33L << 129L;
    QTest::newRow("fp32 100x1x300 (a GEMV)") << BenchDtype::fp32 << 100L << 1L << 300L;
    QTest::newRow("bf16 16x16x16") << BenchDtype::bf16 << 16L << 16L << 16L;
    QTest::newRow("bf16 65x33x129") << BenchDtype::bf16 << 65L << 33L << 129L;
    QTest::newRow("bf16 128x128x512") << BenchDtype::bf16 << 128L << 128L << 512L;
}

void TestOnednnMatmul::withinTheErrorBound() {
    QFETCH(BenchDtype, dtype);
    QFETCH(long, m);
    QFETCH(long, n);
    QFETCH(long, k);
    OnednnBackend backend(options(false));
    auto problem = backend.prepareMatmul({m, n, k, dtype}, 7);
    QCOMPARE(problem->kernel().cpuBackend, std::string("onednn"));
    QVERIFY(problem->run({}));
    const double worst = fullCheck(problem->snapshot(), m, n, k), bound = errorBound(dtype, k);
    QVERIFY2(worst <= bound, qPrintable(QString("max error %1 > bound %2").arg(worst).arg(bound)));
    QVERIFY(problem->maxRelativeError(64, 1) <=
            worst + 1e-18);                   // the sampled check cannot exceed the full one
    if (dtype == BenchDtype::bf16 && k >= 64) // C really is rounded to bf16 (not left in fp32)
        QVERIFY2(worst > 0x1p-14, qPrintable(QString::number(worst)));
}

void TestOnednnMatmul::sameInputsAsEigen_data() {
    QTest::addColumn<BenchDtype>("dtype");
    QTest::newRow("fp32") << BenchDtype::fp32;
    QTest::newRow("bf16") << BenchDtype::bf16;
}

void TestOnednnMatmul::sameInputsAsEigen() {
    QFETCH(BenchDtype, dtype);
    OnednnBackend onednn(options(false));
    CpuBackendOptions eigenOptions;
    eigenOptions.measurePeak = false;
    CpuBackend eigen(eigenOptions);
    const MatmulCase shape{33, 17, 65, dtype};
    auto a = onednn.prepareMatmul(shape, 11), b = eigen.prepareMatmul(shape, 11);
    QVERIFY(a->run({}) && b->run({}));
    const auto sa = a->snapshot(), sb = b->snapshot();
    QCOMPARE(sa.a, sb.a); // bit for bit: the same generator, order and roundings
    QCOMPARE(sa.b, sb.b);
    // And the sampled check picks the same entries: both errors are within the oneDNN bound's reach.
    QVERIFY(a->maxRelativeError(64, 5) <= errorBound(dtype, 65));
}

void TestOnednnMatmul::onePrimitivePerShape() {
    OnednnGemm gemm(1);
    std::vector<float> a(64, 1.0f), b(64, 2.0f), c(64); // 8×8 each
    const GemmShape square{8, 8, 8};
    gemm.run(square, a.data(), b.data(), c.data());
    gemm.run(square, a.data(), b.data(), c.data());
    QCOMPARE(gemm.cachedPrimitives(), std::size_t{1});
    QCOMPARE(c[0], 16.0f); // Σ_8 1·2
    gemm.run({8, 8, 4}, a.data(), b.data(), c.data());
    QCOMPARE(gemm.cachedPrimitives(), std::size_t{2});
    QCOMPARE(c[0], 8.0f);
    GemmShape transposed = square;
    transposed.transA = true;
    QVERIFY(!gemm.implementation(transposed).empty());
    QCOMPARE(gemm.cachedPrimitives(), std::size_t{3});
    QCOMPARE(gemm.threads(), 1);
}

void TestOnednnMatmul::cancelStopsBetweenPanels() {
    // 64³ in panels of 2·64·64·16 FLOPs: four panels of 16 columns.
    auto problem = makeOnednnMatmulProblem({64, 64, 64, BenchDtype::fp32}, 3, 2, 2.0 * 64 * 64 * 16);
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
    QCOMPARE(askedWhenKeptGoing, 3); // between 4 panels
    QVERIFY(fullCheck(problem->snapshot(), 64, 64, 64) <= errorBound(BenchDtype::fp32, 64)); // panels add up
}

void TestOnednnMatmul::typesOnednnLacks() {
    // oneDNN has no fp64 matmul: asked for by name it refuses and says which backend runs it; the default
    // backend runs it on Eigen and says so in the result.
    OnednnBackend named(options(false)), byDefault(options(true));
    const std::string why = named.unsupportedReason(BenchDtype::fp64);
    QVERIFY2(QString::fromStdString(why).contains("--backend eigen"), why.c_str());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, named.prepareMatmul({4, 4, 4, BenchDtype::fp64}, 1));
    QVERIFY(byDefault.unsupportedReason(BenchDtype::fp64).empty());
    auto problem = byDefault.prepareMatmul({4, 4, 4, BenchDtype::fp64}, 1);
    QCOMPARE(problem->kernel().cpuBackend, std::string("eigen"));
    QVERIFY(QString::fromStdString(named.unsupportedReason(BenchDtype::tf32)).contains("tf32"));
    // fp16: oneDNN 2.6 has no fp16 matmul kernels; a build whose oneDNN has them runs fp16 on oneDNN.
    if (!named.onednnReason(BenchDtype::fp16).empty())
        QVERIFY(QString::fromStdString(named.unsupportedReason(BenchDtype::fp16)).contains("fp16"));
}

void TestOnednnMatmul::eachResultNamesItsLibrary() {
    OnednnBackend backend(options(true));
    MatmulRunOptions quick;
    quick.repeats = 2;
    quick.maxWarmupRuns = 2;
    quick.minSampleSeconds = 0;
    const MatmulSweep sweep = runMatmulSweep(
        backend,
        {{32, 32, 32, BenchDtype::fp32}, {32, 32, 32, BenchDtype::bf16}, {8, 8, 8, BenchDtype::fp64}}, quick);
    QCOMPARE(sweep.results.size(), std::size_t{3});
    QCOMPARE(sweep.results[0].cpuBackend, std::string("onednn"));
    QVERIFY(!sweep.results[0].implementation.empty());
    QCOMPARE(sweep.results[1].cpuBackend, std::string("onednn"));
    QVERIFY(sweep.results[1].maxRelError <= errorBound(BenchDtype::bf16, 32));
    QCOMPARE(sweep.results[2].cpuBackend, std::string("eigen"));
    QCOMPARE(sweep.results[2].implementation, std::string("eigen:double"));
    QVERIFY(sweep.results[2].maxRelError < 1e-14);
}

void TestOnednnMatmul::deviceNamesLibraryIsaAndBf16Promise() {
    OnednnBackend backend(options(false, true));
    const DeviceInfo d = backend.deviceInfo();
    QCOMPARE(d.backend, std::string("cpu"));
    QCOMPARE(d.cpuBackend, std::string("onednn"));
    QVERIFY(QRegularExpression("^\\d+\\.\\d+\\.\\d+$")
                .match(QString::fromStdString(d.cpuBackendVersion))
                .hasMatch());
    QVERIFY(!d.isa.empty() && d.isa != "unknown");
    QCOMPARE(d.threads, 2);
    QVERIFY(d.promisedFlopsPerSecond.count("fp32"));
    const double ratio = d.promisedFlopsPerSecond.at("bf16") / d.promisedFlopsPerSecond.at("fp32");
    // Twice fp32 with AVX512_BF16's dot products, 16× with AMX tiles, the same without bf16 instructions.
    const double expected = d.isa == "avx512_core_amx" ? 16.0 : d.isa == "avx512_core_bf16" ? 2.0 : 1.0;
    QCOMPARE(ratio, expected);
    QVERIFY(QString::fromStdString(d.promisedBasis).contains("bf16: "));
    QVERIFY(!d.promisedFlopsPerSecond.count("fp64")); // refused by name: no promise
}

void TestOnednnMatmul::registryDefaultIsTheFasterOnePresent() {
    QCOMPARE(defaultCpuBackend(), CpuBackendKind::onednn);
    for (const BackendEntry& e : listCpuBackends())
        QVERIFY2(e.available, e.unavailableReason.c_str());
    auto byDefault = makeBackend("cpu");
    QVERIFY(byDefault != nullptr);
    QVERIFY(byDefault->unsupportedReason(BenchDtype::fp64).empty()); // the default runs fp64 on Eigen
    BackendOptions eigenOnly;
    eigenOnly.cpuBackend = CpuBackendKind::eigen;
    auto eigen = makeBackend("cpu", eigenOnly);
    QVERIFY(eigen != nullptr);
    QVERIFY(eigen->unsupportedPrecisionReason(PrecisionRecipe::mixedBf16).find("--backend onednn") !=
            std::string::npos);
}

QTEST_APPLESS_MAIN(TestOnednnMatmul)
#include "tst_onednn_matmul.moc"

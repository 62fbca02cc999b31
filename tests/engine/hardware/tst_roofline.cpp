// SPDX-License-Identifier: GPL-3.0-or-later
// The roofline: ridge points from datasheets, GEMM intensity by hand, the attainable roof and the
// above-the-roof flag.
#include "engine/hardware/roofline.h"

#include <QtTest>

using namespace napkin;

class TestRoofline : public QObject {
    Q_OBJECT
private slots:
    void ridgeFromDatasheet_data();
    void ridgeFromDatasheet();
    void noRoofWithoutAPeak();
    void gemmIntensity_data();
    void gemmIntensity();
    void attainableIsTheLowerRoof_data();
    void attainableIsTheLowerRoof();
    void aPointAboveItsRoofIsFlagged();
};

void TestRoofline::ridgeFromDatasheet_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("compute");
    QTest::addColumn<double>("ridge");
    // H100 SXM: 989.4 TFLOP/s dense bf16 (H100 whitepaper), 3.35 TB/s HBM3 (datasheet).
    QTest::newRow("H100 SXM bf16: 989.4e12 / 3.35e12")
        << "H100-SXM" << int(ComputeType::bf16) << 989.4e12 / 3.35e12;
    QTest::newRow("H100 SXM fp8: 1978.9e12 / 3.35e12")
        << "H100-SXM" << int(ComputeType::fp8) << 1978.9e12 / 3.35e12;
    QTest::newRow("H100 SXM fp32: 67e12 / 3.35e12")
        << "H100-SXM" << int(ComputeType::fp32) << 67e12 / 3.35e12;
    // A100 SXM 80GB: 312 TFLOP/s bf16, 2.039 TB/s (A100 datasheet).
    QTest::newRow("A100 SXM bf16: 312e12 / 2.039e12")
        << "A100-SXM" << int(ComputeType::bf16) << 312e12 / 2.039e12;
}

void TestRoofline::ridgeFromDatasheet() {
    QFETCH(QString, id);
    QFETCH(int, compute);
    QFETCH(double, ridge);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY(gpu);
    const auto roof = gpuRoofline(*gpu, ComputeType(compute));
    QVERIFY(roof);
    QCOMPARE(roof->ridgeFlopsPerByte(), ridge);
    QVERIFY(roof->peakSource.starts_with("datasheet: "));
    QCOMPARE(roof->device, id.toStdString());
}

void TestRoofline::noRoofWithoutAPeak() {
    const GpuSpec* a100 = GpuCatalog::builtIn().find("A100-SXM");
    QVERIFY(a100);
    std::string why;
    QVERIFY(!gpuRoofline(*a100, ComputeType::fp8, &why));
    QCOMPARE(why, std::string("A100-SXM has no dense fp8 peak in the catalog"));
}

void TestRoofline::gemmIntensity_data() {
    QTest::addColumn<double>("m");
    QTest::addColumn<double>("n");
    QTest::addColumn<double>("k");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<double>("intensity");
    // Square n: 2n³ / (3n²·bytes) = 2n / (3·bytes).
    QTest::newRow("n=1024 fp32: 2048/12") << 1024.0 << 1024.0 << 1024.0 << 4.0 << 2048.0 / 12.0;
    QTest::newRow("n=4096 bf16: 8192/6") << 4096.0 << 4096.0 << 4096.0 << 2.0 << 8192.0 / 6.0;
    QTest::newRow("n=8192 fp8: 16384/3") << 8192.0 << 8192.0 << 8192.0 << 1.0 << 16384.0 / 3.0;
    // A matrix-vector product (n = 1) is about 1 FLOP per weight element: 2·4096·4096 / ((4096² + 2·4096)·2).
    QTest::newRow("GEMV 4096x4096 bf16")
        << 4096.0 << 1.0 << 4096.0 << 2.0 << 2.0 * 4096 * 4096 / ((4096.0 * 4096 + 2 * 4096) * 2);
}

void TestRoofline::gemmIntensity() {
    QFETCH(double, m);
    QFETCH(double, n);
    QFETCH(double, k);
    QFETCH(double, bytes);
    QFETCH(double, intensity);
    QCOMPARE(gemmArithmeticIntensity(m, n, k, bytes), intensity);
    QCOMPARE(gemmBytes(m, n, k, bytes), (m * k + k * n + m * n) * bytes);
    QCOMPARE(gemmBytes(m, n, k, bytes, bytes), gemmBytes(m, n, k, bytes));
    QCOMPARE(gemmBytes(m, n, k, 1, 2), m * k + k * n + 2 * m * n); // fp8 A and B, bf16 C
}

void TestRoofline::attainableIsTheLowerRoof_data() {
    QTest::addColumn<double>("intensity");
    QTest::addColumn<double>("attainable");
    QTest::addColumn<QString>("bound");
    // H100 SXM bf16: ridge 295.3 FLOPs/byte.
    QTest::newRow("1 FLOP/byte: the bandwidth") << 1.0 << 3.35e12 << "memory";
    QTest::newRow("100 FLOPs/byte: 335 TFLOP/s") << 100.0 << 335e12 << "memory";
    QTest::newRow("1365 FLOPs/byte (n=4096 bf16): the peak") << 8192.0 / 6.0 << 989.4e12 << "compute";
}

void TestRoofline::attainableIsTheLowerRoof() {
    QFETCH(double, intensity);
    QFETCH(double, attainable);
    QFETCH(QString, bound);
    const auto roof = gpuRoofline(*GpuCatalog::builtIn().find("H100-SXM"), ComputeType::bf16);
    QVERIFY(roof);
    QCOMPARE(roof->attainableFlopsPerSecond(intensity), attainable);
    QCOMPARE(QString::fromStdString(roof->boundAt(intensity)), bound);
}

void TestRoofline::aPointAboveItsRoofIsFlagged() {
    Roofline roof;
    roof.peakFlopsPerSecond = 200e9;
    roof.bandwidthBytesPerSecond = 10e9;
    QVERIFY(!isAboveRoof(roof, 170.0, 199e9));
    QVERIFY(!isAboveRoof(roof, 170.0, 209e9)); // within 5 %: timing noise
    QVERIFY(isAboveRoof(roof, 170.0, 220e9));
    QVERIFY(isAboveRoof(roof, 1.0, 20e9)); // twice what the bandwidth allows at 1 FLOP/byte
}

QTEST_APPLESS_MAIN(TestRoofline)
#include "tst_roofline.moc"

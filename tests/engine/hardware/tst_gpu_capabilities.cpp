// SPDX-License-Identifier: GPL-3.0-or-later
// What a part cannot do: bf16 without tensor cores, tf32 before Ampere, fp8 before Ada/Hopper, FlashAttention
// 2 before Ampere. Rows are the catalog's parts and the architectures' published feature sets (Ampere brought
// bf16 and tf32 tensor cores; fp8 came with Ada Lovelace and Hopper; the flash-attention README requires
// Ampere, Ada or Hopper for FlashAttention 2).
#include "engine/hardware/gpu_capabilities.h"

#include <QtTest>

using namespace napkin;

class TestGpuCapabilities : public QObject {
    Q_OBJECT
private slots:
    void effectivePeak_data();
    void effectivePeak();
    void flashAttention_data();
    void flashAttention();
    void computeCapabilityParses();
};

void TestGpuCapabilities::effectivePeak_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("compute");
    QTest::addColumn<double>("peak");            // 0: refused
    QTest::addColumn<QString>("reasonMentions"); // empty: the catalog's own peak, no reason
    QTest::newRow("T4 bf16 falls to fp32 8.1")
        << "T4" << int(ComputeType::bf16) << 8.1e12 << "no bf16 tensor cores";
    QTest::newRow("T4 bf16 names fp16 as the fast path")
        << "T4" << int(ComputeType::bf16) << 8.1e12 << "fp16 with loss scaling";
    QTest::newRow("V100 bf16 falls to fp32 15.7")
        << "V100-16GB" << int(ComputeType::bf16) << 15.7e12 << "Volta";
    QTest::newRow("T4 fp16 tensor cores 65") << "T4" << int(ComputeType::fp16) << 65e12 << "";
    QTest::newRow("T4 tf32 is plain fp32") << "T4" << int(ComputeType::tf32) << 8.1e12 << "tf32 needs Ampere";
    QTest::newRow("A100 fp8 refused")
        << "A100-SXM" << int(ComputeType::fp8) << 0.0 << "fp8 needs Ada Lovelace or Hopper";
    QTest::newRow("A100 fp8 names the architecture")
        << "A100-SXM" << int(ComputeType::fp8) << 0.0 << "Ampere, compute capability 8.0";
    QTest::newRow("T4 fp8 refused") << "T4" << int(ComputeType::fp8) << 0.0 << "fp8";
    QTest::newRow("L4 fp8 242 (Ada)") << "L4" << int(ComputeType::fp8) << 242e12 << "";
    QTest::newRow("H100 bf16 989.4 (lecture)") << "H100-SXM" << int(ComputeType::bf16) << 989.4e12 << "";
    QTest::newRow("A10 bf16 not given: refused, not guessed")
        << "A10" << int(ComputeType::bf16) << 0.0 << "no source gives";
    QTest::newRow("TPU v5e fp32 not given")
        << "TPU-v5e" << int(ComputeType::fp32) << 0.0 << "no source gives";
}

void TestGpuCapabilities::effectivePeak() {
    QFETCH(QString, id);
    QFETCH(int, compute);
    QFETCH(double, peak);
    QFETCH(QString, reasonMentions);
    const GpuSpec* gpu = GpuCatalog::builtIn().find(id.toStdString());
    QVERIFY(gpu);
    const EffectivePeak effective = effectiveDensePeak(*gpu, ComputeType(compute));
    QCOMPARE(effective.flopsPerSecond, peak);
    QCOMPARE(effective.refused, peak == 0);
    const QString reason = QString::fromStdString(effective.reason);
    if (reasonMentions.isEmpty())
        QVERIFY2(reason.isEmpty(), qPrintable(reason));
    else
        QVERIFY2(reason.contains(reasonMentions), qPrintable(reason));
}

void TestGpuCapabilities::flashAttention_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("runs");
    QTest::newRow("T4 (7.5): no") << "T4" << false;
    QTest::newRow("V100 (7.0): no") << "V100-32GB" << false;
    QTest::newRow("A100 (8.0): yes") << "A100-SXM" << true;
    QTest::newRow("A10 (8.6): yes") << "A10" << true;
    QTest::newRow("H100 (9.0): yes") << "H100-SXM" << true;
    QTest::newRow("MI300X: no CUDA rule") << "MI300X" << true;
}

void TestGpuCapabilities::flashAttention() {
    QFETCH(QString, id);
    QFETCH(bool, runs);
    const std::string reason = flashAttentionUnavailableReason(*GpuCatalog::builtIn().find(id.toStdString()));
    QCOMPARE(reason.empty(), runs);
    if (!runs)
        QVERIFY(reason.find("scores") != std::string::npos);
}

void TestGpuCapabilities::computeCapabilityParses() {
    QCOMPARE(*computeCapabilityNumber(*GpuCatalog::builtIn().find("T4")), 7.5);
    QCOMPARE(*computeCapabilityNumber(*GpuCatalog::builtIn().find("RTX-5090")), 12.0);
    QVERIFY(!computeCapabilityNumber(*GpuCatalog::builtIn().find("TPU-v6e")));
    GpuSpec odd;
    odd.computeCapability = "8.x";
    QVERIFY(!computeCapabilityNumber(odd));
}

QTEST_APPLESS_MAIN(TestGpuCapabilities)
#include "tst_gpu_capabilities.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// /proc/cpuinfo parsing and the CPU's spec peak: cores × lanes × FMA units × 2 × clock, or "unknown".
#include "engine/hardware/cpu_facts.h"

#include <QtTest>

using namespace napkin;

namespace {
// Two physical cores, hyper-threaded (4 logical CPUs), as Linux prints them.
QString cpuinfo(const QString& model, const QString& flags) {
    QString text;
    const int cores[] = {0, 1, 0, 1};
    for (int p = 0; p < 4; ++p)
        text +=
            QString("processor\t: %1\nmodel name\t: %2\nphysical id\t: 0\ncore id\t\t: %3\nflags\t\t: %4\n\n")
                .arg(p)
                .arg(model)
                .arg(cores[p])
                .arg(flags);
    return text;
}
} // namespace

class TestCpuFacts : public QObject {
    Q_OBJECT
private slots:
    void specPeak_data();
    void specPeak();
};

void TestCpuFacts::specPeak_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("flags");
    QTest::addColumn<double>("cpufreqKhz"); // 0: no cpufreq
    QTest::addColumn<QString>("simd");
    QTest::addColumn<double>("peak"); // 0: unknown
    const QString avx512 = "fpu sse sse2 avx fma avx2 avx512f avx512dq";
    // 2 cores × 16 lanes × 2 FMA units × 2 × 3.0 GHz
    QTest::newRow("AVX-512, clock from the model name")
        << "Intel(R) Xeon(R) Gold 6248 CPU @ 3.00GHz" << avx512 << 0.0 << "avx512f+fma" << 384e9;
    // 2 cores × 8 lanes × 2 × 2 × 3.5 GHz: cpufreq wins over the model name
    QTest::newRow("AVX2, clock from cpufreq") << "Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz"
                                              << "sse2 avx fma avx2" << 3.5e6 << "avx2+fma" << 224e9;
    // no FMA: a multiply and an add port, 4 lanes
    QTest::newRow("SSE2 only") << "Old CPU @ 2GHz"
                               << "fpu sse sse2" << 0.0 << "sse2" << 2 * 4 * 1 * 2 * 2e9;
    QTest::newRow("no clock anywhere (this VM)") << "AMD EPYC" << avx512 << 0.0 << "avx512f+fma" << 0.0;
    QTest::newRow("avx512 flag as a prefix only is not avx512f")
        << "X @ 1.0GHz"
        << "sse2 avx avx512fp16x" << 0.0 << "avx" << 2 * 8 * 1 * 2 * 1e9;
}

void TestCpuFacts::specPeak() {
    QFETCH(QString, model);
    QFETCH(QString, flags);
    QFETCH(double, cpufreqKhz);
    QFETCH(QString, simd);
    QFETCH(double, peak);
    const CpuFacts f = parseCpuFacts(cpuinfo(model, flags).toStdString(),
                                     cpufreqKhz > 0 ? std::optional<double>(cpufreqKhz) : std::nullopt);
    QCOMPARE(f.logicalCpus, 4);
    QCOMPARE(f.physicalCores, 2);
    QCOMPARE(QString::fromStdString(f.modelName), model);
    QCOMPARE(QString::fromStdString(simdName(f)), simd);
    const SpecPeak p = specFp32Peak(f);
    if (peak == 0) {
        QVERIFY(!p.flopsPerSecond);
        QVERIFY(QString::fromStdString(p.formula).startsWith("unknown"));
    } else {
        QVERIFY(p.flopsPerSecond);
        QCOMPARE(*p.flopsPerSecond, peak);
        QVERIFY(QString::fromStdString(p.formula).contains("cores"));
    }
}

QTEST_APPLESS_MAIN(TestCpuFacts)
#include "tst_cpu_facts.moc"

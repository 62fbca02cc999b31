// SPDX-License-Identifier: GPL-3.0-or-later
// What storing a number costs: rounding error, neighbours, bit text and tensor sizes.
#include "engine/numerics/float_rounding.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace napkin;

namespace {
const double inf = std::numeric_limits<double>::infinity();

FloatFormat formatNamed(const QString& name) {
    return *floatFormatFromName(name.toStdString());
}
} // namespace

class TestFloatRounding : public QObject {
    Q_OBJECT
private slots:
    void errors_data();
    void errors();
    void errorWithinHalfUlp_data();
    void errorWithinHalfUlp();
    void neighbours_data();
    void neighbours();
    void bitText_data();
    void bitText();
    void tensorSize_data();
    void tensorSize();
};

void TestFloatRounding::errors_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("absError");
    QTest::addColumn<double>("relError");
    QTest::newRow("fp16(1e-8): all of it lost") << "fp16" << 1e-8 << 1e-8 << 1.0;
    QTest::newRow("fp16(0.1)") << "fp16" << 0.1 << 0.1 - 0.0999755859375 << (0.1 - 0.0999755859375) / 0.1;
    QTest::newRow("E4M3(0.1)") << "fp8-e4m3" << 0.1 << 0.1015625 - 0.1 << (0.1015625 - 0.1) / 0.1;
    QTest::newRow("fp16(65520) overflows: infinite error") << "fp16" << 65520.0 << inf << inf;
    QTest::newRow("E4M3(1000) is NaN: infinite error") << "fp8-e4m3" << 1000.0 << inf << inf;
    QTest::newRow("exact: fp16(1)") << "fp16" << 1.0 << 0.0 << 0.0;
    QTest::newRow("zero") << "bf16" << 0.0 << 0.0 << 0.0;
}

void TestFloatRounding::errors() {
    QFETCH(QString, format);
    QFETCH(double, input);
    QFETCH(double, absError);
    QFETCH(double, relError);
    const FloatRounding r = roundToFormat(formatNamed(format), input);
    QVERIFY(r.absError.has_value());
    QVERIFY(r.relError.has_value());
    QCOMPARE(*r.absError, absError);
    QCOMPARE(*r.relError, relError);
}

// Unit roundoff: in the normal range, round-to-nearest is off by at most half an ulp, i.e. a relative
// error of at most eps / 2 = 2^-(mantissaBits + 1). A random sweep over each format's normal range.
void TestFloatRounding::errorWithinHalfUlp_data() {
    QTest::addColumn<QString>("format");
    for (const char* name : {"fp32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2"})
        QTest::newRow(name) << name;
}

void TestFloatRounding::errorWithinHalfUlp() {
    QFETCH(QString, format);
    const FloatFormat f = formatNamed(format);
    const FloatFacts facts = floatFacts(f);
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> logMagnitude(std::log2(facts.minNormal), std::log2(facts.max));
    for (int i = 0; i < 20000; ++i) {
        const double x = std::exp2(logMagnitude(random));
        const FloatRounding r = roundToFormat(f, x);
        QVERIFY2(*r.relError <= facts.eps / 2, qPrintable(QString::number(x, 'g', 17)));
        QVERIFY(*r.absError <= r.ulp / 2 || r.value > x); // a carry into the next binade doubles the ulp
    }
}

void TestFloatRounding::neighbours_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<double>("previous"); // NaN: none
    QTest::addColumn<double>("next");
    QTest::addColumn<double>("ulp");
    const double none = std::numeric_limits<double>::quiet_NaN();
    QTest::newRow("fp16 1: 1 ± ulp, ulp = eps")
        << "fp16" << 1.0 << 1 - std::ldexp(1, -11) << 1 + std::ldexp(1, -10) << 0.0009765625;
    QTest::newRow("fp16 0: ±min subnormal")
        << "fp16" << 0.0 << -std::ldexp(1, -24) << std::ldexp(1, -24) << std::ldexp(1, -24);
    QTest::newRow("fp16 65504: next is inf") << "fp16" << 65504.0 << 65472.0 << inf << 32.0;
    QTest::newRow("fp16 -65504: previous is -inf") << "fp16" << -65504.0 << -inf << -65472.0 << 32.0;
    QTest::newRow("E4M3 448: nothing above (NaN)") << "fp8-e4m3" << 448.0 << 416.0 << none << 32.0;
    QTest::newRow("E4M3 min subnormal")
        << "fp8-e4m3" << std::ldexp(1, -9) << 0.0 << std::ldexp(1, -8) << std::ldexp(1, -9);
    QTest::newRow("E5M2 57344: next is inf") << "fp8-e5m2" << 57344.0 << 49152.0 << inf << 8192.0;
    QTest::newRow("bf16 1: ulp 2^-7")
        << "bf16" << 1.0 << 1 - std::ldexp(1, -8) << 1 + std::ldexp(1, -7) << 0.0078125;
}

void TestFloatRounding::neighbours() {
    QFETCH(QString, format);
    QFETCH(double, input);
    QFETCH(double, previous);
    QFETCH(double, next);
    QFETCH(double, ulp);
    const FloatRounding r = roundToFormat(formatNamed(format), input);
    QCOMPARE(r.previous.has_value(), !std::isnan(previous));
    if (r.previous)
        QCOMPARE(*r.previous, previous);
    QCOMPARE(r.next.has_value(), !std::isnan(next));
    if (r.next)
        QCOMPARE(*r.next, next);
    QCOMPARE(r.ulp, ulp);
}

void TestFloatRounding::bitText_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<QString>("hex");
    QTest::addColumn<QString>("binary");
    QTest::addColumn<uint>("exponentField");
    QTest::addColumn<uint>("mantissaField");
    QTest::newRow("fp32 1") << "fp32" << 1.0 << "0x3f800000"
                            << "0 01111111 00000000000000000000000" << 127u << 0u;
    QTest::newRow("fp16 1") << "fp16" << 1.0 << "0x3c00"
                            << "0 01111 0000000000" << 15u << 0u;
    QTest::newRow("bf16 -2") << "bf16" << -2.0 << "0xc000"
                             << "1 10000000 0000000" << 128u << 0u;
    QTest::newRow("E4M3 448") << "fp8-e4m3" << 448.0 << "0x7e"
                              << "0 1111 110" << 15u << 6u;
    QTest::newRow("E5M2 -inf") << "fp8-e5m2" << -inf << "0xfc"
                               << "1 11111 00" << 31u << 0u;
}

void TestFloatRounding::bitText() {
    QFETCH(QString, format);
    QFETCH(double, input);
    QFETCH(QString, hex);
    QFETCH(QString, binary);
    QFETCH(uint, exponentField);
    QFETCH(uint, mantissaField);
    const FloatFormat f = formatNamed(format);
    const FloatRounding r = roundToFormat(f, input);
    QCOMPARE(QString::fromStdString(floatBitsHex(f, r.bits)), hex);
    QCOMPARE(QString::fromStdString(floatBitsBinary(f, r.bits)), binary);
    QCOMPARE(r.fields.exponent, exponentField);
    QCOMPARE(r.fields.mantissa, mantissaField);
    QCOMPARE(r.fields.sign, std::signbit(input) ? 1u : 0u);
}

void TestFloatRounding::tensorSize_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<QList<double>>("shape");
    QTest::addColumn<double>("bytes");
    QTest::newRow("4×8 fp32 = 128 B") << "fp32" << QList<double>{4, 8} << 128.0;
    QTest::newRow("GPT-3 FFN 12288·4 × 12288 fp32 = 2304 MiB")
        << "fp32" << QList<double>{12288 * 4, 12288} << 2304.0 * 1024 * 1024;
    QTest::newRow("same in bf16 = 1152 MiB")
        << "bf16" << QList<double>{12288 * 4, 12288} << 1152.0 * 1024 * 1024;
    QTest::newRow("same in fp8 = 576 MiB")
        << "fp8-e4m3" << QList<double>{12288 * 4, 12288} << 576.0 * 1024 * 1024;
    QTest::newRow("scalar fp16 = 2 B") << "fp16" << QList<double>{} << 2.0;
}

void TestFloatRounding::tensorSize() {
    QFETCH(QString, format);
    QFETCH(QList<double>, shape);
    QFETCH(double, bytes);
    QCOMPARE(tensorBytes(std::vector<double>(shape.begin(), shape.end()), formatNamed(format)), bytes);
}

QTEST_APPLESS_MAIN(TestFloatRounding)
#include "tst_float_rounding.moc"

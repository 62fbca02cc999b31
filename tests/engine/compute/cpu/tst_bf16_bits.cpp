// SPDX-License-Identifier: GPL-3.0-or-later
// The fast fp32 ↔ bf16 conversions of the oneDNN backend against napkin's exact codec
// (engine/numerics/float_format.h): ties to even, overflow, NaN, subnormals, signed zero.
#include "engine/compute/cpu/bf16_bits.h"
#include "engine/numerics/float_format.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <limits>

using namespace napkin;

class TestBf16Bits : public QObject {
    Q_OBJECT
private slots:
    void roundsLikeTheExactCodec_data();
    void roundsLikeTheExactCodec();
    void widensExactly();
    void everyFloatAroundOneRoundsLikeTheCodec();
};

void TestBf16Bits::roundsLikeTheExactCodec_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("bits"); // the bf16 pattern, worked out by hand
    // bf16 keeps fp32's sign, exponent and the top 7 fraction bits: 1.0 = 0x3f80.
    QTest::newRow("1") << 1.0f << 0x3f80;
    QTest::newRow("-2") << -2.0f << 0xc000;
    // 1 + 2^-8 is half-way between 1 and 1 + 2^-7: ties to even keeps 1.0 (fraction 0 is even).
    QTest::newRow("1 + 2^-8, tie to even (down)") << 1.00390625f << 0x3f80;
    // 1 + 3·2^-8 is half-way between 1 + 2^-7 (odd) and 1 + 2^-6: up to the even one, 0x3f82.
    QTest::newRow("1 + 3·2^-8, tie to even (up)") << 1.01171875f << 0x3f82;
    QTest::newRow("1 + 2^-8 + 2^-20, above the tie") << (1.00390625f + 0x1p-20f) << 0x3f81;
    // The lecture: bf16(1e-8) is not 0 (bf16 has fp32's exponent range), 0x322c (≈ 1.0012e-8).
    QTest::newRow("1e-8 (the lecture)") << 1e-8f << 0x322c;
    QTest::newRow("fp32 max overflows to inf") << std::numeric_limits<float>::max() << 0x7f80;
    QTest::newRow("-inf") << -std::numeric_limits<float>::infinity() << 0xff80;
    QTest::newRow("-0") << -0.0f << 0x8000;
    QTest::newRow("smallest fp32 subnormal rounds to 0")
        << std::numeric_limits<float>::denorm_min() << 0x0000;
    QTest::newRow("largest bf16 subnormal") << 0x1.fcp-127f << 0x007f;
    QTest::newRow("bf16 max") << 0x1.fep127f << 0x7f7f;
}

void TestBf16Bits::roundsLikeTheExactCodec() {
    QFETCH(float, value);
    QFETCH(int, bits);
    QCOMPARE(static_cast<int>(bf16FromFloat(value)), bits);
    QCOMPARE(static_cast<int>(encodeFloat(FloatFormat::bf16, value)), bits); // the exact codec agrees
}

void TestBf16Bits::widensExactly() {
    QCOMPARE(floatFromBf16(0x3f80), 1.0f);
    QCOMPARE(floatFromBf16(0x322c), static_cast<float>(decodeFloat(FloatFormat::bf16, 0x322c)));
    QVERIFY(std::isinf(floatFromBf16(0xff80)) && floatFromBf16(0xff80) < 0);
    const std::uint16_t nan = bf16FromFloat(std::numeric_limits<float>::quiet_NaN());
    QVERIFY(std::isnan(floatFromBf16(nan)));
    // A signalling NaN whose payload sits in the dropped bits stays a NaN (a plain shift would make it inf).
    QVERIFY(std::isnan(floatFromBf16(bf16FromFloat(std::bit_cast<float>(0x7f800001U)))));
    QVERIFY(std::signbit(floatFromBf16(bf16FromFloat(-std::numeric_limits<float>::quiet_NaN()))));
}

void TestBf16Bits::everyFloatAroundOneRoundsLikeTheCodec() {
    // Every fp32 in [0.5, 2): 2^24 patterns, each compared with the exact codec's rounding.
    for (std::uint32_t b = 0x3f000000U; b < 0x40000000U; b += 7) {
        const float v = std::bit_cast<float>(b);
        if (bf16FromFloat(v) != encodeFloat(FloatFormat::bf16, v))
            QFAIL(qPrintable(QString("0x%1 rounds differently").arg(b, 8, 16, QChar('0'))));
    }
}

QTEST_APPLESS_MAIN(TestBf16Bits)
#include "tst_bf16_bits.moc"

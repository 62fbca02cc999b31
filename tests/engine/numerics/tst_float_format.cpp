// SPDX-License-Identifier: GPL-3.0-or-later
// The float codecs against the specifications: OCP 8-bit Floating Point Specification rev 1.0 (E4M3,
// E5M2), IEEE 754 binary16 / binary32, bfloat16, and torch.finfo's published facts.
#include "engine/numerics/float_format.h"

#include <QtTest>

#include <bit>
#include <cmath>
#include <limits>
#include <random>

using namespace napkin;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

FloatFormat formatNamed(const QString& name) {
    const auto format = floatFormatFromName(name.toStdString());
    if (!format)
        qFatal("unknown format %s", qPrintable(name));
    return *format;
}

// Same value, where NaN equals NaN and −0 differs from +0.
bool sameValue(double a, double b) {
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    return a == b && std::signbit(a) == std::signbit(b);
}

// The OCP FP8 spec's value of a pattern, written out independently of the engine (std::pow, not the
// engine's ldexp path). E4M3: bias 7, S.1111.111 is NaN, no kInf. E5M2: bias 15, IEEE specials.
double ocpValue(bool e4m3, unsigned bits) {
    const int mantissaBits = e4m3 ? 3 : 2;
    const int bias = e4m3 ? 7 : 15;
    const unsigned s = bits >> 7;
    const unsigned e = (bits >> mantissaBits) & (e4m3 ? 0xfu : 0x1fu);
    const unsigned m = bits & (e4m3 ? 0x7u : 0x3u);
    const double sign = s ? -1.0 : 1.0;
    const double fraction = m / std::pow(2.0, mantissaBits);
    if (e4m3 && e == 15 && m == 7)
        return kNan;
    if (!e4m3 && e == 31)
        return m == 0 ? sign * kInf : kNan;
    if (e == 0)
        return sign * std::pow(2.0, 1 - bias) * fraction;
    return sign * std::pow(2.0, int(e) - bias) * (1.0 + fraction);
}

// PyTorch's float → float8 conversions (c10/util/Float8_e4m3fn.h, Float8_e5m2.h), restated from their
// published algorithm: round-to-nearest-even by bit arithmetic on the fp32 pattern. An independent
// reference for "as PyTorch does", checked on float inputs (PyTorch converts through float).
std::uint32_t torchE4m3fn(float value) {
    std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = f & 0x80000000u;
    f ^= sign;
    std::uint32_t result = 0;
    if (f >= (1087u << 20)) { // 480.0f and above, kInf and NaN
        result = 0x7f;
    } else if (f < (121u << 23)) { // below 2^-6: subnormal, rounded by a float addition
        const std::uint32_t denormMask = 141u << 23;
        f = std::bit_cast<std::uint32_t>(std::bit_cast<float>(f) + std::bit_cast<float>(denormMask));
        result = (f - denormMask) & 0xffu;
    } else {
        const std::uint32_t mantissaOdd = (f >> 20) & 1u;
        f += (std::uint32_t(7 - 127) << 23) + 0x7ffffu;
        f += mantissaOdd;
        result = (f >> 20) & 0xffu;
    }
    return result | (sign >> 24);
}

std::uint32_t torchE5m2(float value) {
    std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = f & 0x80000000u;
    f ^= sign;
    std::uint32_t result = 0;
    if (f >= (143u << 23)) { // 65536.0f and above
        result = f > (255u << 23) ? 0x7fu : 0x7cu;
    } else if (f < (113u << 23)) { // below 2^-14
        const std::uint32_t denormMask = 134u << 23;
        f = std::bit_cast<std::uint32_t>(std::bit_cast<float>(f) + std::bit_cast<float>(denormMask));
        result = (f - denormMask) & 0xffu;
    } else {
        const std::uint32_t mantissaOdd = (f >> 21) & 1u;
        f += (std::uint32_t(15 - 127) << 23) + 0xfffffu;
        f += mantissaOdd;
        result = (f >> 21) & 0xffu;
    }
    return result | (sign >> 24);
}

} // namespace

class TestFloatFormat : public QObject {
    Q_OBJECT
private slots:
    void fp8AllPatterns_data();
    void fp8AllPatterns();
    void fp8Literals_data();
    void fp8Literals();
    void sixteenBitRoundTrip_data();
    void sixteenBitRoundTrip();
    void fp32MatchesTheCast();
    void fp8MatchesPyTorch();
    void encode_data();
    void encode();
    void facts_data();
    void facts();
};

void TestFloatFormat::fp8AllPatterns_data() {
    QTest::addColumn<QString>("format");
    QTest::newRow("E4M3: 256 patterns") << "fp8-e4m3";
    QTest::newRow("E5M2: 256 patterns") << "fp8-e5m2";
}

void TestFloatFormat::fp8AllPatterns() {
    QFETCH(QString, format);
    const FloatFormat f = formatNamed(format);
    const bool e4m3 = f == FloatFormat::fp8_e4m3;
    int nans = 0;
    for (unsigned bits = 0; bits < 256; ++bits) {
        const double expected = ocpValue(e4m3, bits);
        const double decoded = decodeFloat(f, bits);
        QVERIFY2(sameValue(decoded, expected), qPrintable(QString("pattern 0x%1: %2, spec says %3")
                                                              .arg(bits, 2, 16, QChar('0'))
                                                              .arg(decoded)
                                                              .arg(expected)));
        if (std::isnan(expected)) {
            ++nans;
            QCOMPARE(classifyFloat(f, bits), FloatClass::nan);
            continue;
        }
        QCOMPARE(encodeFloat(f, decoded), bits); // every finite value and ±kInf re-encodes to itself
    }
    QCOMPARE(nans, e4m3 ? 2 : 6); // E4M3: S.1111.111 only; E5M2: S.11111.{01,10,11}
}

void TestFloatFormat::fp8Literals_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<uint>("bits");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("cls");
    QTest::newRow("E4M3 0x7E = 448, largest") << "fp8-e4m3" << 0x7eu << 448.0 << int(FloatClass::normal);
    QTest::newRow("E4M3 0x08 = 2^-6, min normal")
        << "fp8-e4m3" << 0x08u << std::ldexp(1, -6) << int(FloatClass::normal);
    QTest::newRow("E4M3 0x01 = 2^-9, min subnormal")
        << "fp8-e4m3" << 0x01u << std::ldexp(1, -9) << int(FloatClass::subnormal);
    QTest::newRow("E4M3 0x07 = 7·2^-9")
        << "fp8-e4m3" << 0x07u << 7 * std::ldexp(1, -9) << int(FloatClass::subnormal);
    QTest::newRow("E4M3 0x7F = NaN") << "fp8-e4m3" << 0x7fu << kNan << int(FloatClass::nan);
    QTest::newRow("E4M3 0xFF = NaN") << "fp8-e4m3" << 0xffu << kNan << int(FloatClass::nan);
    QTest::newRow("E4M3 0x78 = 256 (not inf)") << "fp8-e4m3" << 0x78u << 256.0 << int(FloatClass::normal);
    QTest::newRow("E4M3 0x38 = 1") << "fp8-e4m3" << 0x38u << 1.0 << int(FloatClass::normal);
    QTest::newRow("E4M3 0x80 = -0") << "fp8-e4m3" << 0x80u << -0.0 << int(FloatClass::zero);
    QTest::newRow("E4M3 0xFE = -448") << "fp8-e4m3" << 0xfeu << -448.0 << int(FloatClass::normal);
    QTest::newRow("E5M2 0x7B = 57344, largest") << "fp8-e5m2" << 0x7bu << 57344.0 << int(FloatClass::normal);
    QTest::newRow("E5M2 0x7C = inf") << "fp8-e5m2" << 0x7cu << kInf << int(FloatClass::infinity);
    QTest::newRow("E5M2 0xFC = -inf") << "fp8-e5m2" << 0xfcu << -kInf << int(FloatClass::infinity);
    QTest::newRow("E5M2 0x7D = NaN") << "fp8-e5m2" << 0x7du << kNan << int(FloatClass::nan);
    QTest::newRow("E5M2 0x01 = 2^-16")
        << "fp8-e5m2" << 0x01u << std::ldexp(1, -16) << int(FloatClass::subnormal);
    QTest::newRow("E5M2 0x04 = 2^-14")
        << "fp8-e5m2" << 0x04u << std::ldexp(1, -14) << int(FloatClass::normal);
    QTest::newRow("E5M2 0x3C = 1") << "fp8-e5m2" << 0x3cu << 1.0 << int(FloatClass::normal);
}

void TestFloatFormat::fp8Literals() {
    QFETCH(QString, format);
    QFETCH(uint, bits);
    QFETCH(double, value);
    QFETCH(int, cls);
    const FloatFormat f = formatNamed(format);
    QVERIFY2(sameValue(decodeFloat(f, bits), value), qPrintable(QString::number(decodeFloat(f, bits))));
    QCOMPARE(int(classifyFloat(f, bits)), cls);
}

void TestFloatFormat::sixteenBitRoundTrip_data() {
    QTest::addColumn<QString>("format");
    QTest::newRow("fp16: 65536 patterns") << "fp16";
    QTest::newRow("bf16: 65536 patterns") << "bf16";
}

void TestFloatFormat::sixteenBitRoundTrip() {
    QFETCH(QString, format);
    const FloatFormat f = formatNamed(format);
    int nans = 0;
    for (std::uint32_t bits = 0; bits < 65536; ++bits) {
        const double decoded = decodeFloat(f, bits);
        // Independent decoders: bf16 is the top half of an fp32; fp16 by the binary16 formula.
        double expected = 0;
        if (f == FloatFormat::bf16) {
            expected = std::bit_cast<float>(bits << 16);
        } else {
            const unsigned e = (bits >> 10) & 0x1f, m = bits & 0x3ff;
            const double sign = (bits >> 15) ? -1.0 : 1.0;
            expected = e == 31  ? (m ? kNan : sign * kInf)
                       : e == 0 ? sign * std::pow(2.0, -14) * (m / 1024.0)
                                : sign * std::pow(2.0, int(e) - 15) * (1 + m / 1024.0);
        }
        if (!sameValue(decoded, expected))
            QFAIL(qPrintable(QString("pattern 0x%1 decodes to %2, expected %3")
                                 .arg(bits, 4, 16, QChar('0'))
                                 .arg(decoded)
                                 .arg(expected)));
        if (std::isnan(decoded)) {
            ++nans;
            continue;
        }
        if (encodeFloat(f, decoded) != bits)
            QFAIL(qPrintable(QString("pattern 0x%1 re-encodes to 0x%2")
                                 .arg(bits, 4, 16, QChar('0'))
                                 .arg(encodeFloat(f, decoded), 4, 16, QChar('0'))));
    }
    QCOMPARE(nans, f == FloatFormat::fp16 ? 2 * 1023 : 2 * 127);
}

// C++'s double → float conversion is correctly rounded (ties to even); the generic codec must agree,
// across normals, subnormals, overflow and the halfway points between adjacent floats.
void TestFloatFormat::fp32MatchesTheCast() {
    std::mt19937_64 random(20261122);
    std::uniform_int_distribution<int> exponent(-160, 130);
    std::uniform_real_distribution<double> mantissa(1.0, 2.0);
    for (int i = 0; i < 200000; ++i) {
        double x = std::ldexp(mantissa(random), exponent(random));
        if (i % 3 == 0) { // the exact midpoint between two adjacent floats
            const float f = static_cast<float>(x);
            x = (double(f) + double(std::nextafter(f, std::numeric_limits<float>::infinity()))) / 2;
        }
        if (i % 2)
            x = -x;
        const std::uint32_t expected = std::bit_cast<std::uint32_t>(static_cast<float>(x));
        if (encodeFloat(FloatFormat::fp32, x) != expected)
            QFAIL(qPrintable(QString("%1: 0x%2, cast gives 0x%3")
                                 .arg(x, 0, 'g', 17)
                                 .arg(encodeFloat(FloatFormat::fp32, x), 8, 16, QChar('0'))
                                 .arg(expected, 8, 16, QChar('0'))));
        if (decodeFloat(FloatFormat::fp32, expected) != double(static_cast<float>(x)))
            QFAIL("fp32 decode differs from the cast");
    }
}

// On float inputs (PyTorch converts through float) the codec gives PyTorch's float8 bits, including
// the E4M3 edge: 464 (halfway 448 ↔ 480) ties to even 448; anything above 464 is NaN.
void TestFloatFormat::fp8MatchesPyTorch() {
    for (std::uint32_t pattern = 0; pattern < 0x7f800000u; pattern += 4093) {
        for (std::uint32_t nearby : {pattern, pattern | 0x7ffffu, pattern & ~0xfffffu,
                                     (pattern & ~0xfffffu) | 0x80000u, (pattern & ~0x1fffffu) | 0x100000u}) {
            for (float x : {std::bit_cast<float>(nearby), -std::bit_cast<float>(nearby)}) {
                if (encodeFloat(FloatFormat::fp8_e4m3, x) != torchE4m3fn(x))
                    QFAIL(qPrintable(QString("E4M3(%1) = 0x%2, PyTorch 0x%3")
                                         .arg(x, 0, 'g', 9)
                                         .arg(encodeFloat(FloatFormat::fp8_e4m3, x), 2, 16)
                                         .arg(torchE4m3fn(x), 2, 16)));
                if (encodeFloat(FloatFormat::fp8_e5m2, x) != torchE5m2(x))
                    QFAIL(qPrintable(QString("E5M2(%1) = 0x%2, PyTorch 0x%3")
                                         .arg(x, 0, 'g', 9)
                                         .arg(encodeFloat(FloatFormat::fp8_e5m2, x), 2, 16)
                                         .arg(torchE5m2(x), 2, 16)));
            }
        }
    }
    QCOMPARE(torchE4m3fn(464.0f), 0x7eu); // the reference itself says 448 for 464
    QCOMPARE(torchE4m3fn(465.0f), 0x7fu);
}

void TestFloatFormat::encode_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<double>("input");
    QTest::addColumn<bool>("saturate");
    QTest::addColumn<double>("expected");
    QTest::addColumn<qint64>("bits");       // -1: not checked
    const double half = std::ldexp(1, -11); // half an fp16 ulp at 1
    QTest::newRow("fp16(1e-8) = 0: underflow") << "fp16" << 1e-8 << false << 0.0 << qint64(0x0000);
    QTest::newRow("bf16(1e-8) = 172·2^-34 ≠ 0")
        << "bf16" << 1e-8 << false << std::ldexp(172, -34) << qint64(0x322c);
    QTest::newRow("fp16(65504) = 65504, largest") << "fp16" << 65504.0 << false << 65504.0 << qint64(0x7bff);
    QTest::newRow("fp16(65519.99) = 65504") << "fp16" << 65519.99 << false << 65504.0 << qint64(0x7bff);
    QTest::newRow("fp16(65520) = inf: tie to even 65536")
        << "fp16" << 65520.0 << false << kInf << qint64(0x7c00);
    QTest::newRow("fp16(-65520) = -inf") << "fp16" << -65520.0 << false << -kInf << qint64(0xfc00);
    QTest::newRow("fp16(1 + 2^-11) = 1: tie to even") << "fp16" << 1 + half << false << 1.0 << qint64(0x3c00);
    QTest::newRow("fp16(1 + 3·2^-11) = 1 + 2^-9: tie to even")
        << "fp16" << 1 + 3 * half << false << 1 + 4 * half << qint64(0x3c02);
    QTest::newRow("fp16(1 + 2^-11 + 2^-40): no double rounding")
        << "fp16" << 1 + half + std::ldexp(1, -40) << false << 1 + 2 * half << qint64(0x3c01);
    QTest::newRow("fp16(2049) = 2048: tie to even") << "fp16" << 2049.0 << false << 2048.0 << qint64(0x6800);
    QTest::newRow("fp16(2051) = 2052: tie to even") << "fp16" << 2051.0 << false << 2052.0 << qint64(0x6802);
    QTest::newRow("fp16(0.1)") << "fp16" << 0.1 << false << 0.0999755859375 << qint64(0x2e66);
    QTest::newRow("fp16(2^-24) = min subnormal")
        << "fp16" << std::ldexp(1, -24) << false << std::ldexp(1, -24) << qint64(0x0001);
    QTest::newRow("fp16(2^-25) = 0: tie to even")
        << "fp16" << std::ldexp(1, -25) << false << 0.0 << qint64(0x0000);
    QTest::newRow("fp16(-2^-25) = -0") << "fp16" << -std::ldexp(1, -25) << false << -0.0 << qint64(0x8000);
    QTest::newRow("fp16(just above 2^-25) = 2^-24")
        << "fp16" << std::ldexp(1 + std::ldexp(1, -30), -25) << false << std::ldexp(1, -24) << qint64(0x0001);
    QTest::newRow("fp16(3·2^-25) = 2^-23: tie to even")
        << "fp16" << 3 * std::ldexp(1, -25) << false << std::ldexp(1, -23) << qint64(0x0002);
    QTest::newRow("fp16 largest subnormal ↔ min normal tie → 2^-14")
        << "fp16" << std::ldexp(2047, -25) << false << std::ldexp(1, -14) << qint64(0x0400);
    QTest::newRow("fp16(-0) = -0") << "fp16" << -0.0 << false << -0.0 << qint64(0x8000);
    QTest::newRow("fp16(nan) = 0x7e00") << "fp16" << kNan << false << kNan << qint64(0x7e00);
    QTest::newRow("fp16(inf)") << "fp16" << kInf << false << kInf << qint64(0x7c00);
    QTest::newRow("bf16(1 + 2^-8) = 1: tie to even")
        << "bf16" << 1 + std::ldexp(1, -8) << false << 1.0 << qint64(0x3f80);
    QTest::newRow("bf16(1 + 3·2^-8) = 1 + 2^-6")
        << "bf16" << 1 + 3 * std::ldexp(1, -8) << false << 1 + std::ldexp(1, -6) << qint64(0x3f82);
    QTest::newRow("bf16(FLT_MAX) = inf")
        << "bf16" << 3.4028234663852886e38 << false << kInf << qint64(0x7f80);
    QTest::newRow("bf16 max") << "bf16" << 3.3895313892515355e38 << false << 3.3895313892515355e38
                              << qint64(0x7f7f);
    QTest::newRow("bf16(1e-40) = 2^-133, subnormal")
        << "bf16" << 1e-40 << false << std::ldexp(1, -133) << qint64(0x0001);
    QTest::newRow("bf16(nan) = 0x7fc0") << "bf16" << kNan << false << kNan << qint64(0x7fc0);
    QTest::newRow("fp32(0.1)") << "fp32" << 0.1 << false << 0.100000001490116119384765625
                               << qint64(0x3dcccccd);
    QTest::newRow("fp32(1e-46) = 0") << "fp32" << 1e-46 << false << 0.0 << qint64(0);
    QTest::newRow("fp32(1e39) = inf") << "fp32" << 1e39 << false << kInf << qint64(0x7f800000);
    QTest::newRow("E4M3(448) = 448") << "fp8-e4m3" << 448.0 << false << 448.0 << qint64(0x7e);
    QTest::newRow("E4M3(464) = 448: tie to even mantissa 110")
        << "fp8-e4m3" << 464.0 << false << 448.0 << qint64(0x7e);
    QTest::newRow("E4M3(464.001) = NaN: rounds to 480")
        << "fp8-e4m3" << 464.001 << false << kNan << qint64(0x7f);
    QTest::newRow("E4M3(480) = NaN") << "fp8-e4m3" << 480.0 << false << kNan << qint64(0x7f);
    QTest::newRow("E4M3(-1e6) = NaN") << "fp8-e4m3" << -1e6 << false << kNan << qint64(0xff);
    QTest::newRow("E4M3(inf) = NaN: no inf") << "fp8-e4m3" << kInf << false << kNan << qint64(0x7f);
    QTest::newRow("E4M3 saturating(1e6) = 448") << "fp8-e4m3" << 1e6 << true << 448.0 << qint64(0x7e);
    QTest::newRow("E4M3 saturating(-1e6) = -448") << "fp8-e4m3" << -1e6 << true << -448.0 << qint64(0xfe);
    QTest::newRow("E4M3 saturating(inf) = 448") << "fp8-e4m3" << kInf << true << 448.0 << qint64(0x7e);
    QTest::newRow("E4M3 saturating(nan) = NaN") << "fp8-e4m3" << kNan << true << kNan << qint64(0x7f);
    QTest::newRow("E4M3(0.1) = 0.1015625") << "fp8-e4m3" << 0.1 << false << 0.1015625 << qint64(0x1d);
    QTest::newRow("E4M3(2^-10) = 0: tie to even")
        << "fp8-e4m3" << std::ldexp(1, -10) << false << 0.0 << qint64(0x00);
    QTest::newRow("E4M3(3·2^-10) = 2^-8: tie to even")
        << "fp8-e4m3" << 3 * std::ldexp(1, -10) << false << std::ldexp(1, -8) << qint64(0x02);
    QTest::newRow("E5M2(57344) = 57344") << "fp8-e5m2" << 57344.0 << false << 57344.0 << qint64(0x7b);
    QTest::newRow("E5M2(61439) = 57344") << "fp8-e5m2" << 61439.0 << false << 57344.0 << qint64(0x7b);
    QTest::newRow("E5M2(61440) = inf: tie to even 65536")
        << "fp8-e5m2" << 61440.0 << false << kInf << qint64(0x7c);
    QTest::newRow("E5M2 saturating(1e6) = 57344") << "fp8-e5m2" << 1e6 << true << 57344.0 << qint64(0x7b);
    QTest::newRow("E5M2(2^-16) = min subnormal")
        << "fp8-e5m2" << std::ldexp(1, -16) << false << std::ldexp(1, -16) << qint64(0x01);
    QTest::newRow("E5M2(2^-17) = 0: tie to even")
        << "fp8-e5m2" << std::ldexp(1, -17) << false << 0.0 << qint64(0x00);
    QTest::newRow("E5M2(nan) = 0x7e") << "fp8-e5m2" << kNan << false << kNan << qint64(0x7e);
    QTest::newRow("fp16 ignores saturating") << "fp16" << 1e6 << true << kInf << qint64(0x7c00);
}

void TestFloatFormat::encode() {
    QFETCH(QString, format);
    QFETCH(double, input);
    QFETCH(bool, saturate);
    QFETCH(double, expected);
    QFETCH(qint64, bits);
    const FloatFormat f = formatNamed(format);
    const std::uint32_t encoded =
        encodeFloat(f, input, saturate ? OverflowMode::saturate : OverflowMode::standard);
    const double value = decodeFloat(f, encoded);
    QVERIFY2(sameValue(value, expected), qPrintable(QString("got %1 (0x%2), expected %3")
                                                        .arg(value, 0, 'g', 17)
                                                        .arg(encoded, 0, 16)
                                                        .arg(expected, 0, 'g', 17)));
    if (bits >= 0)
        QCOMPARE(qint64(encoded), bits);
}

void TestFloatFormat::facts_data() {
    QTest::addColumn<QString>("format");
    QTest::addColumn<int>("exponentBits");
    QTest::addColumn<int>("mantissaBits");
    QTest::addColumn<int>("bias");
    QTest::addColumn<double>("max");
    QTest::addColumn<double>("tiny");
    QTest::addColumn<double>("smallestSubnormal");
    QTest::addColumn<double>("eps");
    QTest::addColumn<double>("finitePatterns");
    // torch.finfo(dtype): max, tiny, smallest_subnormal, eps (as Python prints them).
    QTest::newRow("fp32") << "fp32" << 8 << 23 << 127 << 3.4028234663852886e38 << 1.1754943508222875e-38
                          << 1.401298464324817e-45 << 1.1920928955078125e-07 << 4278190080.0;
    QTest::newRow("fp16") << "fp16" << 5 << 10 << 15 << 65504.0 << 6.103515625e-05 << 5.960464477539063e-08
                          << 0.0009765625 << 63488.0;
    QTest::newRow("bf16") << "bf16" << 8 << 7 << 127 << 3.3895313892515355e38 << 1.1754943508222875e-38
                          << 9.183549615799121e-41 << 0.0078125 << 65280.0;
    QTest::newRow("fp8 e4m3fn") << "fp8-e4m3" << 4 << 3 << 7 << 448.0 << 0.015625 << 0.001953125 << 0.125
                                << 254.0;
    QTest::newRow("fp8 e5m2") << "fp8-e5m2" << 5 << 2 << 15 << 57344.0 << 6.103515625e-05 << 1.52587890625e-05
                              << 0.25 << 248.0;
}

void TestFloatFormat::facts() {
    QFETCH(QString, format);
    QFETCH(int, exponentBits);
    QFETCH(int, mantissaBits);
    QFETCH(int, bias);
    QFETCH(double, max);
    QFETCH(double, tiny);
    QFETCH(double, smallestSubnormal);
    QFETCH(double, eps);
    QFETCH(double, finitePatterns);
    const FloatFacts facts = floatFacts(formatNamed(format));
    QCOMPARE(facts.exponentBits, exponentBits);
    QCOMPARE(facts.mantissaBits, mantissaBits);
    QCOMPARE(facts.bias, bias);
    QCOMPARE(facts.max, max);
    QCOMPARE(facts.minNormal, tiny);
    QCOMPARE(facts.minSubnormal, smallestSubnormal);
    QCOMPARE(facts.eps, eps);
    QCOMPARE(facts.finiteBitPatterns, finitePatterns);
    QCOMPARE(facts.finiteValues, finitePatterns - 1);
    QCOMPARE(facts.totalBits, 1 + exponentBits + mantissaBits);
}

QTEST_APPLESS_MAIN(TestFloatFormat)
#include "tst_float_format.moc"

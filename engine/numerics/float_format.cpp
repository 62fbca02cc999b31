// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/float_format.h"

#include "engine/text/name_table.h"

#include <cmath>
#include <limits>

namespace napkin {
namespace {
// Names PyTorch and other tools use, besides the canonical ones in each FloatLayout.
constexpr NameTable<FloatFormat, 8> kFloatFormatAliases{{{FloatFormat::fp32, "float32"},
                                                         {FloatFormat::fp16, "float16"},
                                                         {FloatFormat::fp16, "half"},
                                                         {FloatFormat::bf16, "bfloat16"},
                                                         {FloatFormat::fp8_e4m3, "e4m3"},
                                                         {FloatFormat::fp8_e4m3, "float8_e4m3fn"},
                                                         {FloatFormat::fp8_e5m2, "e5m2"},
                                                         {FloatFormat::fp8_e5m2, "float8_e5m2"}}};
constexpr NameTable<FloatClass, 5> kFloatClassNames{{{FloatClass::zero, "zero"},
                                                     {FloatClass::subnormal, "subnormal"},
                                                     {FloatClass::normal, "normal"},
                                                     {FloatClass::infinity, "inf"},
                                                     {FloatClass::nan, "nan"}}};
} // namespace

namespace {

// Layouts: IEEE 754 binary32/binary16, Google Brain bfloat16, OCP 8-bit Floating Point Specification
// (OFP8) rev 1.0 for E4M3 (bias 7, no inf) and E5M2 (bias 15, IEEE-like).
constexpr FloatLayout kLayouts[] = {
    {"fp32", 8, 23, 127, SpecialEncoding::ieee},   {"fp16", 5, 10, 15, SpecialEncoding::ieee},
    {"bf16", 8, 7, 127, SpecialEncoding::ieee},    {"fp8-e4m3", 4, 3, 7, SpecialEncoding::finiteNan},
    {"fp8-e5m2", 5, 2, 15, SpecialEncoding::ieee},
};

std::uint32_t lowMask(int bits) {
    return bits >= 32 ? 0xffffffffu : ((std::uint32_t{1} << bits) - 1u);
}

std::uint32_t exponentAllOnes(const FloatLayout& f) {
    return lowMask(f.exponentBits);
}
std::uint32_t mantissaAllOnes(const FloatLayout& f) {
    return lowMask(f.mantissaBits);
}
std::uint32_t signBit(const FloatLayout& f) {
    return std::uint32_t{1} << (f.exponentBits + f.mantissaBits);
}
int minExponent(const FloatLayout& f) {
    return 1 - f.bias;
}

// The largest finite magnitude as a bit pattern: IEEE formats spend the all-ones exponent on inf/NaN;
// "fn" formats spend only the all-ones exponent with all-ones mantissa on NaN.
std::uint32_t maxFinitePattern(const FloatLayout& f) {
    if (f.special == SpecialEncoding::ieee)
        return ((exponentAllOnes(f) - 1u) << f.mantissaBits) | mantissaAllOnes(f);
    return (exponentAllOnes(f) << f.mantissaBits) | (mantissaAllOnes(f) - 1u);
}

std::uint32_t infinityPattern(const FloatLayout& f) {
    return exponentAllOnes(f) << f.mantissaBits;
}

// Canonical NaN: IEEE quiet NaN (top mantissa bit set: fp32 0x7fc00000, fp16 0x7e00, bf16 0x7fc0,
// E5M2 0x7e); E4M3 has a single NaN per sign, 0x7f.
std::uint32_t nanPattern(const FloatLayout& f) {
    if (f.special == SpecialEncoding::ieee)
        return infinityPattern(f) | (std::uint32_t{1} << (f.mantissaBits - 1));
    return (exponentAllOnes(f) << f.mantissaBits) | mantissaAllOnes(f);
}

// Round a non-negative double that is below 2^53 to an integer, ties to even. Written out rather than
// std::nearbyint so that it does not depend on the floating-point environment's rounding mode.
double roundHalfEven(double y) {
    const double lower = std::floor(y);
    const double fraction = y - lower; // exact: y and lower share the binade or lower is 0
    if (fraction > 0.5)
        return lower + 1;
    if (fraction < 0.5)
        return lower;
    return std::fmod(lower, 2.0) == 0.0 ? lower : lower + 1;
}

// ⌊log2 a⌋ for finite a > 0, exact also for subnormal doubles.
int floorLog2(double a) {
    int exponent = 0;
    std::frexp(a, &exponent); // a = m·2^exponent, m in [0.5, 1)
    return exponent - 1;
}

} // namespace

const FloatLayout& floatLayout(FloatFormat format) {
    return kLayouts[static_cast<int>(format)];
}

std::string_view floatFormatName(FloatFormat format) {
    return floatLayout(format).name;
}

std::optional<FloatFormat> floatFormatFromName(std::string_view name) {
    for (FloatFormat format : kFloatFormats)
        if (floatFormatName(format) == name)
            return format;
    return valueIn(kFloatFormatAliases, name);
}

FloatFacts floatFacts(FloatFormat format) {
    const FloatLayout& f = floatLayout(format);
    FloatFacts facts;
    facts.exponentBits = f.exponentBits;
    facts.mantissaBits = f.mantissaBits;
    facts.bias = f.bias;
    facts.totalBits = f.totalBits();
    facts.bytesPerElement = f.totalBits() / 8.0;
    facts.max = decodeFloat(format, maxFinitePattern(f));
    facts.minNormal = std::ldexp(1.0, minExponent(f));
    facts.minSubnormal = std::ldexp(1.0, minExponent(f) - f.mantissaBits);
    facts.eps = std::ldexp(1.0, -f.mantissaBits);
    // Per sign: every pattern up to and including the max-finite one is finite.
    facts.finiteBitPatterns = 2.0 * (static_cast<double>(maxFinitePattern(f)) + 1.0);
    facts.finiteValues = facts.finiteBitPatterns - 1.0;
    facts.hasInfinity = f.special == SpecialEncoding::ieee;
    return facts;
}

std::string_view floatClassName(FloatClass cls) {
    return nameIn(kFloatClassNames, cls);
}

std::uint32_t maskFloatBits(FloatFormat format, std::uint32_t bits) {
    return bits & lowMask(floatLayout(format).totalBits());
}

FloatFields floatFields(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    bits = maskFloatBits(format, bits);
    return {bits >> (f.exponentBits + f.mantissaBits), (bits >> f.mantissaBits) & exponentAllOnes(f),
            bits & mantissaAllOnes(f)};
}

FloatClass classifyFloat(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    const FloatFields fields = floatFields(format, bits);
    if (fields.exponent == exponentAllOnes(f)) {
        if (f.special == SpecialEncoding::ieee)
            return fields.mantissa == 0 ? FloatClass::infinity : FloatClass::nan;
        if (fields.mantissa == mantissaAllOnes(f))
            return FloatClass::nan;
        return FloatClass::normal;
    }
    if (fields.exponent == 0)
        return fields.mantissa == 0 ? FloatClass::zero : FloatClass::subnormal;
    return FloatClass::normal;
}

double decodeFloat(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    const FloatFields fields = floatFields(format, bits);
    const double sign = fields.sign ? -1.0 : 1.0;
    switch (classifyFloat(format, bits)) {
    case FloatClass::nan:
        return std::numeric_limits<double>::quiet_NaN();
    case FloatClass::infinity:
        return sign * std::numeric_limits<double>::infinity();
    case FloatClass::zero:
        return sign * 0.0;
    case FloatClass::subnormal: // 0.mantissa · 2^(1 − bias)
        return sign * std::ldexp(static_cast<double>(fields.mantissa), minExponent(f) - f.mantissaBits);
    case FloatClass::normal: // 1.mantissa · 2^(exponent − bias)
        return sign * std::ldexp(static_cast<double>(fields.mantissa | (mantissaAllOnes(f) + 1u)),
                                 static_cast<int>(fields.exponent) - f.bias - f.mantissaBits);
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::uint32_t encodeFloat(FloatFormat format, double value, OverflowMode overflow) {
    const FloatLayout& f = floatLayout(format);
    const std::uint32_t sign = std::signbit(value) ? signBit(f) : 0u;
    const bool saturate = overflow == OverflowMode::saturate && f.totalBits() == 8;
    if (std::isnan(value))
        return sign | nanPattern(f);
    const double magnitude = std::fabs(value);
    const double max = decodeFloat(format, maxFinitePattern(f));
    if (std::isinf(magnitude)) {
        if (saturate)
            return sign | maxFinitePattern(f);
        return sign | (f.special == SpecialEncoding::ieee ? infinityPattern(f) : nanPattern(f));
    }
    if (magnitude == 0.0)
        return sign;

    // Round in a format with this precision and an unbounded exponent range, but the format's minimum
    // exponent (gradual underflow): the quantum of the binade is 2^(e − mantissaBits) with
    // e = max(⌊log2 a⌋, 1 − bias). Scaling by a power of two is exact, so the only rounding is here.
    const int exponent = std::max(floorLog2(magnitude), minExponent(f));
    const double units = roundHalfEven(std::ldexp(magnitude, f.mantissaBits - exponent));
    const double rounded = std::ldexp(units, exponent - f.mantissaBits);
    // Overflow is decided after rounding (IEEE 754 §7.4): fp16 65519.99 → 65504, 65520 → inf; for E4M3
    // 464 is the tie between 448 (mantissa 110, even) and 480 (no such value) and rounds to 448.
    if (rounded > max) {
        if (saturate)
            return sign | maxFinitePattern(f);
        return sign | (f.special == SpecialEncoding::ieee ? infinityPattern(f) : nanPattern(f));
    }
    if (rounded < std::ldexp(1.0, minExponent(f))) // subnormal or zero: exponent field 0
        return sign | static_cast<std::uint32_t>(units);
    const int e = floorLog2(rounded); // may be one more than `exponent` after a carry
    const auto biased = static_cast<std::uint32_t>(e + f.bias);
    const auto fraction =
        static_cast<std::uint32_t>(std::ldexp(rounded, f.mantissaBits - e)) & mantissaAllOnes(f);
    return sign | (biased << f.mantissaBits) | fraction;
}

std::optional<double> nextAbove(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    bits = maskFloatBits(format, bits);
    const FloatClass cls = classifyFloat(format, bits);
    if (cls == FloatClass::nan)
        return std::nullopt;
    if (cls == FloatClass::zero)
        return decodeFloat(format, 1u);
    if (bits & signBit(f)) // negative: the next value up has a smaller magnitude
        return decodeFloat(format, bits - 1u);
    if (cls == FloatClass::infinity)
        return std::nullopt;
    const std::uint32_t next = bits + 1u; // positive: patterns are ordered like their values
    if (classifyFloat(format, next) == FloatClass::nan)
        return std::nullopt;
    return decodeFloat(format, next);
}

std::optional<double> nextBelow(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    const std::optional<double> mirrored = nextAbove(format, maskFloatBits(format, bits) ^ signBit(f));
    if (!mirrored)
        return std::nullopt;
    return -*mirrored;
}

double unitInLastPlace(FloatFormat format, double value) {
    const FloatLayout& f = floatLayout(format);
    if (!std::isfinite(value))
        return std::numeric_limits<double>::quiet_NaN();
    const int exponent =
        value == 0.0 ? minExponent(f) : std::max(floorLog2(std::fabs(value)), minExponent(f));
    return std::ldexp(1.0, exponent - f.mantissaBits);
}

} // namespace napkin

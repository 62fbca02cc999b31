// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Exact software codecs for the floating-point formats of deep-learning training: fp32, fp16 (IEEE
// binary16), bf16, fp8 E4M3 (OCP "fn" variant, as PyTorch float8_e4m3fn) and fp8 E5M2 (IEEE-like).
// One generic codec driven by (exponent bits, mantissa bits, bias, infinities or not), not five copies.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace napkin {

enum class FloatFormat { fp32, fp16, bf16, fp8_e4m3, fp8_e5m2 };

/// All formats, widest first (the order of the CLI's `formats[]`).
inline constexpr std::array<FloatFormat, 5> kFloatFormats = {
    FloatFormat::fp32, FloatFormat::fp16, FloatFormat::bf16, FloatFormat::fp8_e4m3, FloatFormat::fp8_e5m2};

/// How the all-ones exponent is used.
enum class SpecialEncoding {
    ieee,     ///< all-ones exponent: mantissa 0 = ±inf, anything else NaN (fp32, fp16, bf16, E5M2)
    finiteNan ///< "fn": no inf; only all-ones exponent *and* mantissa is NaN (E4M3, OCP FP8 spec)
};

/// The layout of a format: 1 sign bit, then exponentBits, then mantissaBits (the stored fraction).
struct FloatLayout {
    std::string_view name; ///< "fp32", "fp16", "bf16", "fp8-e4m3", "fp8-e5m2"
    int exponentBits = 0;
    int mantissaBits = 0;
    int bias = 0;
    SpecialEncoding special = SpecialEncoding::ieee;
    int totalBits() const { return 1 + exponentBits + mantissaBits; }
};

const FloatLayout& floatLayout(FloatFormat format);
std::string_view floatFormatName(FloatFormat format);
/// Accepts the names above; also "e4m3", "e5m2", "float8_e4m3fn", "float8_e5m2", "float32", ...
std::optional<FloatFormat> floatFormatFromName(std::string_view name);

/// What torch.finfo reports, plus counts. All values exact (powers of two times small integers).
struct FloatFacts {
    int exponentBits = 0;
    int mantissaBits = 0;
    int bias = 0;
    int totalBits = 0;
    double bytesPerElement = 0;   ///< totalBits / 8
    double max = 0;               ///< largest finite value (finfo.max)
    double minNormal = 0;         ///< 2^(1 − bias) (finfo.tiny, finfo.smallest_normal)
    double minSubnormal = 0;      ///< 2^(1 − bias − mantissaBits) (finfo.smallest_subnormal)
    double eps = 0;               ///< 2^−mantissaBits: gap from 1 to the next value (finfo.eps)
    double finiteBitPatterns = 0; ///< patterns that decode to a finite value, +0 and −0 counted apart
    double finiteValues = 0;      ///< distinct finite values (±0 counted once) = finiteBitPatterns − 1
    bool hasInfinity = false;
};

FloatFacts floatFacts(FloatFormat format);

enum class FloatClass { zero, subnormal, normal, infinity, nan };
/// "zero", "subnormal", "normal", "inf", "nan" (the CLI's `class`).
std::string_view floatClassName(FloatClass cls);

/// What an encoder does with a value whose rounded magnitude exceeds the format's max.
enum class OverflowMode {
    standard, ///< fp16, bf16, fp32, E5M2 → ±inf; E4M3 (no inf) → NaN, as PyTorch float8_e4m3fn
    saturate  ///< fp8 only (OCP FP8 saturating conversion): ±max, also for ±inf input. IEEE formats
              ///< ignore it.
};

/// Rounds `value` to the nearest representable value, ties to even, directly from the double (no
/// double rounding through float), with subnormals, signed zero and NaN; returns the bit pattern in
/// the low totalBits bits. NaN input gives the format's canonical quiet NaN with the input's sign.
std::uint32_t encodeFloat(FloatFormat format, double value, OverflowMode overflow = OverflowMode::standard);
/// The exact value of any bit pattern (bits above totalBits are ignored); NaN patterns give NaN.
double decodeFloat(FloatFormat format, std::uint32_t bits);
FloatClass classifyFloat(FloatFormat format, std::uint32_t bits);

/// The stored fields of a pattern: sign (0/1), biased exponent, mantissa (fraction bits).
struct FloatFields {
    std::uint32_t sign = 0;
    std::uint32_t exponent = 0;
    std::uint32_t mantissa = 0;
};
FloatFields floatFields(FloatFormat format, std::uint32_t bits);
/// Pattern with bits above totalBits cleared.
std::uint32_t maskFloatBits(FloatFormat format, std::uint32_t bits);

/// The next representable value above / below the pattern's value (inf counts where the format has
/// it); nullopt from NaN, above +inf / below −inf, and above E4M3's +448 (the next pattern is NaN).
/// Zero's neighbours are ±min subnormal.
std::optional<double> nextAbove(FloatFormat format, std::uint32_t bits);
std::optional<double> nextBelow(FloatFormat format, std::uint32_t bits);

/// Unit in the last place at a value: 2^(max(⌊log2|v|⌋, 1 − bias) − mantissaBits), the spacing of the
/// binade holding v (at 1.0 that is eps; at 0 the min subnormal). NaN for non-finite v.
double unitInLastPlace(FloatFormat format, double value);

} // namespace napkin

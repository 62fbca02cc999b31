// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What happens to one number stored in one format: its bits, the value it becomes, the error that
// costs, and the representable values around it. Built on the codecs of engine/float_format.h.
#include "engine/numerics/float_format.h"
#include "engine/numerics/number_parse.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace napkin {

struct FloatRounding {
    FloatFormat format = FloatFormat::fp32;
    double input = 0;       ///< the value asked for
    std::uint32_t bits = 0; ///< the stored pattern (low totalBits bits)
    double value = 0;       ///< the stored value (may be ±inf or NaN)
    FloatClass cls = FloatClass::zero;
    FloatFields fields;
    /// |value − input|; +inf when a finite input overflowed to inf or NaN; nullopt for non-finite input.
    std::optional<double> absError;
    /// absError / |input|; 0 for input 0; nullopt where absError is.
    std::optional<double> relError;
    std::optional<double> previous; ///< representable value just below `value` (nextBelow)
    std::optional<double> next;     ///< representable value just above `value` (nextAbove)
    double ulp = 0; ///< spacing of the binade holding `value` (unitInLastPlace); NaN if not finite
};

/// Rounds `input` into `format` (ties to even) and describes the result.
FloatRounding roundToFormat(FloatFormat format, double input, OverflowMode overflow = OverflowMode::standard);
/// Describes the value of an existing bit pattern (input = its own value, so the errors are 0).
FloatRounding describePattern(FloatFormat format, std::uint32_t bits);

/// A value to store: napkin's number syntax (parseNumber: "1e-8", "65504", "-1.5", "1.5k") plus the
/// words "inf", "+inf", "-inf", "infinity", "nan" (any case), which are legal values of a float.
ParsedNumber parseFloatValue(std::string_view text);

/// "0x3c00": the pattern in hex, zero-padded to totalBits / 4 digits.
std::string floatBitsHex(FloatFormat format, std::uint32_t bits);
/// "0 01111 0000000000": sign, exponent and mantissa bits separated by spaces.
std::string floatBitsBinary(FloatFormat format, std::uint32_t bits);

/// Bytes of a dense tensor of `shape` stored in `format`: Π shape · totalBits / 8
/// (4×8 fp32 = 128 B; 12288·4 × 12288 fp32 = 2 415 919 104 B = 2304 MiB). An empty shape is a scalar.
double tensorBytes(const std::vector<double>& shape, FloatFormat format);

} // namespace napkin

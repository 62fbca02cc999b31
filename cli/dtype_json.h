#pragma once
// The JSON documents of `napkin-cli dtype` (field names are a public contract, see DESIGN.md).
#include "engine/numerics/float_rounding.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin::cli {

/// A float as JSON: a number (whole numbers as integers, −0 as -0.0), or "inf", "-inf", "nan".
nlohmann::json floatValueJson(double value);

/// {name, bits, value, class, binary, sign, exponent, mantissa, abs_error, rel_error, previous, next, ulp}.
nlohmann::json floatRoundingToJson(const FloatRounding& rounding);

/// {name, exponent_bits, mantissa_bits, bias, total_bits, bytes_per_element, max, min_normal,
///  min_subnormal, eps, finite_values, finite_bit_patterns, has_inf}.
nlohmann::json floatFactsToJson(FloatFormat format);

/// {input, formats[]}: one value stored in every format, widest first.
nlohmann::json dtypeValueToJson(const std::string& input, double value, OverflowMode overflow);

} // namespace napkin::cli

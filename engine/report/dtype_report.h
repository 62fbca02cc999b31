// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A number stored in each float format, and the formats' facts, as JSON: the documents of
// `napkin-cli dtype --json` (the contract in docs/cli.md).
#include "engine/numerics/float_rounding.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace napkin {

/// A float as JSON: a number (whole numbers as integers, −0 as -0.0), or "inf", "-inf", "nan".
nlohmann::json floatValueJson(double value);

/// {name, bits, value, class, binary, sign, exponent, mantissa, abs_error, rel_error, previous, next, ulp}.
nlohmann::json floatRoundingToJson(const FloatRounding& rounding);

/// {name, exponent_bits, mantissa_bits, bias, total_bits, bytes_per_element, max, min_normal,
///  min_subnormal, eps, finite_values, finite_bit_patterns, has_inf}.
nlohmann::json floatFactsToJson(FloatFormat format);

/// {input, formats[]}: one value stored in every format, widest first.
nlohmann::json dtypeValueToJson(const std::string& input, double value, OverflowMode overflow);

/// The whole document: {formats[]} (the facts) when `info`, {values[]} when values were given (or when
/// nothing was asked, an empty list); `inputs` are the values as typed, `values` as read.
nlohmann::json dtypeDocumentJson(const std::vector<std::string>& inputs, const std::vector<double>& values,
                                 bool info, OverflowMode overflow);

} // namespace napkin

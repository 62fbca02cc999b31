// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reads the numbers people type for model sizes and token counts: "70e9", "15T", "1.5B", "124_439_808".
#include <string>
#include <string_view>

namespace napkin {

struct ParsedNumber {
    double value = 0.0;
    std::string error;       ///< empty when the text was a number
    std::size_t errorAt = 0; ///< 0-based character position of the problem
    bool ok() const { return error.empty(); }
};

/// Parses a finite decimal number with an optional scale suffix: k/K (1e3), M (1e6), B or G (1e9),
/// T (1e12), P (1e15), or the binary Ki, Mi, Gi, Ti (powers of 1024). '_' may separate digits.
/// Locale-independent; rejects inf, nan, trailing text and empty input with a reason and position.
ParsedNumber parseNumber(std::string_view text);

} // namespace napkin

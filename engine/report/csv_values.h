// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The conventions of Napkin's CSV files: numbers in their shortest exact form, absent values empty,
// text fields quoted only when they hold a comma, a quote or a line break (RFC 4180).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

/// The shortest text that reads back as the same double ("0.1", "65536", "1e+24").
std::string csvNumber(double value);
/// csvNumber, or an empty field when unset.
std::string csvOptional(const std::optional<double>& value);
/// A text field, quoted (with inner quotes doubled) when it needs to be.
std::string csvField(std::string_view text);
/// The fields joined by commas, ending in a newline (fields are used as given: quote text with csvField).
std::string csvRow(const std::vector<std::string>& fields);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The conventions every Napkin JSON document follows, in one place: whole numbers as integers, absent
// values as null, two-space indentation, text that is not valid UTF-8 echoed with U+FFFD.
#include "engine/numerics/timing_summary.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace napkin {

/// A number as JSON: whole values below 2^53 as integers (124439808, not 124439808.0).
nlohmann::json jsonNumber(double value);
/// A number as JSON, or null when unset; the value as it is (never turned into an integer).
nlohmann::json jsonOptional(const std::optional<double>& value);
/// A measured case's timing: seconds_median, seconds_p20, seconds_p80, seconds_min, samples.
nlohmann::json timingJson(const TimingSummary& timing);
/// The document as Napkin writes it: indented by two spaces, ending in a newline.
std::string jsonText(const nlohmann::json& document);

} // namespace napkin

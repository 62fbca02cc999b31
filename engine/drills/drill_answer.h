// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reading the room's answer ("2.5 GB", "2.5e9", "2.33 GiB", "40B", "144 days", "2^-10", "copy") and
// judging it against a drill's answer: right or not, and how far off (× and orders of magnitude).
#include "engine/drills/drill_question.h"

#include <string>
#include <string_view>
#include <vector>

namespace napkin {

struct DrillGuess {
    double value = 0;  ///< in the unit's base: bytes, FLOPs, days, parameters, elements; choice: its index
    std::string error; ///< empty when the text was read; else one line saying what was expected
    bool ok() const { return error.empty(); }
};

/// Reads `text` as an answer measured in `unit`. Numbers take napkin's syntax (parseNumber: "2.5e9", "40B",
/// "1.5k", "2.33Gi"), a power "2^-10", and the unit's own words: bytes B/KB/MB/GB/TB/KiB/MiB/GiB/TiB (a
/// trailing B is bytes, so "40B" is 40 bytes here), FLOPs with an SI prefix, time in s/min/h/days/weeks/
/// years (converted to days), parameters with B/M/T or billion/million/trillion. Choices match by name.
DrillGuess parseDrillGuess(std::string_view text, DrillUnit unit,
                           const std::vector<std::string>& choices = {});

struct DrillVerdict {
    DrillGuess guess;
    bool correct = false;
    /// guess / answer; 0 where undefined (a choice, a zero, opposite signs).
    double ratio = 0;
    /// log10(ratio): +1 is ten times too high; 0 where ratio is undefined.
    double ordersOfMagnitude = 0;
    std::string summary; ///< "right", "2.3× too high (0.36 orders of magnitude)", or the parse error
};

/// Right when |guess − answer| ≤ relativeTolerance · |answer| (exactly equal when the tolerance is 0).
DrillVerdict checkDrillAnswer(const DrillQuestion& question, std::string_view text);

} // namespace napkin

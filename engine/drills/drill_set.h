// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A drill: `count` questions from one seed. Same seed, topic and count → the same questions, in the CLI
// and the GUI alike (drill_random.h).
#include "engine/drills/drill_question.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace napkin {

/// Questions 0..count−1. Without a topic they cycle through allDrillTopics() in order, so any 11
/// consecutive questions cover every topic; question i draws from the dice seeded with (seed, i), so the
/// first questions of a longer drill are those of a shorter one.
std::vector<DrillQuestion> generateDrills(std::uint64_t seed, int count,
                                          std::optional<DrillTopic> topic = {});

/// One question: the i-th of generateDrills(seed, i + 1, topic).
DrillQuestion generateDrill(std::uint64_t seed, int index, std::optional<DrillTopic> topic = {});

} // namespace napkin

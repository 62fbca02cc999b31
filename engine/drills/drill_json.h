// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A drill as JSON: the document `napkin-cli drill --json` prints (docs/cli.md, "napkin-cli drill").
#include "engine/drills/drill_answer.h"
#include "engine/drills/drill_question.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace napkin {

/// One question: topic, kind, text, unit, answer, answer_text, choices, relative_tolerance, formula
/// (one string per line), page, setup (the page's inputs as a scenario merge patch), parameters (an object of
/// numbers, strings and lists).
nlohmann::json drillQuestionJson(const DrillQuestion& question);
/// {"format": "napkin-drill", "version": 1, "seed", "topic" (null: every topic), "count", "questions"}.
nlohmann::json drillDocumentJson(std::uint64_t seed, std::optional<DrillTopic> topic,
                                 const std::vector<DrillQuestion>& questions);
/// {"answer_given", "read", "error", "value", "correct", "ratio", "orders_of_magnitude", "summary"}.
nlohmann::json drillVerdictJson(std::string_view given, const DrillVerdict& verdict);

} // namespace napkin

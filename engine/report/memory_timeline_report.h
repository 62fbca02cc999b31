// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory over one training step as JSON: the predicted timeline of `napkin-cli account`, and the
// predicted-against-measured timeline of `napkin-cli bench train` (fields: docs/cli.md).
#include "engine/accounting/memory_timeline.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace napkin {

/// [{event, phase, bytes{parameters, gradients, master_weights, optimizer_state, activations, temporary,
/// total}}], one per event.
nlohmann::json memoryTimelineJson(const std::vector<TimelineEvent>& events);
/// [{event, phase, predicted_bytes, measured_bytes}], one per predicted event, totals; measured_bytes
/// is null where no event was measured (a trainer that records none).
nlohmann::json timelineComparisonJson(const MemoryTimeline& predicted,
                                      const std::vector<TimelineEvent>& measured);
/// The measured total at predicted event `index`, when the measurement has that same event there.
std::optional<double> measuredTotalAt(const MemoryTimeline& predicted,
                                      const std::vector<TimelineEvent>& measured, std::size_t index);
/// The name of the first event with the largest total, or null for no events.
nlohmann::json peakEventJson(const std::vector<TimelineEvent>& events);

} // namespace napkin

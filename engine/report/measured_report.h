// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A measured run beside the prediction as JSON: `napkin-cli compare --json` (fields: docs/cli.md).
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_step_time.h"
#include "engine/measured/measured_timeline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin {

/// {file, format, note, device, devices, predicted{peak_bytes, peak_event}, measured{peak_allocated_bytes,
/// peak_phase, peak_reserved_bytes, samples}, difference_bytes, attributed[{name, bytes, source}],
/// unexplained_bytes, reserved, phases[], timeline[], time (measuredTimeJson)}.
nlohmann::json measuredComparisonJson(const std::string& file, const MeasuredRun& run,
                                      const MeasuredTimeline& timeline, const MeasuredComparison& comparison,
                                      const MeasuredTimeComparison& time);

/// {predicted, why_not_predicted, basis, predicted_for, comparable, comparability, measured_step_range,
/// why_not_measured, phases[], step, predicted_outside_phases_seconds, measured_outside_phases_seconds}; each
/// phase and the step {phase, predicted_seconds, measured_seconds, ratio, difference_seconds,
/// predicted_by_kind{compute, memory, communication, bubble, overhead}, largest_rows[{name, phase, kind,
/// seconds}], measured_ranges[]}, a figure null where its side has none.
nlohmann::json measuredTimeJson(const MeasuredTimeComparison& time);

} // namespace napkin

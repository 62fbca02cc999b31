#pragma once
// A measured run beside the prediction as JSON: `napkin-cli compare --json` (fields: docs/cli.md).
#include "engine/measured/measured_comparison.h"
#include "engine/measured/measured_timeline.h"

#include <nlohmann/json.hpp>

#include <string>

namespace napkin {

/// {file, format, note, device, devices, predicted{peak_bytes, peak_event}, measured{peak_allocated_bytes,
/// peak_phase, peak_reserved_bytes, samples}, difference_bytes, attributed[{name, bytes, source}],
/// unexplained_bytes, reserved, phases[], timeline[]}.
nlohmann::json measuredComparisonJson(const std::string& file, const MeasuredRun& run,
                                      const MeasuredTimeline& timeline, const MeasuredComparison& comparison);

} // namespace napkin

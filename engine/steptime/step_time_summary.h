// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A predicted step read at a glance: its seconds by what bounds them (compute, memory, communication,
// bubble, overhead) and its largest ledger rows. The Accounting page's answer and its "How is this
// computed?" section read the step through these, as the CLI's text does.
#include "engine/steptime/step_time.h"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace napkin {

inline constexpr std::size_t kStepTimeKinds = 5;

/// Seconds on the critical path per StepTimeKind (indexed by the enum's value), summed over the ledger.
std::array<double, kStepTimeKinds> stepSecondsByKind(const StepTime& stepTime);

/// "compute 0.52 s + memory 0.11 s + communication 0.02 s": the kinds with any time, in enum order.
std::string stepSecondsByKindText(const StepTime& stepTime);
/// As the two above, over any time ledger (a serving pass's, inference_time.h).
std::array<double, kStepTimeKinds> ledgerSecondsByKind(const std::vector<StepTimeRow>& ledger);
std::string ledgerSecondsByKindText(const std::vector<StepTimeRow>& ledger);

/// Where the model stands against measured runs, for every screen that shows a prediction from `basis` (the
/// step time's, its profile's source): not yet within its 10 % target. From a published profile, on the side
/// of too short against the published runs it is checked on; from a calibrated one, against the CPU steps
/// it is checked on (docs/benchmarks.md, "Step time, predicted").
std::string_view stepTimeValidationNote(std::string_view basis);

/// The `count` rows with the most seconds, most first (ties keep ledger order).
std::vector<const StepTimeRow*> largestStepRows(const StepTime& stepTime, std::size_t count);

} // namespace napkin

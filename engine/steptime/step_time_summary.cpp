// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/steptime/step_time_summary.h"

#include "engine/numerics/quantity_format.h"
#include "engine/steptime/published_profiles.h"

#include <algorithm>

namespace napkin {

std::array<double, kStepTimeKinds> stepSecondsByKind(const StepTime& stepTime) {
    return ledgerSecondsByKind(stepTime.ledger);
}

std::array<double, kStepTimeKinds> ledgerSecondsByKind(const std::vector<StepTimeRow>& ledger) {
    std::array<double, kStepTimeKinds> seconds{};
    for (const StepTimeRow& row : ledger)
        seconds.at(static_cast<std::size_t>(row.kind)) += row.seconds;
    return seconds;
}

std::string stepSecondsByKindText(const StepTime& stepTime) {
    return ledgerSecondsByKindText(stepTime.ledger);
}

std::string ledgerSecondsByKindText(const std::vector<StepTimeRow>& ledger) {
    const std::array<double, kStepTimeKinds> seconds = ledgerSecondsByKind(ledger);
    std::string text;
    for (std::size_t k = 0; k < kStepTimeKinds; ++k) {
        if (seconds.at(k) <= 0)
            continue;
        if (!text.empty())
            text += " + ";
        text += std::string(stepTimeKindName(static_cast<StepTimeKind>(k))) + " " + formatDuration(seconds.at(k));
    }
    return text;
}

std::string_view stepTimeValidationNote(std::string_view basis) {
    if (isPublishedProfileSource(basis))
        return "not yet validated: against the published measured runs it is checked on (MPT on 8 H100s and "
               "A100s), the model predicts shorter steps than were measured, so its MFU reads high";
    return "not yet validated for a calibrated profile: against the CPU steps it is checked on (torch's eager "
           "steps and Napkin's own Cruncher, each calibrated in the same run), it is not yet within its 10 % "
           "target";
}

std::vector<const StepTimeRow*> largestStepRows(const StepTime& stepTime, std::size_t count) {
    std::vector<const StepTimeRow*> rows;
    rows.reserve(stepTime.ledger.size());
    for (const StepTimeRow& row : stepTime.ledger)
        rows.push_back(&row);
    std::stable_sort(rows.begin(), rows.end(),
                     [](const StepTimeRow* a, const StepTimeRow* b) { return a->seconds > b->seconds; });
    rows.resize(std::min(count, rows.size()));
    return rows;
}

} // namespace napkin

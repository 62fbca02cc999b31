// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_page.h"

namespace napkin {

TourStep drillTourStep(const DrillQuestion& question) {
    TourStep step;
    step.id = std::string(drillTopicName(question.topic));
    step.page = question.page;
    step.question = question.text;
    step.editJson = question.setupJson;
    return step;
}

} // namespace napkin

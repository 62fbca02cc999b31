// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A drill question's page, set up with its inputs: a tour step (tour_file.h) whose edit is the question's
// setup, so the app applies it as it applies a tour's steps.
#include "engine/drills/drill_question.h"
#include "engine/scenario/tour_file.h"

namespace napkin {

/// The step that shows `question` on its page: page, question text and setupJson as the edit.
TourStep drillTourStep(const DrillQuestion& question);

} // namespace napkin

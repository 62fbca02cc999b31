// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Tour steps as the app runs them: each a whole setup (the tour file's base with the step's edit, over a
// fresh window: tour_file.h; applied through the pages' own applyScenario, whatever the window held), a
// question, and the answer it hides and reveals, formatted from what the engine computes for that
// scenario (tour_answers.h), never typed in. The lecture's tour is a tour file
// shipped as a resource (resources/tours/lecture.napkin-tour.json); File ▸ Open tour… loads others.
#include "engine/scenario/scenario.h"
#include "engine/scenario/tour_file.h"

#include <QString>

#include <functional>
#include <string>
#include <vector>

struct LectureTourStep {
    QString id;                ///< "napkin-math", "dtypes", ...
    napkin::ScenarioPage page; ///< where the answer is on screen
    QString question;          ///< the caption's question, as the lecture asks it
    /// Every control of every page for this step: the tour's base with the step's edit, never the
    /// window's leftover state, so that the step answers its question as a fresh window would.
    napkin::Scenario setup;
    /// The answer for the edited scenario, formatted from the engine's results.
    std::function<QString(const napkin::Scenario&)> answer;
    std::string answerField; ///< which answer (napkin::tourAnswerFields()); empty: nothing to reveal
    QString notes;           ///< the instructor's notes
};

/// The app's steps for a tour read from a file.
std::vector<LectureTourStep> tourSteps(const napkin::Tour& tour);

/// The shipped lecture tour's resource path.
QString lectureTourResource();
/// The lecture tour as a Tour, read from the resource (empty when the resource is missing or refused,
/// which the tests rule out).
const napkin::Tour& lectureTour();
/// The lecture tour's steps, in the lecture's order.
const std::vector<LectureTourStep>& lectureTourSteps();

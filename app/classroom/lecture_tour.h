#pragma once
// The lecture tour: the lecture's questions in order, each as an edit of the window's scenario (the
// inputs the question sets, the page that shows the answer) and a caption whose answer is formatted from
// what the engine computes for that scenario, the numbers the page shows, never typed in. A plain table,
// so tests can iterate it; the controller applies each step through the pages' own applyScenario.
#include "engine/scenario/scenario.h"

#include <QString>

#include <functional>
#include <vector>

struct LectureTourStep {
    QString id;                ///< "napkin-math", "dtypes", ...
    napkin::ScenarioPage page; ///< where the answer is on screen
    QString question;          ///< the caption's question, as the lecture asks it
    /// Sets the inputs the question asks about, leaving every other control as it was.
    std::function<void(napkin::Scenario&)> edit;
    /// The answer for the edited scenario, formatted from the engine's results.
    std::function<QString(const napkin::Scenario&)> answer;
};

/// The steps, in the lecture's order.
const std::vector<LectureTourStep>& lectureTourSteps();

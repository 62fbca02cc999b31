// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/classroom/lecture_tour.h"

#include "app/classroom/tour_answers.h"
#include "widgets/text/engine_text.h"

#include <QFile>

using namespace napkin;

std::vector<LectureTourStep> tourSteps(const Tour& tour) {
    std::vector<LectureTourStep> steps;
    for (std::size_t i = 0; i < tour.steps.size(); ++i) {
        const TourStep& file = tour.steps[i];
        LectureTourStep step;
        step.id = toQString(file.id);
        step.page = file.page;
        step.question = toQString(file.question);
        // parseTour checked every step's setup; a Tour made in code with a bad edit gets its base alone.
        step.setup = tourStepScenario(tour, i).value_or(tourBase(tour).value_or(Scenario{}));
        step.setup.page = file.page;
        step.answerField = file.answer;
        step.answer = [field = file.answer](const Scenario& s) {
            return field.empty() ? QString() : tourAnswer(field, s).text;
        };
        step.notes = toQString(file.notes);
        steps.push_back(std::move(step));
    }
    return steps;
}

QString lectureTourResource() {
    return QStringLiteral(":/tours/lecture.napkin-tour.json");
}

const Tour& lectureTour() {
    static const Tour tour = [] {
        QFile file(lectureTourResource());
        if (!file.open(QIODevice::ReadOnly))
            return Tour{};
        const QByteArray bytes = file.readAll();
        TourParse parsed =
            parseTour(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
        return parsed.ok() ? *parsed.tour : Tour{};
    }();
    return tour;
}

// The lecture's convention, which every answer of its tour uses (the datasheet's capacity, an H100's
// "80 GB" = 80e9 B, and no overheads: memory_overheads.h), is the tour file's base.
const std::vector<LectureTourStep>& lectureTourSteps() {
    static const std::vector<LectureTourStep> steps = tourSteps(lectureTour());
    return steps;
}

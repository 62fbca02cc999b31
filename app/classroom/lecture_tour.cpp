#include "app/classroom/lecture_tour.h"

#include "app/classroom/tour_answers.h"
#include "widgets/text/engine_text.h"

#include <QFile>

using namespace napkin;

std::vector<LectureTourStep> tourSteps(const Tour& tour) {
    std::vector<LectureTourStep> steps;
    for (const TourStep& file : tour.steps) {
        LectureTourStep step;
        step.id = toQString(file.id);
        step.page = file.page;
        step.question = toQString(file.question);
        step.edit = [file](Scenario& s) {
            if (auto edited = applyTourStep(s, file)) // parseTour checked every edit against a fresh window
                s = *edited;
        };
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

const std::vector<LectureTourStep>& lectureTourSteps() {
    static const std::vector<LectureTourStep> steps = tourSteps(lectureTour());
    return steps;
}

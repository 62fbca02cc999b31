#include "app/classroom/lecture_tour.h"

#include "app/classroom/tour_answers.h"
#include "engine/accounting/memory_overheads.h"
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
    static const std::vector<LectureTourStep> steps = [] {
        std::vector<LectureTourStep> lecture = tourSteps(lectureTour());
        // The lecture's convention, which every answer of its tour uses: the datasheet's capacity (an
        // H100's "80 GB" = 80e9 B) and no overheads (memory_overheads.h). The page shows it selected.
        for (LectureTourStep& step : lecture)
            step.edit = [edit = std::move(step.edit)](Scenario& s) {
                edit(s);
                s.accounting.input.overheads = datasheetOverheads();
            };
        return lecture;
    }();
    return steps;
}

// SPDX-License-Identifier: GPL-3.0-or-later
// Tour files: read, written and read back the same; each step's edit applied through the scenario loader;
// a bad file refused with one line naming the field, the scenario loader's way.
#include "engine/scenario/tour_file.h"

#include <QtTest>

using namespace napkin;

namespace {

const char* kGood = R"({
  "format": "napkin-tour", "version": 1, "title": "Two questions",
  "steps": [
    {"id": "dtypes", "page": "formats", "question": "What is fp16(1e-8)?",
     "edit": {"formats": {"value": 1e-8}}, "answer": "dtype-underflow", "notes": "underflow"},
    {"id": "days", "page": "accounting", "question": "How long?",
     "edit": {"accounting": {"gpus": 1024, "mfu": 0.4}}, "answer": "training-time"}
  ]
})";

std::string withStep(const std::string& step) {
    return R"({"format": "napkin-tour", "version": 1, "steps": [)" + step + "]}";
}

} // namespace

class TestTourFile : public QObject {
    Q_OBJECT
private slots:
    void readsSteps() {
        const TourParse p = parseTour(kGood);
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(p.tour->title, std::string("Two questions"));
        QCOMPARE(p.tour->steps.size(), std::size_t{2});
        QCOMPARE(p.tour->steps[0].page, ScenarioPage::formats);
        QCOMPARE(p.tour->steps[0].answer, std::string("dtype-underflow"));
        QCOMPARE(p.tour->steps[0].notes, std::string("underflow"));
        QVERIFY(p.warnings.empty());
    }

    void editAppliesOverTheWindow() {
        const TourParse p = parseTour(kGood);
        QVERIFY(p.ok());
        Scenario window;
        window.formats.value = 3.5;
        window.accounting.input.batch = 7; // a control the step does not touch keeps its value
        const auto s = applyTourStep(window, p.tour->steps[1]);
        QVERIFY(s);
        QCOMPARE(s->page, ScenarioPage::accounting);
        QCOMPARE(s->accounting.input.gpus, 1024.0);
        QCOMPARE(s->accounting.input.mfu, 0.4);
        QCOMPARE(s->accounting.input.batch, 7.0);
        QCOMPARE(s->formats.value, 3.5);
        const auto f = applyTourStep(*s, p.tour->steps[0]);
        QVERIFY(f);
        QCOMPARE(f->formats.value, 1e-8);
        QCOMPARE(f->accounting.input.gpus, 1024.0);
    }

    // Version 2: every step is the tour's base (over a fresh window) with the step's edit, and the base
    // is written back.
    void stepsStartFromTheBase() {
        const TourParse p = parseTour(R"({"format": "napkin-tour", "version": 2,
            "base": {"accounting": {"overheads": {"basis": "datasheet"}, "batch": 3}},
            "steps": [{"page": "accounting", "question": "q", "edit": {"accounting": {"gpus": 8}}},
                      {"page": "formats", "question": "r", "edit": {"formats": {"value": 2}}}]})");
        QVERIFY2(p.ok(), p.error.c_str());
        const auto first = tourStepScenario(*p.tour, 0);
        QVERIFY(first);
        QCOMPARE(first->accounting.input.gpus, 8.0);
        QCOMPARE(first->accounting.input.batch, 3.0);
        QVERIFY(first->accounting.input.overheads.basis == MemoryBasis::datasheet);
        QCOMPARE(first->formats.value, Scenario{}.formats.value); // a fresh window's, not the last step's
        const auto second = tourStepScenario(*p.tour, 1);
        QVERIFY(second);
        QCOMPARE(second->page, ScenarioPage::formats);
        QCOMPARE(second->formats.value, 2.0);
        QCOMPARE(second->accounting.input.gpus, Scenario{}.accounting.input.gpus); // not step 1's 8
        QCOMPARE(second->accounting.input.batch, 3.0);
        QVERIFY(!tourStepScenario(*p.tour, 2));
        const TourParse again = parseTour(writeTour(*p.tour));
        QVERIFY2(again.ok(), again.error.c_str());
        QVERIFY(*again.tour == *p.tour);
        QVERIFY(tourStepScenario(*again.tour, 0) == first);
    }

    // A version 1 file (no base) still opens: each step from a fresh window.
    void versionOneStepsStartFresh() {
        const TourParse p = parseTour(kGood);
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(p.tour->baseJson, std::string("{}"));
        const auto days = tourStepScenario(*p.tour, 1);
        QVERIFY(days);
        Scenario fresh;
        fresh.page = ScenarioPage::accounting;
        fresh.accounting.input.gpus = 1024;
        fresh.accounting.input.mfu = 0.4;
        QVERIFY(*days == fresh);
        QVERIFY(writeTour(*p.tour).find("\"version\": 2") != std::string::npos);
    }

    void writesAndReadsBack() {
        const TourParse p = parseTour(kGood);
        QVERIFY(p.ok());
        const TourParse again = parseTour(writeTour(*p.tour));
        QVERIFY2(again.ok(), again.error.c_str());
        QVERIFY(*again.tour == *p.tour);
    }

    void recordsThePage() {
        Scenario s;
        s.page = ScenarioPage::tensor;
        s.tensor.shape = "4,4";
        s.tensor.expression = "x[1, 2]";
        Tour tour;
        tour.title = "recorded";
        tour.steps.push_back(recordTourStep(s, "Where is x[1, 2]?", "storage-offset"));
        const TourParse back = parseTour(writeTour(tour));
        QVERIFY2(back.ok(), back.error.c_str());
        const auto replayed = applyTourStep(Scenario{}, back.tour->steps[0]);
        QVERIFY(replayed);
        QCOMPARE(replayed->page, ScenarioPage::tensor);
        QCOMPARE(replayed->tensor.shape, std::string("4,4"));
        QCOMPARE(replayed->tensor.expression, std::string("x[1, 2]"));
    }

    void warnsUnknownKeys() {
        const TourParse p = parseTour(withStep(R"({"page": "formats", "question": "q", "colour": "red"})"));
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(p.warnings.size(), std::size_t{1});
        QVERIFY(p.warnings[0].find("steps[0].colour") != std::string::npos);
    }

    void refuses_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("says");
        QTest::newRow("not JSON") << "{"
                                  << "not valid JSON";
        QTest::newRow("a scenario") << R"({"format": "napkin-scenario", "version": 2})"
                                    << "not a Napkin tour";
        QTest::newRow("newer") << R"({"format": "napkin-tour", "version": 3, "steps": []})"
                               << "newer Napkin";
        QTest::newRow("version 0") << R"({"format": "napkin-tour", "version": 0, "steps": []})"
                                   << "1 or more";
        QTest::newRow("no steps") << R"({"format": "napkin-tour", "version": 1})"
                                  << "steps: missing";
        QTest::newRow("empty steps") << R"({"format": "napkin-tour", "version": 1, "steps": []})"
                                     << "steps: empty";
        QTest::newRow("step not object")
            << QString::fromStdString(withStep("3")) << "steps[0]: must be an object";
        QTest::newRow("no page") << QString::fromStdString(withStep(R"({"question": "q"})"))
                                 << "steps[0].page: missing";
        QTest::newRow("bad page") << QString::fromStdString(
                                         withStep(R"({"page": "kitchen", "question": "q"})"))
                                  << "steps[0].page: unknown page";
        QTest::newRow("blank question")
            << QString::fromStdString(withStep(R"({"page": "formats", "question": " "})"))
            << "steps[0].question: empty";
        QTest::newRow("question a number")
            << QString::fromStdString(withStep(R"({"page": "formats", "question": 3})"))
            << "steps[0].question: must be a string";
        QTest::newRow("unknown answer")
            << QString::fromStdString(
                   withStep(R"({"page": "formats", "question": "q", "answer": "everything"})"))
            << "steps[0].answer: unknown answer field";
        QTest::newRow("edit a list") << QString::fromStdString(
                                            withStep(R"({"page": "formats", "question": "q", "edit": [1]})"))
                                     << "steps[0].edit: must be an object";
        QTest::newRow("edit out of range")
            << QString::fromStdString(
                   withStep(R"({"page": "accounting", "question": "q", "edit": {"accounting": {"mfu": 7}}})"))
            << "steps[0].edit: accounting.mfu";
        QTest::newRow("edit changes the version")
            << QString::fromStdString(
                   withStep(R"({"page": "formats", "question": "q", "edit": {"version": 9}})"))
            << "cannot change the scenario's \"version\"";
        QTest::newRow("duplicate id")
            << R"({"format": "napkin-tour", "version": 1, "steps": [{"id": "a", "page": "formats", "question": "q"},
                 {"id": "a", "page": "formats", "question": "r"}]})"
            << "steps[1].id: \"a\" is used by an earlier step";
        QTest::newRow("base a list") << R"({"format": "napkin-tour", "version": 2, "base": [1],
                 "steps": [{"page": "formats", "question": "q"}]})"
                                     << "base: must be an object";
        QTest::newRow("base out of range")
            << R"({"format": "napkin-tour", "version": 2, "base": {"accounting": {"mfu": 7}},
                 "steps": [{"page": "formats", "question": "q"}]})"
            << "base: accounting.mfu";
        QTest::newRow("base changes the format")
            << R"({"format": "napkin-tour", "version": 2, "base": {"format": "x"},
                 "steps": [{"page": "formats", "question": "q"}]})"
            << "base: cannot change the scenario's \"format\"";
        QTest::newRow("deep") << QString(200, QLatin1Char('[')) << "nested deeper";
    }

    void refuses() {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const TourParse p = parseTour(text.toStdString());
        QVERIFY(!p.ok());
        QVERIFY2(QString::fromStdString(p.error).contains(says), p.error.c_str());
        QVERIFY(p.error.find('\n') == std::string::npos);
    }

    void refusesAFileThatIsNotOne() {
        const TourParse p = readTourFile("/nonexistent/tour.json");
        QVERIFY(!p.ok());
        QVERIFY(p.error.find("/nonexistent/tour.json") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTourFile)
#include "tst_tour_file.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The tour can ask "what MFU will this setup actually get?": a step's answer "step-time" is the step-time
// model's prediction for the step's scenario (the Accounting page's "Step time (predicted)" row, which the
// tour hides and reveals), judged against a guess as a number; a GPU without a profile says why instead.
#include "app/accounting/presets.h"
#include "app/classroom/tour_answers.h"
#include "app/shell/main_window.h"
#include "app/shell/tour_answer_widget.h"
#include "engine/numerics/quantity_format.h"
#include "engine/scenario/tour_file.h"
#include "engine/steptime/step_time.h"

#include <QLabel>
#include <QStandardPaths>
#include <QtTest>

using namespace napkin;

namespace {

Scenario onPreset(const char* id) {
    Scenario s;
    s.page = ScenarioPage::accounting;
    s.accounting.input = findPreset(QString::fromLatin1(id))->input;
    return s;
}

} // namespace

class TestTourStepTime : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aTourMayAskIt() {
        const TourParse p = parseTour(R"({"format": "napkin-tour", "version": 2, "steps": [
            {"id": "mfu-real", "page": "accounting", "question": "What MFU will GPT-3 get?",
             "edit": {"accounting": {"preset": "gpt3-175b"}}, "answer": "step-time"}]})");
        QVERIFY2(p.ok(), p.error.c_str());
        QCOMPARE(p.tour->steps[0].answer, std::string("step-time"));
    }

    void answerIsTheModels() {
        const Scenario s = onPreset("gpt3-175b");
        const AccountingInput& in = s.accounting.input;
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const StepTime t = publishedStepTime(in, account(in, gpu), gpu);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const TourAnswer a = tourAnswer("step-time", s);
        QVERIFY(a.ok);
        QCOMPARE(a.value.value_or(-1), t.mfu);
        QVERIFY2(a.headline.startsWith(QStringLiteral("MFU ") + QString::fromStdString(formatNumber(t.mfu))),
                 qPrintable(a.headline));
        QVERIFY2(a.headline.contains(QStringLiteral("(assumed ") + QString::fromStdString(formatNumber(in.mfu))),
                 qPrintable(a.headline));
        QVERIFY2(a.text.contains(QStringLiteral("not yet validated")), qPrintable(a.text));
    }

    void withoutAProfileSaysWhy() {
        Scenario s = onPreset("largest-8-h100");
        s.accounting.input.gpu = "T4";
        const TourAnswer a = tourAnswer("step-time", s);
        QVERIFY(!a.ok);
        QVERIFY(!a.value);
        QVERIFY2(a.headline.startsWith(QStringLiteral("not predicted: ")), qPrintable(a.headline));
    }

    // What the tour hides and reveals is the page's row.
    void theTourHidesThePagesRow() {
        MainWindow window;
        auto* label = qobject_cast<QLabel*>(tourAnswerWidget(window, "step-time"));
        QVERIFY(label);
        QCOMPARE(label->objectName(), QStringLiteral("value_stepTime"));
    }
};

QTEST_MAIN(TestTourStepTime)
#include "tst_tour_step_time.moc"

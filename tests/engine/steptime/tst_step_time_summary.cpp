// SPDX-License-Identifier: GPL-3.0-or-later
// The step read at a glance (step_time_summary.h): its seconds by what bounds them add up to the step, the
// kinds named are those with time, and the largest rows are the largest, most first.
#include "engine/steptime/step_time_summary.h"

#include "engine/models/model_presets.h"
#include "engine/steptime/published_profiles.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace napkin;

class TestStepTimeSummary : public QObject {
    Q_OBJECT
private slots:
    void kindsAddUpToTheStep_data() {
        QTest::addColumn<QString>("preset");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<double>("tp");
        QTest::addColumn<double>("pp");
        QTest::addColumn<bool>("bubble");
        QTest::newRow("gpt2-small, one H100") << "gpt2-small" << 1.0 << 1.0 << 1.0 << false;
        QTest::newRow("gpt2-medium, 8 GPUs, tp 2, pp 2") << "gpt2-medium" << 8.0 << 2.0 << 2.0 << true;
        QTest::newRow("llama3-8b, 16 GPUs, tp 4") << "llama3-8b" << 16.0 << 4.0 << 1.0 << false;
    }
    void kindsAddUpToTheStep() {
        QFETCH(QString, preset);
        QFETCH(double, gpus);
        QFETCH(double, tp);
        QFETCH(double, pp);
        QFETCH(bool, bubble);
        AccountingInput in;
        in.model = findModelPreset(preset.toStdString())->model;
        in.precision = PrecisionRecipe::mixedBf16;
        in.gpus = gpus;
        in.parallel.tp = tp;
        in.parallel.pp = pp;
        in.parallel.microbatches = pp > 1 ? 4 : 1;
        const InputError error = validate(in);
        QVERIFY2(error.ok(), (error.field + ": " + error.message).c_str());
        const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
        const StepTime t = publishedStepTime(in, account(in, gpu), gpu);
        QVERIFY2(t.predicted, t.whyNot.c_str());

        const std::array<double, kStepTimeKinds> byKind = stepSecondsByKind(t);
        double sum = 0;
        for (double s : byKind)
            sum += s;
        QVERIFY(std::abs(sum - t.seconds) <= 1e-12 * t.seconds);
        QVERIFY(byKind.at(static_cast<std::size_t>(StepTimeKind::compute)) > 0);
        QCOMPARE(byKind.at(static_cast<std::size_t>(StepTimeKind::bubble)) > 0, bubble);
        const std::string text = stepSecondsByKindText(t);
        QVERIFY2(text.rfind("compute ", 0) == 0, text.c_str());
        QCOMPARE(text.find("bubble") != std::string::npos, bubble);

        const std::vector<const StepTimeRow*> top = largestStepRows(t, 3);
        QCOMPARE(top.size(), std::size_t{3});
        const auto most = std::max_element(t.ledger.begin(), t.ledger.end(), [](const auto& a, const auto& b) {
            return a.seconds < b.seconds;
        });
        QCOMPARE(top.front()->seconds, most->seconds);
        QVERIFY(top[0]->seconds >= top[1]->seconds && top[1]->seconds >= top[2]->seconds);
        QCOMPARE(largestStepRows(t, t.ledger.size() + 5).size(), t.ledger.size());
    }

    // A step not predicted has no ledger: no kinds, no rows, and no text that would read as an answer.
    // The trust note follows the profile: the published runs for a published one, the CPU checks for one
    // the user calibrated (it named the MPT runs for a CPU profile too).
    void validationNoteFollowsTheProfile() {
        const PublishedProfile h100 = publishedProfile(*GpuCatalog::builtIn().find("H100-SXM"));
        QVERIFY(h100.profile);
        QVERIFY(std::string(stepTimeValidationNote(h100.profile->source)).find("MPT") != std::string::npos);
        const std::string_view calibrated = stepTimeValidationNote("napkin-cli calibrate: Napkin's cpu backend");
        QVERIFY(calibrated.find("MPT") == std::string_view::npos);
        QVERIFY(calibrated.find("calibrated profile") != std::string_view::npos);
    }

    void notPredictedSaysNothing() {
        const StepTime none;
        QCOMPARE(stepSecondsByKindText(none), std::string());
        QVERIFY(largestStepRows(none, 5).empty());
    }
};

QTEST_APPLESS_MAIN(TestStepTimeSummary)
#include "tst_step_time_summary.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// "Find the fastest layout…" on the Accounting page: the dialog ranks the engine's own search for the page's
// setup (the same plan `napkin-cli plan` prints), off the GUI thread; Apply sets the page's layout controls
// to the chosen row's layout and nothing else; a GPU with no step-time profile says why; Cancel keeps what
// was ranked.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/layout_plan_dialog.h"
#include "engine/models/model_presets.h"
#include "engine/numerics/quantity_format.h"
#include "engine/planning/layout_search.h"
#include "engine/steptime/published_profiles.h"
#include "engine/steptime/step_time.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

using namespace napkin;

namespace {

// GPT-2 small in mixed bf16 on 8 H100s, 8 sequences each: the README's `plan` example.
AccountingScenario gpt2OnEight(const char* gpu = "H100-SXM") {
    AccountingScenario s;
    s.input.model = findModelPreset("gpt2-small")->model;
    s.input.precision = PrecisionRecipe::mixedBf16;
    s.input.gpu = gpu;
    s.input.gpus = 8;
    s.input.batch = 8;
    return s;
}

bool finished(LayoutPlanDialog* dialog) {
    QSignalSpy done(dialog, &LayoutPlanDialog::searchFinished);
    return !done.isEmpty() || done.wait(120000);
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class TestLayoutPlanDialog : public QObject {
    Q_OBJECT
private slots:
    void ranksTheEnginesPlanAndApplies() {
        AccountingPage page;
        page.applyScenario(gpt2OnEight());
        const AccountingInput base = page.controls()->input();
        LayoutPlanDialog* dialog = page.findFastestLayout();
        QVERIFY(finished(dialog));
        QVERIFY(dialog->plan());

        const GpuSpec& gpu = *GpuCatalog::builtIn().find(base.gpu);
        PlanOptions options;
        options.top = LayoutPlanDialog::kTop;
        const LayoutPlan expected =
            planLayouts(base, GpuCatalog::builtIn(), *publishedProfile(gpu).profile, options);
        const LayoutPlan& shown = *dialog->plan();
        QCOMPARE(shown.counts, expected.counts);
        QCOMPARE(shown.top.size(), expected.top.size());
        QVERIFY(shown.top.size() >= 2);
        QTableWidget* table = dialog->table();
        QCOMPARE(table->rowCount(), static_cast<int>(expected.top.size()));
        for (int row = 0; row < table->rowCount(); ++row) {
            const PlannedLayout& p = expected.top[static_cast<std::size_t>(row)];
            QCOMPARE(shown.top[static_cast<std::size_t>(row)].choice, p.choice);
            QCOMPARE(table->item(row, 1)->text(), q(layoutChoiceText(p.choice, p.input.gpus)));
            QCOMPARE(table->item(row, 2)->text(), q(formatDuration(p.stepTime.seconds)));
            QCOMPARE(table->item(row, 4)->text(), q(formatNumber(p.stepTime.mfu)));
        }
        const QString summary = dialog->summaryLabel()->text();
        QVERIFY2(summary.contains(QStringLiteral("Searched %1 layouts").arg(q(formatNumber(
                     static_cast<double>(expected.counts.considered))))),
                 qPrintable(summary));
        QVERIFY2(summary.contains(QStringLiteral("Yours (")), qPrintable(summary));

        // Apply the second: the page takes its layout, keeps the rest, and answers for it.
        const PlannedLayout& second = expected.top[1];
        table->setCurrentCell(1, 0);
        QVERIFY2(dialog->detailLabel()->text().startsWith(QStringLiteral("#2: ")),
                 qPrintable(dialog->detailLabel()->text()));
        dialog->applyButton()->click();
        const AccountingInput applied = page.controls()->input();
        QCOMPARE(layoutChoiceOf(applied), second.choice);
        QCOMPARE(applied.model.dModel, base.model.dModel); // the model is the user's (its kernel aside)
        QCOMPARE(applied.model.layers, base.model.layers);
        QCOMPARE(applied.gpus, base.gpus);
        QCOMPARE(applied.precision, base.precision);
        QVERIFY2(page.answers()->valueText(QStringLiteral("stepTime"))
                     .startsWith(q(formatDuration(second.stepTime.seconds))),
                 qPrintable(page.answers()->valueText(QStringLiteral("stepTime"))));
    }

    void aGpuWithoutAProfileSaysWhy() {
        AccountingPage page;
        page.applyScenario(gpt2OnEight("T4"));
        LayoutPlanDialog* dialog = page.findFastestLayout();
        QVERIFY2(dialog->summaryLabel()->text().startsWith(QStringLiteral("No layout can be ranked: ")),
                 qPrintable(dialog->summaryLabel()->text()));
        QVERIFY(!dialog->applyButton()->isEnabled());
        QCOMPARE(dialog->table()->rowCount(), 0);
        QVERIFY(!dialog->isSearching());
    }

    // GPT-3 175B on 1024 H100s searches for a while: Cancel right away ends it with what it ranked so far.
    void cancelKeepsWhatWasRanked() {
        AccountingPage page;
        AccountingScenario s;
        s.input.model = findModelPreset("gpt3-175b")->model;
        s.input.precision = PrecisionRecipe::mixedBf16;
        s.input.gpus = 1024;
        s.input.batch = 1;
        s.input.zeroStage = 3;
        page.applyScenario(s);
        LayoutPlanDialog* dialog = page.findFastestLayout();
        dialog->cancelButton()->click();
        QVERIFY(finished(dialog));
        QVERIFY(dialog->plan());
        QVERIFY2(dialog->plan()->cancelled, "the search ended before Cancel reached it");
        QVERIFY2(dialog->summaryLabel()->text().contains(QStringLiteral("Cancelled: ")),
                 qPrintable(dialog->summaryLabel()->text()));
        QVERIFY(!dialog->cancelButton()->isVisible());
    }
};

QTEST_MAIN(TestLayoutPlanDialog)
#include "tst_layout_plan_dialog.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// The Accounting page's "Step time (predicted)": the engine's step-time model for the page's setup, the
// very figures `napkin-cli account` gives, beside the MFU the training time assumes; "not predicted" with
// the engine's reason where the GPU has no published profile; and the ledger in "How is this computed?".
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/presets.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/step_time.h"
#include "engine/steptime/step_time_summary.h"
#include "widgets/controls/explain_pane.h"

#include <QComboBox>
#include <QtTest>

#include <cmath>

using namespace napkin;

namespace {

StepTime engineStepTime(const AccountingPage& page) {
    const AccountingInput in = page.controls()->input();
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
    return publishedStepTime(in, account(in, gpu), gpu);
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

} // namespace

class TestStepTimeAnswer : public QObject {
    Q_OBJECT
private slots:
    // Presets in bf16 on a GPU with a published profile (the MAMF table's bf16 rates): the row is the
    // engine's prediction. (The fp32 preset "largest-8-h100" is not predicted: that table has no fp32.)
    void predictedBesideAssumed_data() {
        QTest::addColumn<QString>("preset");
        QTest::newRow("70B on 1024 H100s") << "70b-15t-1024-h100";
        QTest::newRow("GPT-3 175B") << "gpt3-175b";
    }
    void predictedBesideAssumed() {
        QFETCH(QString, preset);
        AccountingPage page;
        page.applyPreset(*findPreset(preset));
        const StepTime t = engineStepTime(page);
        QVERIFY2(t.predicted, t.whyNot.c_str());
        const QString value = page.answers()->valueText(QStringLiteral("stepTime"));
        QVERIFY2(value.startsWith(q(formatDuration(t.seconds)) + QStringLiteral(" per step of ") +
                                  q(formatNumber(std::round(t.tokensPerSecond * t.seconds))) + QStringLiteral(" tokens")),
                 qPrintable(value));
        QVERIFY2(value.contains(QStringLiteral("MFU ") + q(formatNumber(t.mfu))), qPrintable(value));
        QVERIFY2(value.contains(QStringLiteral("(assumed ") + q(formatNumber(page.controls()->input().mfu)) + ')'),
                 qPrintable(value));
        const QString formula = page.answers()->formulaText(QStringLiteral("stepTime"));
        QVERIFY2(formula.contains(q(t.basis)), qPrintable(formula));
        // The seconds by what bounds them (the lecture's 70B question steps one token per GPU: no kernel is
        // compute-bound, and the ZeRO-3 gathers are most of it).
        QVERIFY2(formula.contains(q(stepSecondsByKindText(t))), qPrintable(formula));
        QVERIFY2(formula.contains(QStringLiteral("communication ")), qPrintable(formula));
        const QString explain = page.explainPane()->plainText();
        QVERIFY2(explain.contains(QStringLiteral("Step time, predicted")), qPrintable(explain));
        QVERIFY(explain.contains(q(t.ledger.front().name.substr(0, 20))) ||
                explain.contains(QStringLiteral("largest of")));
    }

    // A part without a published profile: no number, the engine's reason, and the rest of the page as before.
    void withoutAProfileSaysWhy() {
        AccountingPage page;
        page.applyPreset(*findPreset(QStringLiteral("largest-8-h100")));
        QComboBox* gpu = page.controls()->gpuBox();
        gpu->setCurrentIndex(gpu->findData(QStringLiteral("T4")));
        QCOMPARE(page.controls()->input().gpu, std::string("T4"));
        const StepTime t = engineStepTime(page);
        QVERIFY(!t.predicted);
        const QString value = page.answers()->valueText(QStringLiteral("stepTime"));
        QCOMPARE(value, QStringLiteral("— not predicted: ") + q(t.whyNot));
        QVERIFY(!page.answers()->valueText(QStringLiteral("trainingTime")).isEmpty());
        QVERIFY(page.explainPane()->plainText().contains(QStringLiteral("Not predicted: ")));
    }
};

QTEST_MAIN(TestStepTimeAnswer)
#include "tst_step_time_answer.moc"

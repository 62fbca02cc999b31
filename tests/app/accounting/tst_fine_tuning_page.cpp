// SPDX-License-Identifier: GPL-3.0-or-later
// The Fine-tuning group of the accounting page: a fine-tuning preset picked in the preset box reaches the
// engine whole (method, rank, targets), the answers show the trainable count and the explanation its
// ledger, and editing the group recomputes.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/explain_accounting.h"
#include "app/accounting/fine_tuning_controls.h"
#include "app/accounting/presets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

using namespace napkin;

class TestFineTuningPage : public QObject {
    Q_OBJECT
private slots:
    void presetReachesTheEngine_data();
    void presetReachesTheEngine();
    void editingTheGroupRecomputes();
};

void TestFineTuningPage::presetReachesTheEngine_data() {
    QTest::addColumn<QString>("preset");
    QTest::newRow("QLoRA on 24 GB") << "llama3-8b-qlora-24gb";
    QTest::newRow("LoRA on an H100") << "llama3-8b-lora-h100";
}

void TestFineTuningPage::presetReachesTheEngine() {
    QFETCH(QString, preset);
    AccountingPage page;
    const int index = page.presetBox()->findData(preset);
    QVERIFY(index >= 0);
    page.presetBox()->setCurrentIndex(index);
    emit page.presetBox()->activated(index);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.controls()->input().fineTuning, findPreset(preset)->input.fineTuning);
    QVERIFY(page.lastResult());
    QCOMPARE(page.lastResult()->trainableParameters, 41943040.0);
    QVERIFY(page.answers()
                ->valueText(QStringLiteral("trainableParameters"))
                .contains(QStringLiteral("41,943,040")));
    const QString explain =
        explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    QVERIFY(explain.contains(QStringLiteral("Trainable parameters")));
    QVERIFY(explain.contains(QStringLiteral("no weight gradient")));
}

void TestFineTuningPage::editingTheGroupRecomputes() {
    AccountingPage page;
    const int index = page.presetBox()->findData(QStringLiteral("llama3-8b-lora-h100"));
    page.presetBox()->setCurrentIndex(index);
    emit page.presetBox()->activated(index);
    FineTuningControls* group = page.controls()->fineTuning();
    // Keep q and v alone at r = 8: PEFT's 3,407,872.
    for (LoraTarget t : {LoraTarget::k, LoraTarget::o, LoraTarget::gate, LoraTarget::up, LoraTarget::down})
        group->targetCheck(t)->setChecked(false);
    group->rankBox()->setValue(8);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.lastResult()->trainableParameters, 3407872.0);
    // Back to full training: the LoRA setting greys out, every parameter trains.
    group->methodBox()->setCurrentIndex(group->methodBox()->findData(static_cast<int>(FineTuneMethod::full)));
    QVERIFY(!group->rankBox()->isEnabled());
    QCOMPARE(page.lastResult()->trainableParameters, page.lastResult()->parameters.total);
    // No target at all is refused next to the targets, and nothing crashes.
    group->methodBox()->setCurrentIndex(group->methodBox()->findData(static_cast<int>(FineTuneMethod::lora)));
    for (LoraTarget t : {LoraTarget::q, LoraTarget::v})
        group->targetCheck(t)->setChecked(false);
    QVERIFY(page.lastError().contains(QStringLiteral("lora-targets")) ||
            page.lastError().contains(QStringLiteral("at least one")));
}

QTEST_MAIN(TestFineTuningPage)
#include "tst_fine_tuning_page.moc"

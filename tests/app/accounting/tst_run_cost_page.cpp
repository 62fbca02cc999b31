// SPDX-License-Identifier: GPL-3.0-or-later
// The accounting page says what the GPU cannot do beside the precision and in the answers (bf16 on a T4,
// flash attention falling back), answers memory but no time for fp8 on an A100 and on a part without
// peaks (Apple's M4 Max), saying why beside the control and in the time's answer, and answers the run's
// cost, energy and emissions from the Cost and energy group.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/answers_panel.h"
#include "app/accounting/explain_accounting.h"
#include "app/accounting/run_cost_controls.h"
#include "app/classroom/colour_scheme.h"
#include "app/classroom/presentation_mode.h"
#include "app/inference/inference_answers.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "tests/support/wcag_contrast.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QtTest>

using namespace napkin;

class TestRunCostPage : public QObject {
    Q_OBJECT
private slots:
    void bf16OnT4IsSaidBesideThePrecision();
    void fp8OnA100HasNoTimeAndSaysWhy();
    void m4MaxAnswersMemoryInEveryPrecision();
    void lectureRunCost();
    void inferenceCostPerMillionTokens();
    void cautionsReadOnAProjector_data();
    void cautionsReadOnAProjector();
};

namespace {
void choosePreset(AccountingPage& page, const QString& id) {
    const int index = page.presetBox()->findData(id);
    QVERIFY(index >= 0);
    page.presetBox()->setCurrentIndex(index);
    emit page.presetBox()->activated(index);
}

void chooseGpu(AccountingPage& page, const QString& id) {
    QComboBox* box = page.controls()->gpuBox();
    box->setCurrentIndex(box->findData(id));
}
} // namespace

void TestRunCostPage::bf16OnT4IsSaidBesideThePrecision() {
    AccountingPage page;
    choosePreset(page, QStringLiteral("70b-15t-1024-h100")); // mixed bf16
    QVERIFY(page.controls()->capabilityNoteText().isEmpty());
    chooseGpu(page, QStringLiteral("T4"));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QVERIFY(page.controls()->capabilityNoteText().contains(QStringLiteral("no bf16 tensor cores")));
    QVERIFY(page.answers()->warningsText().contains(QStringLiteral("fp16 with loss scaling")));
    QCOMPARE(page.lastResult()->densePeakFlopsPerSecond.value, 8.1e12);
    chooseGpu(page, QStringLiteral("A100-SXM")); // Ampere has bf16: the note goes
    QVERIFY(page.controls()->capabilityNoteText().isEmpty());
}

void TestRunCostPage::fp8OnA100HasNoTimeAndSaysWhy() {
    AccountingPage page;
    choosePreset(page, QStringLiteral("70b-15t-1024-h100"));
    chooseGpu(page, QStringLiteral("A100-SXM"));
    QComboBox* precision = page.controls()->precisionBox();
    precision->setCurrentIndex(precision->findData(static_cast<int>(PrecisionRecipe::fp8Mixed)));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QVERIFY(page.answers()->errorText().isEmpty());
    QVERIFY(
        page.controls()->capabilityNoteText().contains(QStringLiteral("fp8 needs Ada Lovelace or Hopper")));
    const QString time = page.answers()->valueText(QStringLiteral("trainingTime"));
    QVERIFY2(time.startsWith(QStringLiteral("none — no training time")), qPrintable(time));
    QVERIFY(time.contains(QStringLiteral("fp8 needs Ada Lovelace or Hopper")));
    QCOMPARE(page.answers()->valueText(QStringLiteral("gpuDays")), QStringLiteral("—"));
    QVERIFY(!page.answers()->valueText(QStringLiteral("memoryPerGpu")).isEmpty());
    QVERIFY(page.lastResult()->trainingFlops && !page.lastResult()->trainingSeconds);
}

// Apple's M4 Max: no source gives its per-dtype peaks, so every recipe was refused ("Cannot account for this
// combination"); memory, fits and the largest batch need no peak.
void TestRunCostPage::m4MaxAnswersMemoryInEveryPrecision() {
    AccountingPage page;
    choosePreset(page, QStringLiteral("70b-15t-1024-h100"));
    chooseGpu(page, QStringLiteral("M4-Max-128GB"));
    QComboBox* precision = page.controls()->precisionBox();
    for (int i = 0; i < precision->count(); ++i) {
        precision->setCurrentIndex(i);
        const QByteArray recipe = precision->itemText(i).toUtf8();
        QVERIFY2(page.lastError().isEmpty(), recipe + ": " + page.lastError().toUtf8());
        QCOMPARE(page.lastResult()->capacityBytes.value, 115448720916.48);
        QVERIFY2(page.answers()
                     ->valueText(QStringLiteral("trainingTime"))
                     .contains(QStringLiteral("no source gives")),
                 recipe);
        QVERIFY2(!page.answers()->valueText(QStringLiteral("maxParameters")).isEmpty(), recipe);
    }
}

void TestRunCostPage::lectureRunCost() {
    AccountingPage page;
    choosePreset(page, QStringLiteral("70b-15t-1024-h100"));
    RunCostControls* cost = page.controls()->runCost();
    QCOMPARE(page.answers()->valueText(QStringLiteral("runCost")), QStringLiteral("—")); // no price yet
    cost->priceCheck()->setChecked(true);
    cost->priceBox()->setValue(2.0);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QVERIFY(page.lastResult()->runCost && page.lastResult()->runCost->dollars);
    QVERIFY(std::abs(page.lastResult()->runCost->dollars->value - 7.075e6) < 0.001e6);
    QCOMPARE(page.answers()->valueText(QStringLiteral("runCost")), QStringLiteral("$7,074,995"));
    QVERIFY(page.answers()->valueText(QStringLiteral("energy")).contains(QStringLiteral("MWh")));
    QVERIFY(page.answers()->valueText(QStringLiteral("emissions")).contains(QStringLiteral("default grid")));
    const QString explain =
        explainAccounting(page.controls()->input(), *page.lastResult(), ByteUnits::decimal);
    QVERIFY(explain.contains(QStringLiteral("Cost, energy and carbon")));
    QVERIFY(explain.contains(QStringLiteral("Hopper")));
    cost->pueBox()->setValue(1.5);
    QVERIFY(std::abs(page.lastResult()->runCost->powerWatts->value - 1050) < 1e-9);
}

void TestRunCostPage::inferenceCostPerMillionTokens() {
    InferencePage page;
    QCOMPARE(page.answers()->valueText(QStringLiteral("costPerMillionTokens")), QStringLiteral("—"));
    page.controls()->priceCheck()->setChecked(true);
    page.controls()->priceBox()->setValue(3.6);
    QVERIFY(page.controls()->input().pricePerGpuHour);
    // $3.6/GPU-h over N GPUs at the decode rate: 3.6 × N / (tokens/s × 3600) × 1e6.
    const QString formula = page.answers()->formulaText(QStringLiteral("costPerMillionTokens"));
    QVERIFY2(formula.contains(QStringLiteral("per million tokens")), qPrintable(formula));
    QVERIFY(page.answers()->valueText(QStringLiteral("costPerMillionTokens")).startsWith(QLatin1Char('$')));
}

// What the GPU cannot do (bf16 on a T4) is said beside the precision and in the answers, in amber: a style
// sheet's #b9770e, 3.5:1 on white (under WCAG AA's 4.5:1), which also pinned the labels' font so that
// presentation mode's type passed them by. They read at 4.5:1 on the page's paper, light and dark, and grow
// with the page's type.
void TestRunCostPage::cautionsReadOnAProjector_data() {
    QTest::addColumn<bool>("dark");
    QTest::newRow("light presentation") << false;
    QTest::newRow("dark presentation") << true;
}

void TestRunCostPage::cautionsReadOnAProjector() {
    QFETCH(bool, dark);
    AccountingPage page;
    page.setPalette(presentationPalette(dark ? darkPalette() : QApplication::palette()));
    QFont big = QApplication::font();
    big.setPointSizeF(big.pointSizeF() * PresentationMode::kFontScale);
    page.setFont(big);
    page.resize(1280, 900);
    page.show();
    QVERIFY(QTest::qWaitForWindowExposed(&page));
    choosePreset(page, QStringLiteral("70b-15t-1024-h100")); // mixed bf16
    chooseGpu(page, QStringLiteral("T4"));
    QCoreApplication::processEvents();
    QList<QLabel*> cautions;
    for (QLabel* label : page.findChildren<QLabel*>())
        if (label->isVisible() && (label->objectName() == QLatin1String("capabilityNote") ||
                                   label->objectName() == QLatin1String("capabilityWarnings")))
            cautions << label;
    QCOMPARE(cautions.size(), 2);
    const int body = QFontInfo(page.font()).pixelSize();
    for (QLabel* caution : cautions) {
        const QImage drawn = caution->grab().toImage();
        const QColor paper = caution->palette().color(caution->backgroundRole());
        const double ink = strongestEdge(drawn, drawn.rect(), paper);
        QVERIFY2(ink >= 4.5, qPrintable(QStringLiteral("%1 \"%2\": %3:1")
                                            .arg(caution->objectName(), caution->text().left(30))
                                            .arg(ink, 0, 'f', 2)));
        QVERIFY2(QFontInfo(caution->font()).pixelSize() >= body,
                 qPrintable(QStringLiteral("%1: %2 px beside %3 px body text")
                                .arg(caution->objectName())
                                .arg(QFontInfo(caution->font()).pixelSize())
                                .arg(body)));
    }
}

QTEST_MAIN(TestRunCostPage)
#include "tst_run_cost_page.moc"

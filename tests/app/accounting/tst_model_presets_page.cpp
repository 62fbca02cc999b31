// SPDX-License-Identifier: GPL-3.0-or-later
// The Accounting page's preset box grouped by family, with the shipped config.json files among the
// lecture's setups: picking a config sets the model alone (its published parameter count, the training
// and hardware kept), editing one of its knobs marks it "(modified)", a knob the engine refuses is shown
// under its control with the advanced section opened, and a scenario naming a config shows it again.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/model/advanced_architecture_controls.h"
#include "app/model/architecture_controls.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/preset_groups.h"
#include "widgets/controls/grouped_combo_box.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

using namespace napkin;

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

void pick(AccountingPage& page, const QString& id) {
    const int index = page.presetBox()->findData(id);
    QVERIFY2(index >= 0, qPrintable(id));
    page.presetBox()->setCurrentIndex(index);
    emit page.presetBox()->activated(index);
}

} // namespace

class TestModelPresetsPage : public QObject {
    Q_OBJECT
private slots:
    void boxIsGroupedByFamily();
    void configSetsTheModelOnly_data();
    void configSetsTheModelOnly();
    void editedKnobSaysModified();
    void refusedKnobOpensTheAdvancedSection();
    void scenarioNamingAConfigShowsIt();
};

// Header, its entries, next header, ...: the engine's groups in order, none selectable.
void TestModelPresetsPage::boxIsGroupedByFamily() {
    AccountingPage page;
    const QComboBox* box = page.presetBox();
    int row = 1; // after the prompt
    for (const PresetGroup& group : accountingPresetGroups()) {
        while (row < box->count() && box->itemText(row).isEmpty()) // the separator before a header
            ++row;
        QCOMPARE(box->itemText(row), q(group.family));
        QVERIFY(isGroupHeader(box, row));
        ++row;
        for (const PresetEntry& e : group.entries) {
            QCOMPARE(box->itemData(row).toString(), q(e.id));
            QVERIFY(!isGroupHeader(box, row));
            QVERIFY(!box->itemData(row, Qt::ToolTipRole).toString().isEmpty());
            ++row;
        }
    }
    QCOMPARE(row, box->count());
    QVERIFY(box->findText(QStringLiteral("DeepSeek")) > 0);
    QVERIFY(box->findData(QStringLiteral("deepseek-v3")) > box->findText(QStringLiteral("DeepSeek")));
}

void TestModelPresetsPage::configSetsTheModelOnly_data() {
    QTest::addColumn<QString>("id");
    for (const ZooModel& z : zooModels())
        QTest::newRow(std::string(z.id).c_str()) << q(z.id);
}

void TestModelPresetsPage::configSetsTheModelOnly() {
    QFETCH(QString, id);
    AccountingPage page;
    page.applyPreset(*findPreset(QStringLiteral("largest-8-h100"))); // a setup of its own first
    const AccountingInput before = page.controls()->input();
    pick(page, id);
    const AccountingInput after = page.controls()->input();
    const ZooModel& zoo = *findZooModel(id.toStdString());
    ModelSpec expected = zooModelConfig(zoo).config->model;
    expected.parameters = before.model.parameters; // the other kinds' sizes, kept for switching back
    expected.dim = before.model.dim;
    expected.out = before.model.out;
    QCOMPARE(after.model, expected);
    QCOMPARE(after.gpus, before.gpus); // the training and hardware stay
    QCOMPARE(after.gpu, before.gpu);
    QCOMPARE(after.precision, before.precision);
    QCOMPARE(after.optimizer, before.optimizer);
    QCOMPARE(after.batch, before.batch);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.lastResult()->parameters.total, zoo.publishedParameters);
    QCOMPARE(page.presetBox()->currentText(), findPreset(id)->name);
    QCOMPARE(page.scenario().preset, id.toStdString());
}

void TestModelPresetsPage::editedKnobSaysModified() {
    AccountingPage page;
    pick(page, QStringLiteral("deepseek-v3"));
    const QString name = findPreset(QStringLiteral("deepseek-v3"))->name;
    QCOMPARE(page.presetBox()->currentText(), name);
    AdvancedArchitectureControls* a = page.controls()->architecture()->advanced();
    QCOMPARE(a->kvLoraRankBox()->value(), 512);
    a->kvLoraRankBox()->setValue(256);
    QCOMPARE(page.presetBox()->currentText(), name + QStringLiteral(" (modified)"));
    QVERIFY(page.lastResult()->parameters.total < zooModels().back().publishedParameters);
    a->kvLoraRankBox()->setValue(512);
    QCOMPARE(page.presetBox()->currentText(), name);
    a->routerBiasCheck()->setChecked(false);
    QCOMPARE(page.presetBox()->currentText(), name + QStringLiteral(" (modified)"));
}

void TestModelPresetsPage::refusedKnobOpensTheAdvancedSection() {
    AccountingPage page;
    page.show();
    pick(page, QStringLiteral("deepseek-v3"));
    const double kept = page.lastResult()->parameters.total;
    AdvancedArchitectureControls* a = page.controls()->architecture()->advanced();
    QVERIFY(!a->isExpanded());
    a->qkRopeHeadDimBox()->setValue(0); // MLA needs its RoPE width
    QVERIFY(page.lastError().startsWith(QStringLiteral("qk-rope-head-dim:")));
    QCOMPARE(page.controls()->fieldErrorControl(), static_cast<QWidget*>(a->qkRopeHeadDimBox()));
    QVERIFY(a->isExpanded());
    QVERIFY(a->qkRopeHeadDimBox()->isVisible());
    QCOMPARE(page.lastResult()->parameters.total, kept); // the last valid result stays
    a->qkRopeHeadDimBox()->setValue(64);
    QVERIFY(page.lastError().isEmpty());
    QVERIFY(page.controls()->fieldErrorText().isEmpty());
}

void TestModelPresetsPage::scenarioNamingAConfigShowsIt() {
    AccountingPage page;
    pick(page, QStringLiteral("gemma-2-9b"));
    page.controls()->architecture()->advanced()->slidingWindowBox()->setValue(1024);
    const AccountingScenario saved = page.scenario();
    AccountingPage reopened;
    QVERIFY(reopened.applyScenario(saved).isEmpty());
    QCOMPARE(reopened.controls()->input(), page.controls()->input());
    QCOMPARE(reopened.presetBox()->currentText(), page.presetBox()->currentText());
    QVERIFY(reopened.presetBox()->currentText().endsWith(QStringLiteral("(modified)")));
}

QTEST_MAIN(TestModelPresetsPage)
#include "tst_model_presets_page.moc"

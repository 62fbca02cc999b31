// SPDX-License-Identifier: GPL-3.0-or-later
// The Inference page's models: the box grouped by family with the shipped config.json files, each served
// as the config says (its published parameter count, at its own context); the Architecture group edits
// the model and marks the entry "(modified)"; a config the user opened is an entry of its own that a
// scenario keeps whole; a knob the engine refuses is shown under it with the advanced section opened.
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "app/model/advanced_architecture_controls.h"
#include "app/model/architecture_controls.h"
#include "engine/models/model_zoo.h"
#include "engine/accounting/preset_groups.h"
#include "tests/support/widget_input.h"
#include "widgets/controls/grouped_combo_box.h"
#include "widgets/controls/log_slider_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSpinBox>
#include <QtTest>

using namespace napkin;

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

ModelSpec zooModel(const QString& id) {
    return zooModelConfig(*findZooModel(id.toStdString())).config->model;
}

} // namespace

class TestInferenceModels : public QObject {
    Q_OBJECT
private slots:
    void boxIsGroupedByFamily();
    void everyShippedConfigIsServed_data();
    void everyShippedConfigIsServed();
    void editedKnobSaysModifiedAndIsSaved();
    void openedConfigIsAnEntryOfItsOwn();
    void refusedKnobOpensTheAdvancedSection();
    void checkpointFormatIsTheDefault();
};

void TestInferenceModels::boxIsGroupedByFamily() {
    InferencePage page;
    const QComboBox* box = page.controls()->presetBox();
    QStringList headers;
    for (int i = 0; i < box->count(); ++i)
        if (isGroupHeader(box, i) && !box->itemText(i).isEmpty())
            headers << box->itemText(i);
    QStringList expected;
    for (const PresetGroup& g : inferencePresetGroups()) {
        expected << q(g.family);
        const int header = box->findText(q(g.family));
        for (std::size_t e = 0; e < g.entries.size(); ++e) // each entry under its own header, in order
            QCOMPARE(box->itemData(header + 1 + static_cast<int>(e)).toString(), q(g.entries[e].id));
    }
    QCOMPARE(headers, expected);
    QCOMPARE(box->currentData().toString(), QStringLiteral("llama3-8b")); // a fresh page's model
}

void TestInferenceModels::everyShippedConfigIsServed_data() {
    QTest::addColumn<QString>("id");
    for (const ZooModel& z : zooModels())
        QTest::newRow(std::string(z.id).c_str()) << q(z.id);
}

void TestInferenceModels::everyShippedConfigIsServed() {
    QFETCH(QString, id);
    InferencePage page;
    InferenceControls* c = page.controls();
    choose(c->presetBox(), id);
    const ModelSpec model = zooModel(id);
    QCOMPARE(c->input().model, model);
    QCOMPARE(c->input().context, std::min(model.seq, 1e8));
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    QCOMPARE(page.lastResult()->parameters, findZooModel(id.toStdString())->publishedParameters);
    QVERIFY(!c->presetBox()->currentText().contains(QStringLiteral("modified")));
    QCOMPARE(c->architecture()->advanced()->knobsSet() > 0,
             hasModernArchitecture(model) || model.slidingWindow > 0);
}

void TestInferenceModels::editedKnobSaysModifiedAndIsSaved() {
    InferencePage page;
    InferenceControls* c = page.controls();
    choose(c->presetBox(), QStringLiteral("mistral-7b-v0.1"));
    const QString name = c->presetBox()->currentText();
    typeInto(c->contextSlider()->field(), QStringLiteral("32768"));
    const double windowed = page.lastResult()->kvCacheBytes.value;
    c->architecture()->advanced()->slidingWindowBox()->setValue(0); // every layer attends to all 32768
    QCOMPARE(c->presetBox()->currentText(), name + QStringLiteral(" (modified)"));
    QCOMPARE(page.lastResult()->kvCacheBytes.value, windowed * 8); // the cache no longer stops at 4096
    const InferenceScenario saved = page.scenario();
    QCOMPARE(saved.preset, std::string("mistral-7b-v0.1"));
    QCOMPARE(saved.input.model.slidingWindow, 0.0);
    InferencePage reopened;
    QVERIFY(reopened.applyScenario(saved).isEmpty());
    QCOMPARE(reopened.scenario(), saved);
    QCOMPARE(reopened.controls()->presetBox()->currentText(), name + QStringLiteral(" (modified)"));
    c->architecture()->advanced()->slidingWindowBox()->setValue(4096);
    QCOMPARE(c->presetBox()->currentText(), name);
}

void TestInferenceModels::openedConfigIsAnEntryOfItsOwn() {
    InferencePage page;
    InferenceControls* c = page.controls();
    ModelSpec own = zooModel(QStringLiteral("qwen3-8b"));
    own.layers = 30; // not any shipped model
    page.setOwnModel(own, QStringLiteral("config.json (qwen3)"));
    QCOMPARE(c->presetBox()->currentText(), QStringLiteral("config.json (qwen3)"));
    QCOMPARE(c->input().model, own);
    QCOMPARE(c->input().context, own.seq);
    QVERIFY2(page.lastError().isEmpty(), qPrintable(page.lastError()));
    const InferenceScenario saved = page.scenario();
    QCOMPARE(saved.preset, std::string()); // no preset: the file holds the model
    // Another model, and back: the opened config is still there.
    choose(c->presetBox(), QStringLiteral("llama3-70b"));
    QCOMPARE(c->input().model.layers, 80.0);
    choose(c->presetBox(), QString());
    QCOMPARE(c->input().model, own);
    // A second config replaces the first entry rather than adding one.
    const int entries = c->presetBox()->count();
    page.setOwnModel(zooModel(QStringLiteral("gemma-2-9b")), QStringLiteral("other/config.json (gemma2)"));
    QCOMPARE(c->presetBox()->count(), entries);
    QCOMPARE(c->presetBox()->currentText(), QStringLiteral("other/config.json (gemma2)"));
    // The saved scenario opens in a fresh page with the model whole.
    InferencePage reopened;
    reopened.applyScenario(saved);
    QCOMPARE(reopened.controls()->input().model, own);
    QCOMPARE(reopened.scenario(), saved);
}

void TestInferenceModels::refusedKnobOpensTheAdvancedSection() {
    InferencePage page;
    page.show();
    InferenceControls* c = page.controls();
    choose(c->presetBox(), QStringLiteral("deepseek-v3"));
    const double kept = page.lastResult()->kvCacheBytesPerToken.value;
    AdvancedArchitectureControls* a = c->architecture()->advanced();
    QVERIFY(!c->isArchitectureShown());
    QVERIFY(!a->isExpanded());
    a->vHeadDimBox()->setValue(0);
    QVERIFY(c->isArchitectureShown());
    QVERIFY(a->vHeadDimBox()->isVisible());
    QVERIFY(page.lastError().startsWith(QStringLiteral("v-head-dim:")));
    QCOMPARE(c->fieldErrorControl(), static_cast<QWidget*>(a->vHeadDimBox()));
    QVERIFY(a->isExpanded());
    QVERIFY(c->fieldErrorText().contains(QStringLiteral("multi-head latent attention")));
    QCOMPARE(page.lastResult()->kvCacheBytesPerToken.value, kept);
    a->vHeadDimBox()->setValue(128);
    QVERIFY(page.lastError().isEmpty());
    QVERIFY(c->fieldErrorText().isEmpty());
}

// Issue 40: a shipped config with a quantization_config serves in that format unless another is picked.
void TestInferenceModels::checkpointFormatIsTheDefault() {
    InferencePage page;
    InferenceControls* c = page.controls();
    choose(c->presetBox(), QStringLiteral("gpt-oss-20b"));
    QCOMPARE(c->weightsBox()->currentData().toString(), QStringLiteral("mxfp4"));
    QVERIFY(c->input().expertsOnly);
    QVERIFY(c->weightsNoteText().contains(QStringLiteral("MXFP4")));
    // MXFP4 experts and the rest bf16: 13,761,264,768 B, the model card's 12.8 GiB checkpoint.
    QCOMPARE(page.lastResult()->weightsBytes.value, 13761264768.0);
    choose(c->weightsBox(), QStringLiteral("bf16"));
    QVERIFY(!c->input().expertsOnly);
    QCOMPARE(page.lastResult()->weightsBytes.value, 2 * 20914757184.0);
    QVERIFY(c->weightsNoteText().contains(QStringLiteral("ships in mxfp4")));
    choose(c->presetBox(), QStringLiteral("kimi-k2-instruct"));
    QCOMPARE(c->weightsBox()->currentData().toString(), QStringLiteral("fp8-block128"));
    choose(c->presetBox(), QStringLiteral("llama-2-7b")); // no checkpoint format: back to bf16
    QCOMPARE(c->weightsBox()->currentData().toString(), QStringLiteral("bf16"));
    QVERIFY(c->weightsNoteText().isEmpty());
}

QTEST_MAIN(TestInferenceModels)
#include "tst_inference_models.moc"

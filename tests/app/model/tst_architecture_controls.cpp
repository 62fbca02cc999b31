// SPDX-License-Identifier: GPL-3.0-or-later
// The Architecture group with its advanced section: every shipped config's model is shown and read back
// unchanged (nothing the controls cannot hold is lost on the way), each knob edited reaches the model
// and says so once, every control names its config.json key, and the section opens for a message.
#include "app/model/advanced_architecture_controls.h"
#include "app/model/architecture_controls.h"
#include "engine/models/model_zoo.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolButton>
#include <QtTest>

#include <functional>

using namespace napkin;

namespace {

ModelSpec zooModel(const QString& id) {
    return zooModelConfig(*findZooModel(id.toStdString())).config->model;
}

ModelSpec shown(const ArchitectureControls& c, ModelSpec sizes) {
    c.writeTo(sizes);
    return sizes;
}

void chooseData(QComboBox* box, int data) {
    const int index = box->findData(data);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
}

} // namespace

class TestArchitectureControls : public QObject {
    Q_OBJECT
private slots:
    void everyShippedModelReadsBackUnchanged_data();
    void everyShippedModelReadsBackUnchanged();
    void eachKnobReachesTheModel_data();
    void eachKnobReachesTheModel();
    void everyControlNamesItsConfigKey();
    void refinementsGreyUntilTheirKnobIsOn();
    void collapsedUntilAMessageNeedsIt();
};

void TestArchitectureControls::everyShippedModelReadsBackUnchanged_data() {
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("knobs"); // what the advanced toggle counts
    const std::pair<const char*, int> rows[] = {{"gpt2", 0},
                                                {"gpt-neox-20b", 0},
                                                {"falcon-7b", 2}, // parallel, norm bias
                                                {"llama-2-7b", 0},
                                                {"mistral-7b-v0.1", 1},
                                                {"mixtral-8x7b-v0.1", 0}, // window; none
                                                {"phi-3-mini-4k", 1},
                                                {"qwen2.5-7b", 1}, // window; q, k, v bias
                                                {"qwen1.5-moe-a2.7b", 4},
                                                {"qwen3-8b", 1},
                                                {"qwen3-30b-a3b", 3}, // QK-norm, head width
                                                {"gemma-7b", 1},
                                                {"gemma-2-9b", 4},
                                                {"olmo-2-7b", 2},    // head width, ...
                                                {"deepseek-v3", 9}, // MLA 5, MoE 4
                                                // head width, QK-norm, window, every 6th global, sandwich
                                                {"gemma-3-4b-it", 5},
                                                // head width, window, pattern, 3 biases, router bias, sinks
                                                {"gpt-oss-20b", 8},
                                                {"gpt-oss-120b", 8},
                                                // chunks as a window, pattern, expert, shared, dense layers
                                                {"llama-4-maverick-17b-128e", 5},
                                                {"kimi-k2-instruct", 9}}; // as DeepSeek-V3
    for (const auto& [id, knobs] : rows)
        QTest::newRow(id) << QString::fromLatin1(id) << knobs;
    QCOMPARE(std::size(rows), zooModels().size()); // a new shipped config needs its row
}

void TestArchitectureControls::everyShippedModelReadsBackUnchanged() {
    QFETCH(QString, id);
    QFETCH(int, knobs);
    const ModelSpec model = zooModel(id);
    ArchitectureControls c;
    QSignalSpy changed(&c, &ArchitectureControls::changed);
    c.setModel(model);
    QCOMPARE(changed.count(), 0); // showing a model is no edit
    QCOMPARE(shown(c, model), model);
    ModelSpec fresh; // from GPT-2's defaults too: every field is the controls'
    fresh.kind = model.kind;
    fresh.dModel = model.dModel;
    fresh.layers = model.layers;
    fresh.heads = model.heads;
    fresh.vocab = model.vocab;
    fresh.seq = model.seq;
    fresh.ffnMult = model.ffnMult;
    QCOMPARE(shown(c, fresh), model);
    QCOMPARE(c.advanced()->knobsSet(), knobs);
    QCOMPARE(c.advanced()->toggleButton()->text().contains(QStringLiteral("(%1 set)").arg(knobs)), knobs > 0);
}

using Edit = std::function<void(AdvancedArchitectureControls&)>;
using Check = std::function<bool(const ModelSpec&)>;

void TestArchitectureControls::eachKnobReachesTheModel_data() {
    QTest::addColumn<QString>("start");
    QTest::addColumn<Edit>("edit");
    QTest::addColumn<Check>("check");
    const QString gpt2 = QStringLiteral("gpt2"), deepseek = QStringLiteral("deepseek-v3"),
                  gemma = QStringLiteral("gemma-2-9b");
    QTest::newRow("head width") << gpt2 << Edit([](auto& a) { a.headDimBox()->setValue(128); })
                                << Check([](const ModelSpec& m) { return m.headDim == 128; });
    QTest::newRow("QK-norm") << gpt2 << Edit([](auto& a) { chooseData(a.qkNormBox(), int(QkNorm::whole)); })
                             << Check([](const ModelSpec& m) { return m.qkNorm == QkNorm::whole; });
    QTest::newRow("window") << gpt2 << Edit([](auto& a) { a.slidingWindowBox()->setValue(256); })
                            << Check([](const ModelSpec& m) { return m.slidingWindow == 256; });
    QTest::newRow("global every") << gemma << Edit([](auto& a) { a.globalEveryBox()->setValue(3); })
                                  << Check([](const ModelSpec& m) { return m.globalEvery == 3; });
    QTest::newRow("q, k, v bias on") << gpt2 << Edit([](auto& a) { chooseData(a.qkvBiasBox(), 1); })
                                     << Check([](const ModelSpec& m) { return m.qkvBias == true; });
    QTest::newRow("output bias off") << gpt2 << Edit([](auto& a) { chooseData(a.outBiasBox(), 0); })
                                     << Check([](const ModelSpec& m) { return m.outBias == false; });
    QTest::newRow("MLP bias off") << gpt2 << Edit([](auto& a) { chooseData(a.mlpBiasBox(), 0); })
                                  << Check([](const ModelSpec& m) { return m.mlpBias == false; });
    QTest::newRow("norm bias back to Biases")
        << QStringLiteral("falcon-7b") << Edit([](auto& a) { chooseData(a.normBiasBox(), -1); })
        << Check([](const ModelSpec& m) { return !m.normBias.has_value(); });
    QTest::newRow("sandwich") << gpt2 << Edit([](auto& a) {
        chooseData(a.normPlacementBox(), int(NormPlacement::sandwich));
    }) << Check([](const ModelSpec& m) { return m.normPlacement == NormPlacement::sandwich; });
    QTest::newRow("kv rank") << deepseek << Edit([](auto& a) { a.kvLoraRankBox()->setValue(256); })
                             << Check([](const ModelSpec& m) { return m.kvLoraRank == 256; });
    QTest::newRow("q rank") << deepseek << Edit([](auto& a) { a.qLoraRankBox()->setValue(0); })
                            << Check([](const ModelSpec& m) { return m.qLoraRank == 0; });
    QTest::newRow("nope width") << deepseek << Edit([](auto& a) { a.qkNopeHeadDimBox()->setValue(64); })
                                << Check([](const ModelSpec& m) { return m.qkNopeHeadDim == 64; });
    QTest::newRow("rope width") << deepseek << Edit([](auto& a) { a.qkRopeHeadDimBox()->setValue(32); })
                                << Check([](const ModelSpec& m) { return m.qkRopeHeadDim == 32; });
    QTest::newRow("value width") << deepseek << Edit([](auto& a) { a.vHeadDimBox()->setValue(64); })
                                 << Check([](const ModelSpec& m) { return m.vHeadDim == 64; });
    QTest::newRow("expert width") << deepseek << Edit([](auto& a) { a.expertFfnDimBox()->setValue(1024); })
                                  << Check([](const ModelSpec& m) { return m.expertFfnDim == 1024; });
    QTest::newRow("shared width") << deepseek << Edit([](auto& a) { a.sharedFfnDimBox()->setValue(0); })
                                  << Check([](const ModelSpec& m) { return m.sharedFfnDim == 0; });
    QTest::newRow("shared gate") << deepseek
                                 << Edit([](auto& a) { a.sharedExpertGateCheck()->setChecked(true); })
                                 << Check([](const ModelSpec& m) { return m.sharedExpertGate; });
    QTest::newRow("dense layers") << deepseek << Edit([](auto& a) { a.denseLayersBox()->setValue(5); })
                                  << Check([](const ModelSpec& m) { return m.denseLayers == 5; });
    QTest::newRow("router bias") << deepseek << Edit([](auto& a) { a.routerBiasCheck()->setChecked(false); })
                                 << Check([](const ModelSpec& m) { return !m.routerBias; });
}

void TestArchitectureControls::eachKnobReachesTheModel() {
    QFETCH(QString, start);
    QFETCH(Edit, edit);
    QFETCH(Check, check);
    const ModelSpec model = zooModel(start);
    ArchitectureControls c;
    c.setModel(model);
    QSignalSpy changed(&c, &ArchitectureControls::changed);
    edit(*c.advanced());
    QCOMPARE(changed.count(), 1);
    const ModelSpec after = shown(c, model);
    QVERIFY(check(after));
    QVERIFY(!check(model)); // the row really changes something
}

void TestArchitectureControls::everyControlNamesItsConfigKey() {
    ArchitectureControls c;
    QWidgetList controls;
    for (QWidget* w : c.findChildren<QWidget*>())
        if (qobject_cast<QSpinBox*>(w) || qobject_cast<QComboBox*>(w) || qobject_cast<QCheckBox*>(w))
            controls << w;
    QVERIFY(controls.size() >= 30);
    for (QWidget* w : controls) {
        if (w == c.familyBox() || w == c.dropoutCheck() || w == c.attentionImplBox())
            continue; // the app's own choices, not a config's
        QVERIFY2(w->toolTip().contains(QStringLiteral("config.json")),
                 qPrintable(w->metaObject()->className() + QStringLiteral(": ") + w->toolTip()));
    }
}

void TestArchitectureControls::refinementsGreyUntilTheirKnobIsOn() {
    ArchitectureControls c;
    AdvancedArchitectureControls* a = c.advanced();
    QVERIFY(!a->qkNopeHeadDimBox()->isEnabled());
    QVERIFY(!a->expertFfnDimBox()->isEnabled());
    QVERIFY(!a->globalEveryBox()->isEnabled());
    a->kvLoraRankBox()->setValue(512);
    QVERIFY(a->qkNopeHeadDimBox()->isEnabled());
    c.expertsBox()->setValue(8);
    QVERIFY(a->expertFfnDimBox()->isEnabled());
    QVERIFY(a->routerBiasCheck()->isEnabled());
    a->slidingWindowBox()->setValue(4096);
    QVERIFY(a->globalEveryBox()->isEnabled());
    // A config's own pattern decides per layer; "global every" waits until it is unticked.
    c.setModel(zooModel(QStringLiteral("qwen2.5-7b")));
    ModelSpec pattern = zooModel(QStringLiteral("gemma-2-9b"));
    pattern.globalEvery = 0;
    pattern.windowedLayers = std::vector<bool>(static_cast<std::size_t>(pattern.layers), true);
    pattern.windowedLayers.back() = false;
    c.setModel(pattern);
    QVERIFY(a->layerPatternCheck()->isChecked());
    QVERIFY(a->layerPatternCheck()->text().contains(QStringLiteral("41 of 42")));
    QVERIFY(!a->globalEveryBox()->isEnabled());
    a->layerPatternCheck()->setChecked(false);
    QVERIFY(a->globalEveryBox()->isEnabled());
    QVERIFY(shown(c, pattern).windowedLayers.empty());
    a->layerPatternCheck()->setChecked(true); // the config's pattern comes back
    QCOMPARE(shown(c, pattern), pattern);
}

void TestArchitectureControls::collapsedUntilAMessageNeedsIt() {
    ArchitectureControls c;
    c.show();
    QVERIFY(!c.advanced()->isExpanded());
    QVERIFY(!c.advanced()->body()->isVisible());
    c.reveal(c.kvHeadsBox()); // a classic control: nothing to open
    QVERIFY(!c.advanced()->isExpanded());
    QWidget* control = c.controlFor("qk-rope-head-dim");
    QCOMPARE(control, static_cast<QWidget*>(c.advanced()->qkRopeHeadDimBox()));
    c.reveal(control);
    QVERIFY(c.advanced()->isExpanded());
    QVERIFY(control->isVisible());
    c.advanced()->toggleButton()->click(); // the user closes it again
    QVERIFY(!control->isVisible());
}

QTEST_MAIN(TestArchitectureControls)
#include "tst_architecture_controls.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files keep the knobs of today's families (issue 26): every shipped config.json's model, as the
// Accounting page's transformer and as the Inference page's model, is written and read back unchanged;
// a file written before the knobs opens with every number it had; a bad value is refused naming its key.
#include "engine/models/model_presets.h"
#include "engine/models/model_zoo.h"
#include "engine/models/parameter_count.h"
#include "engine/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QFile>
#include <QtTest>

using namespace napkin;

namespace {

ModelSpec zooModel(const QString& id) {
    const ZooModel* zoo = findZooModel(id.toStdString());
    if (!zoo)
        qFatal("no zoo model %s", qPrintable(id));
    return zooModelConfig(*zoo).config->model;
}

// The zoo model as the Accounting page's transformer: the other kinds' sizes stay a fresh window's.
Scenario withAccountingModel(const ModelSpec& model) {
    Scenario s;
    ModelSpec& m = s.accounting.input.model;
    const ModelSpec fresh = m;
    m = model;
    m.parameters = fresh.parameters;
    m.dim = fresh.dim;
    m.out = fresh.out;
    return s;
}

// A transformer the page rules accept, for the rows that break one key of it.
Scenario gpt2Small() {
    return withAccountingModel(findModelPreset("gpt2-small")->model);
}

} // namespace

class TestScenarioArchitecture : public QObject {
    Q_OBJECT
private slots:
    void everyShippedModelRoundTrips_data();
    void everyShippedModelRoundTrips();
    void ownBiasesAndPatternRoundTrip();
    void configModelOfItsOwnOnTheInferencePage();
    void seedWrittenWithTheKnobsLoads();
    void olderFilesKeepTheirNumbers_data();
    void olderFilesKeepTheirNumbers();
    void badValues_data();
    void badValues();
};

void TestScenarioArchitecture::everyShippedModelRoundTrips_data() {
    QTest::addColumn<QString>("id");
    for (const ZooModel& z : zooModels())
        QTest::newRow(std::string(z.id).c_str()) << QString::fromUtf8(z.id.data(), qsizetype(z.id.size()));
}

void TestScenarioArchitecture::everyShippedModelRoundTrips() {
    QFETCH(QString, id);
    const ModelSpec model = zooModel(id);
    Scenario s = withAccountingModel(model);
    s.accounting.preset = id.toStdString();
    s.inference.preset = id.toStdString();
    s.inference.input.model = model;
    s.inference.input.context = 1024; // within GPT-2's learned positions
    const std::string text = writeScenario(s);
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(back.warnings.empty());
    QCOMPARE(back.scenario->accounting.input.model, s.accounting.input.model);
    QCOMPARE(back.scenario->inference.input.model, model);
    QCOMPARE(back.scenario->inference.preset, id.toStdString());
    QVERIFY(*back.scenario == s);
    // The same parameters as the config's own published count: nothing was lost on the way.
    QCOMPARE(countParameters(back.scenario->accounting.input.model).total,
             findZooModel(id.toStdString())->publishedParameters);
}

// A per-projection bias set against `bias`, one left following it, and a per-layer window pattern.
void TestScenarioArchitecture::ownBiasesAndPatternRoundTrip() {
    Scenario s = gpt2Small();
    ModelSpec& m = s.accounting.input.model;
    m.bias = false;
    m.qkvBias = true;
    m.outBias = false;
    m.normBias = true; // mlpBias left unset: follows bias
    m.slidingWindow = 256;
    m.windowedLayers = {true, true, false, true, true, false, true, true, false, true, true, false};
    const std::string text = writeScenario(s);
    const nlohmann::json doc = nlohmann::json::parse(text);
    QCOMPARE(doc["accounting"]["model"]["mlp_bias"], "default");
    QCOMPARE(doc["accounting"]["model"]["qkv_bias"], "on");
    QCOMPARE(doc["accounting"]["model"]["windowed_layers"], "wwgwwgwwgwwg");
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.model, m);
    QCOMPARE(back.scenario->accounting.input.model.mlpBias, std::optional<bool>());
}

// A config.json opened in the app has no preset: the file keeps the whole model under "model".
void TestScenarioArchitecture::configModelOfItsOwnOnTheInferencePage() {
    Scenario s;
    s.inference.preset.clear();
    s.inference.input.model = zooModel(QStringLiteral("gemma-2-9b"));
    s.inference.input.model.slidingWindow = 2048; // edited after opening
    s.inference.input.context = 8192;
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->inference.preset, std::string());
    QCOMPARE(back.scenario->inference.input.model, s.inference.input.model);
}

// The fuzz seed written by this version (activations_of included; DeepSeek-V3 on the Accounting page, an
// opened config with its own window pattern on the Inference page) opens as written.
void TestScenarioArchitecture::seedWrittenWithTheKnobsLoads() {
    QFile f(QFINDTESTDATA("../../fuzz/corpus/fuzz_scenario/v2-config-models.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    const ScenarioParse p = parseScenario(text);
    QVERIFY2(p.ok(), p.error.c_str());
    QVERIFY(p.warnings.empty());
    ModelSpec deepseek = zooModel(QStringLiteral("deepseek-v3"));
    deepseek.parameters = p.scenario->accounting.input.model.parameters;
    deepseek.dim = p.scenario->accounting.input.model.dim;
    deepseek.out = p.scenario->accounting.input.model.out;
    QCOMPARE(p.scenario->accounting.input.model, deepseek);
    QCOMPARE(p.scenario->inference.preset, std::string());
    QCOMPARE(p.scenario->inference.input.model.windowedLayers.size(), std::size_t(42));
    QCOMPARE(writeScenario(*p.scenario), text); // written by this version: byte for byte
}

void TestScenarioArchitecture::olderFilesKeepTheirNumbers_data() {
    QTest::addColumn<QString>("seed");
    QTest::newRow("Llama 3 70B on 3D parallelism") << "v2-llama-3d.json";
    QTest::newRow("an inference section") << "v2-inference.json";
    QTest::newRow("version 1") << "v1-accounting.json";
    QTest::newRow("defaults") << "v2-defaults.json";
}

// The fuzz seeds were written before the knobs existed: no warning, every knob at its default (which
// is what those files meant), the Inference model the preset's.
void TestScenarioArchitecture::olderFilesKeepTheirNumbers() {
    QFETCH(QString, seed);
    QFile f(QFINDTESTDATA(QStringLiteral("../../fuzz/corpus/fuzz_scenario/") + seed));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::string text = f.readAll().toStdString();
    QVERIFY(text.find("head_dim") == std::string::npos);
    const ScenarioParse p = parseScenario(text);
    QVERIFY2(p.ok(), p.error.c_str());
    QVERIFY(p.warnings.empty());
    const ModelSpec& m = p.scenario->accounting.input.model;
    const ModelSpec defaults;
    QCOMPARE(m.headDim, defaults.headDim);
    QCOMPARE(m.qkvBias, defaults.qkvBias);
    QCOMPARE(m.outBias, defaults.outBias);
    QCOMPARE(m.mlpBias, defaults.mlpBias);
    QCOMPARE(m.normBias, defaults.normBias);
    QCOMPARE(m.normPlacement, defaults.normPlacement);
    QCOMPARE(m.qkNorm, defaults.qkNorm);
    QCOMPARE(m.slidingWindow, defaults.slidingWindow);
    QCOMPARE(m.globalEvery, defaults.globalEvery);
    QCOMPARE(m.windowedLayers, defaults.windowedLayers);
    QCOMPARE(m.kvLoraRank, defaults.kvLoraRank);
    QCOMPARE(m.qLoraRank, defaults.qLoraRank);
    QCOMPARE(m.expertFfnDim, defaults.expertFfnDim);
    QCOMPARE(m.sharedFfnDim, defaults.sharedFfnDim);
    QCOMPARE(m.sharedExpertGate, defaults.sharedExpertGate);
    QCOMPARE(m.denseLayers, defaults.denseLayers);
    QCOMPARE(m.routerBias, defaults.routerBias);
    const InferenceScenario& i = p.scenario->inference;
    QCOMPARE(i.input.model, findModelPreset(i.preset)->model);
}

void TestScenarioArchitecture::badValues_data() {
    QTest::addColumn<QString>("section");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("message");
    const QString a = QStringLiteral("accounting"), i = QStringLiteral("inference");
    QTest::newRow("head_dim 2.5") << a << "head_dim"
                                  << "2.5"
                                  << "accounting.model.head_dim: must be a whole number";
    QTest::newRow("head_dim as text") << a << "head_dim"
                                      << "\"64\""
                                      << "accounting.model.head_dim: must be a number";
    QTest::newRow("qkv_bias yes") << a << "qkv_bias"
                                  << "\"yes\""
                                  << "accounting.model.qkv_bias: unknown value 'yes'";
    QTest::newRow("norm_bias true") << a << "norm_bias"
                                    << "true"
                                    << "accounting.model.norm_bias: must be a string";
    QTest::newRow("norm_placement middle") << a << "norm_placement"
                                           << "\"middle\""
                                           << "accounting.model.norm_placement: unknown value 'middle'";
    QTest::newRow("qk_norm per-layer") << a << "qk_norm"
                                       << "\"layer\""
                                       << "accounting.model.qk_norm: unknown value 'layer'";
    QTest::newRow("mlp reglu") << a << "mlp"
                               << "\"reglu\""
                               << "accounting.model.mlp: unknown value 'reglu'";
    QTest::newRow("sliding_window past the range") << a << "sliding_window"
                                                   << "1e9"
                                                   << "accounting.model.sliding_window: must be from 0 to";
    QTest::newRow("global_every negative") << a << "global_every"
                                           << "-1"
                                           << "accounting.model.global_every: must be from 0 to 100000";
    QTest::newRow("pattern letter") << a << "windowed_layers"
                                    << "\"wwx\""
                                    << "accounting.model.windowed_layers: must hold one letter per layer";
    QTest::newRow("pattern of 2 layers for 12")
        << a << "windowed_layers"
        << "\"wg\""
        << "accounting.model.windowed_layers: needs one entry per layer (12), got 2";
    QTest::newRow("kv_lora_rank negative") << a << "kv_lora_rank"
                                           << "-512"
                                           << "accounting.model.kv_lora_rank: must be from 0 to 100000";
    QTest::newRow("MLA without its head widths")
        << a << "kv_lora_rank"
        << "512"
        << "accounting.model.qk_nope_head_dim: must be a whole number from 1 to 1e5 with multi-head latent";
    QTest::newRow("expert_ffn_dim 0.5") << a << "expert_ffn_dim"
                                        << "0.5"
                                        << "accounting.model.expert_ffn_dim: must be a whole number";
    QTest::newRow("dense_layers past the layers")
        << a << "dense_layers"
        << "13"
        << "accounting.model.dense_layers: must be a whole number from 0 to layers (12)";
    QTest::newRow("shared_expert_gate 1") << a << "shared_expert_gate"
                                          << "1"
                                          << "accounting.model.shared_expert_gate: must be a string";
    QTest::newRow("router_bias maybe") << a << "router_bias"
                                       << "\"maybe\""
                                       << "accounting.model.router_bias: unknown value 'maybe'";
    QTest::newRow("inference head_dim 0.5") << i << "head_dim"
                                            << "0.5"
                                            << "inference.model.head_dim: must be a whole number";
    QTest::newRow("inference layers 0") << i << "layers"
                                        << "0"
                                        << "inference.model.layers: must be from 1 to 100000";
    QTest::newRow("inference pattern of 3 layers for 32")
        << i << "windowed_layers"
        << "\"ggg\""
        << "inference.model.windowed_layers: needs one entry per layer (32), got 3";
    QTest::newRow("inference heads not dividing d")
        << i << "heads"
        << "33"
        << "inference.model.heads: must divide d-model (4096), got 33";
}

void TestScenarioArchitecture::badValues() {
    QFETCH(QString, section);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, message);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(gpt2Small()));
    doc[section.toStdString()]["model"][key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const std::string text = doc.dump();
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(!back.ok(), text.c_str());
    QVERIFY2(back.error.rfind(message.toStdString(), 0) == 0, back.error.c_str());
    QVERIFY(back.warnings.empty());
}

QTEST_APPLESS_MAIN(TestScenarioArchitecture)
#include "tst_scenario_architecture.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files keep the fine-tuning setting: written and read back unchanged, and a bad value refused
// naming its key rather than silently replaced.
#include "engine/accounting/setup_presets.h"
#include "engine/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace napkin;

class TestScenarioFineTuning : public QObject {
    Q_OBJECT
private slots:
    void roundTrip_data();
    void roundTrip();
    void badValues_data();
    void badValues();
};

void TestScenarioFineTuning::roundTrip_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("offload");
    QTest::newRow("QLoRA") << "llama3-8b-qlora-24gb" << int(Offload::none);
    QTest::newRow("LoRA, offloaded") << "llama3-8b-lora-h100" << int(Offload::optimizerAndParams);
}

void TestScenarioFineTuning::roundTrip() {
    QFETCH(QString, preset);
    QFETCH(int, offload);
    Scenario s;
    // The preset's transformer, with the other kinds' sizes a window keeps (a fresh window's).
    const AccountingInput& p = findSetupPreset(preset.toStdString())->input;
    AccountingInput& in = s.accounting.input;
    const ModelSpec fresh = in.model;
    in = p;
    in.model.parameters = fresh.parameters;
    in.model.dim = fresh.dim;
    in.model.out = fresh.out;
    s.accounting.input.fineTuning.offload = Offload(offload);
    s.accounting.input.fineTuning.rank = 8;
    s.accounting.input.fineTuning.targets = {LoraTarget::q, LoraTarget::v};
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.fineTuning, s.accounting.input.fineTuning);
}

void TestScenarioFineTuning::badValues_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown method") << "method"
                                    << "\"dora\"";
    QTest::newRow("fractional rank") << "lora_rank"
                                     << "2.5";
    QTest::newRow("rank 0") << "lora_rank"
                            << "0";
    QTest::newRow("unknown target") << "lora_targets"
                                    << "\"q,lm_head\"";
    QTest::newRow("unknown offload") << "offload"
                                     << "\"disk\"";
}

void TestScenarioFineTuning::badValues() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(Scenario{}));
    doc["accounting"]["fine_tuning"][key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const std::string text = doc.dump();
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(!back.ok(), text.c_str());
    QVERIFY2(back.error.find(key.toStdString()) != std::string::npos, back.error.c_str());
}

QTEST_APPLESS_MAIN(TestScenarioFineTuning)
#include "tst_scenario_fine_tuning.moc"

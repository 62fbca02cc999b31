// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files keep the overhead ledger's settings (accounting.overheads): written and read back
// unchanged, a file saved before the ledger existed opens in the datasheet basis (what its answers meant),
// and a bad value is refused naming its key rather than silently replaced.
#include "engine/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace napkin;

class TestScenarioOverheads : public QObject {
    Q_OBJECT
private slots:
    void freshPageIsUsable();
    void roundTrip();
    void olderFileIsDatasheet();
    void inferenceKeepsItsBasis();
    void badValues_data();
    void badValues();
};

void TestScenarioOverheads::freshPageIsUsable() {
    const Scenario s;
    QCOMPARE(int(s.accounting.input.overheads.basis), int(MemoryBasis::usable));
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.overheads, s.accounting.input.overheads);
}

void TestScenarioOverheads::roundTrip() {
    Scenario s;
    MemoryOverheadSettings& o = s.accounting.input.overheads;
    o.basis = MemoryBasis::usable;
    o.libraryWorkspaces = false;
    o.ncclBuffers = false;
    o.fragmentation = 0.08;
    o.cudaMajor = 13;
    o.cudaContextBytes = 523239424;
    o.ncclChannels = 24;
    o.ncclBufferBytes = 8388608;
    const std::string text = writeScenario(s);
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.overheads, o);
    QVERIFY(text.find("\"switches\": \"context,rounding,fp8\"") != std::string::npos);
}

void TestScenarioOverheads::olderFileIsDatasheet() {
    nlohmann::json doc = nlohmann::json::parse(writeScenario(Scenario{}));
    doc["accounting"].erase("overheads");
    const ScenarioParse back = parseScenario(doc.dump());
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->accounting.input.overheads, datasheetOverheads());
}

// The Inference page judges "fits" as training does (inference_overheads.h): its settings round-trip under
// inference.overheads, and a file saved before that key opens in the datasheet basis it meant.
void TestScenarioOverheads::inferenceKeepsItsBasis() {
    Scenario s;
    QCOMPARE(int(s.inference.input.overheads.basis), int(MemoryBasis::usable));
    s.inference.input.overheads.fragmentation = 0.05;
    s.inference.input.overheads.ncclChannels = 16;
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QCOMPARE(back.scenario->inference.input.overheads, s.inference.input.overheads);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(s));
    doc["inference"].erase("overheads");
    const ScenarioParse older = parseScenario(doc.dump());
    QVERIFY2(older.ok(), older.error.c_str());
    QCOMPARE(older.scenario->inference.input.overheads, datasheetOverheads());
}

void TestScenarioOverheads::badValues_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("unknown basis") << "basis"
                                   << "\"marketing\"";
    QTest::newRow("unknown switch") << "switches"
                                    << "\"context,cuda\"";
    QTest::newRow("fragmentation 1") << "fragmentation"
                                     << "1";
    QTest::newRow("negative fragmentation") << "fragmentation"
                                            << "-0.1";
    QTest::newRow("fractional CUDA major") << "cuda_major"
                                           << "12.5";
    QTest::newRow("fractional channels") << "nccl_channels"
                                         << "2.5";
    QTest::newRow("context as text") << "cuda_context_bytes"
                                     << "\"500 MB\"";
    QTest::newRow("zero buffer") << "nccl_buffsize_bytes"
                                 << "0";
}

void TestScenarioOverheads::badValues() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(Scenario{}));
    doc["accounting"]["overheads"][key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const std::string text = doc.dump();
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(!back.ok(), text.c_str());
    QVERIFY2(back.error.find(key.toStdString()) != std::string::npos, back.error.c_str());
}

QTEST_APPLESS_MAIN(TestScenarioOverheads)
#include "tst_scenario_overheads.moc"

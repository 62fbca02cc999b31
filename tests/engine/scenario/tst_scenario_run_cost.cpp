// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files keep the run's price and power (price per GPU-hour, power fraction, PUE, grid intensity):
// written and read back unchanged, "not set" kept as null, a bad value refused naming its key.
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace napkin;

class TestScenarioRunCost : public QObject {
    Q_OBJECT
private slots:
    void roundTrip();
    void unsetStaysUnset();
    void badValues_data();
    void badValues();
    void commandLineCarriesTheCost();
};

void TestScenarioRunCost::roundTrip() {
    Scenario s;
    s.accounting.input.cost.pricePerGpuHour = 2.5;
    s.accounting.input.cost.powerFraction = 0.8;
    s.accounting.input.cost.pue = 1.2;
    s.accounting.input.cost.gridKgCo2PerKwh = 0.05;
    const ScenarioParse back = parseScenario(writeScenario(s));
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(back.scenario->accounting.input.cost == s.accounting.input.cost);
}

void TestScenarioRunCost::unsetStaysUnset() {
    const ScenarioParse back = parseScenario(writeScenario(Scenario{}));
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(!back.scenario->accounting.input.cost.pricePerGpuHour);
    QVERIFY(!back.scenario->accounting.input.cost.gridKgCo2PerKwh);
}

void TestScenarioRunCost::badValues_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::newRow("negative price") << "price_per_gpu_hour"
                                    << "-2";
    QTest::newRow("price as text") << "price_per_gpu_hour"
                                   << "\"cheap\"";
    QTest::newRow("fraction 2") << "power_fraction"
                                << "2";
    QTest::newRow("PUE 0.5") << "pue"
                             << "0.5";
    QTest::newRow("intensity 9") << "grid_kg_co2_per_kwh"
                                 << "9";
}

void TestScenarioRunCost::badValues() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    nlohmann::json doc = nlohmann::json::parse(writeScenario(Scenario{}));
    doc["accounting"]["cost"][key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const std::string text = doc.dump();
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(!back.ok(), text.c_str());
    QVERIFY2(back.error.find(key.toStdString()) != std::string::npos, back.error.c_str());
}

void TestScenarioRunCost::commandLineCarriesTheCost() {
    AccountingInput in;
    QVERIFY(accountCommandLine(in).find("--pue") == std::string::npos); // defaults say nothing
    in.cost.pricePerGpuHour = 2;
    in.cost.pue = 1.1;
    in.cost.gridKgCo2PerKwh = 0.4;
    const std::string line = accountCommandLine(in);
    QVERIFY2(line.find("--price-per-gpu-hour 2") != std::string::npos, line.c_str());
    QVERIFY2(line.find("--pue 1.1") != std::string::npos, line.c_str());
    QVERIFY2(line.find("--grid-intensity 0.4") != std::string::npos, line.c_str());
    QVERIFY2(line.find("--power-fraction") == std::string::npos, line.c_str());
}

QTEST_APPLESS_MAIN(TestScenarioRunCost)
#include "tst_scenario_run_cost.moc"

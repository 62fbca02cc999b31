// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario carries the user's own GPUs ("gpus", in the GPU catalog's format), so a page that names one
// opens anywhere; a file that names a GPU it does not carry, or carries a built-in id, is refused.
#include "engine/hardware/custom_gpu_form.h"
#include "engine/scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace napkin;

class TestScenarioGpus : public QObject {
    Q_OBJECT
private slots:
    void ownGpuRoundTrips();
    void noOwnGpuWritesNoKey();
    void refusals_data();
    void refusals();
};

namespace {
// An A100 SXM 80GB from its datasheet (80 GB, 2,039 GB/s, BF16 312 dense, 400 W), as the dialog makes it.
GpuSpec labA100() {
    CustomGpuForm form;
    form.name = "Lab A100";
    form.memoryGb = "80";
    form.bandwidthGbPerSecond = "2039";
    form.peaksTflops = {"19.5", "156", "312", "312", "none"};
    form.tdpWatts = "400";
    return *checkCustomGpu(form).gpu;
}
} // namespace

void TestScenarioGpus::ownGpuRoundTrips() {
    Scenario s;
    s.gpus.parts = {labA100()};
    s.accounting.input.gpu = "Lab-A100";
    s.inference.input.gpu = "Lab-A100";
    s.roofline.device = "Lab-A100";
    const std::string text = writeScenario(s);
    QVERIFY(nlohmann::json::parse(text).contains("gpus"));
    const ScenarioParse back = parseScenario(text);
    QVERIFY2(back.ok(), back.error.c_str());
    QVERIFY(back.warnings.empty());
    QCOMPARE(back.scenario->accounting.input.gpu, std::string("Lab-A100"));
    QCOMPARE(back.scenario->roofline.device, std::string("Lab-A100"));
    QCOMPARE(back.scenario->gpus.parts.size(), std::size_t(1));
    QCOMPARE(back.scenario->gpus.parts.front().memoryBandwidthBytesPerSecond, 2.039e12);
    QVERIFY(*back.scenario == s);
}

void TestScenarioGpus::noOwnGpuWritesNoKey() {
    QVERIFY(!nlohmann::json::parse(writeScenario(Scenario{})).contains("gpus"));
}

void TestScenarioGpus::refusals_data() {
    QTest::addColumn<QString>("edit"); // what is done to a written file with the Lab A100 chosen
    QTest::addColumn<QString>("mentions");
    QTest::newRow("the GPU is not carried") << "drop gpus"
                                            << "gpu";
    QTest::newRow("a built-in id") << "built-in id"
                                   << "built-in";
    QTest::newRow("gpus not a list") << "not a list"
                                     << "gpus";
    QTest::newRow("a bad figure") << "bad figure"
                                  << "memory_bytes";
}

void TestScenarioGpus::refusals() {
    QFETCH(QString, edit);
    QFETCH(QString, mentions);
    Scenario s;
    s.gpus.parts = {labA100()};
    s.accounting.input.gpu = "Lab-A100";
    nlohmann::json file = nlohmann::json::parse(writeScenario(s));
    if (edit == "drop gpus")
        file.erase("gpus");
    else if (edit == "built-in id")
        file["gpus"][0]["id"] = "H100-SXM";
    else if (edit == "not a list")
        file["gpus"] = "Lab A100";
    else if (edit == "bad figure")
        file["gpus"][0]["memory_bytes"] = -1;
    const ScenarioParse back = parseScenario(file.dump());
    QVERIFY(!back.ok());
    QVERIFY2(QString::fromStdString(back.error).contains(mentions), back.error.c_str());
}

QTEST_APPLESS_MAIN(TestScenarioGpus)
#include "tst_scenario_gpus.moc"

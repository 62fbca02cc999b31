// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli gpus, and a user's own GPU: the part the app's dialog makes, written as a catalog file by
// the engine, gives the CLI (--gpu-catalog) the same answers the engine gives the app in-process.
#include "cli/cli_app.h"
#include "engine/accounting/accounting.h"
#include "engine/accounting/setup_presets.h"
#include "engine/benchmarks/local_gpus.h"
#include "engine/hardware/custom_gpu_form.h"
#include "engine/hardware/gpu_catalog_writer.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace napkin;
using napkin::test::CliOutcome;
using napkin::test::runCli;

class TestCliGpus : public QObject {
    Q_OBJECT
private slots:
    void listsTheCatalog();
    void thisMachineAnswersWithOrWithoutADevice();
    void devicesAreMatchedOrSaidWhyNot();
    void customGpuGivesTheCliTheAppsAnswers();
    void badCatalogFileExitsTwo();
};

namespace {
// An A100 SXM 80GB typed from its datasheet (NVIDIA A100 datasheet: 80 GB, 2,039 GB/s, FP32 19.5, TF32
// 156, BF16/FP16 312 TFLOPS dense; no fp8; 400 W).
GpuSpec typedA100() {
    CustomGpuForm form;
    form.name = "Lab A100";
    form.memoryGb = "80";
    form.bandwidthGbPerSecond = "2039";
    form.peaksTflops = {"19.5", "156", "312", "312", "none"};
    form.tdpWatts = "400";
    const CustomGpuCheck check = checkCustomGpu(form);
    if (!check.gpu)
        qFatal("the typed A100 was refused: %s", check.errors.front().message.c_str());
    return *check.gpu;
}
} // namespace

void TestCliGpus::listsTheCatalog() {
    const CliOutcome o = runCli({"gpus", "--json"});
    QCOMPARE(o.status, 0);
    const auto doc = nlohmann::json::parse(o.out);
    QCOMPARE(doc["gpus"].size(), GpuCatalog::builtIn().gpus().size());
    QVERIFY(!doc.contains("this_machine"));
    for (const auto& part : doc["gpus"])
        if (part["id"] == "T4")
            QCOMPARE(part["dense_peak_bf16"].get<double>(), 0.0); // Turing: no bf16 path
        else if (part["id"] == "A10")
            QVERIFY(part["dense_peak_bf16"].is_null()); // no source gives it
    const CliOutcome text = runCli({"gpus"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("T4: NVIDIA T4 16GB") != std::string::npos);
}

// On a machine with a device it lists it; without one (CI, this build machine) it says why. Either way the
// command succeeds and the JSON's two halves agree.
void TestCliGpus::thisMachineAnswersWithOrWithoutADevice() {
    const CliOutcome o = runCli({"gpus", "--this-machine", "--json"});
    QCOMPARE(o.status, 0);
    const auto machine = nlohmann::json::parse(o.out)["this_machine"];
    const bool none = machine["devices"].empty();
    QCOMPARE(machine["no_device_reason"].is_null(), !none);
    if (none)
        QVERIFY(machine["no_device_reason"].get<std::string>().starts_with("no CUDA device found"));
    const CliOutcome text = runCli({"gpus", "--this-machine"});
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.starts_with(none ? "no CUDA device found" : "device 0: "));
}

void TestCliGpus::devicesAreMatchedOrSaidWhyNot() {
    LocalGpuReport report;
    LocalGpu h100;
    h100.name = "NVIDIA H100 80GB HBM3"; // skypilot PR #2945; 81,559 MiB: modal-client PR #2797
    h100.memoryBytes = 81559.0 * 1024 * 1024;
    LocalGpu unknown;
    unknown.index = 1;
    unknown.name = "NVIDIA GeForce GTX 1080";
    unknown.memoryBytes = 8192.0 * 1024 * 1024;
    report.devices = {h100, unknown};
    const ThisMachineGpus machine = matchLocalGpus(report, GpuCatalog::builtIn());
    QVERIFY(machine.noDeviceReason.empty());
    QCOMPARE(machine.gpus.size(), std::size_t(2));
    QCOMPARE(machine.gpus[0].match.catalogId, std::string("H100-SXM"));
    QVERIFY(machine.gpus[1].match.catalogId.empty());
    LocalGpuReport empty;
    empty.noDeviceReason = "the CUDA runtime reports 0 devices";
    QCOMPARE(matchLocalGpus(empty, GpuCatalog::builtIn()).noDeviceReason,
             std::string("no CUDA device found: the CUDA runtime reports 0 devices"));
}

void TestCliGpus::customGpuGivesTheCliTheAppsAnswers() {
    const GpuSpec mine = typedA100();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath("lab.json").toStdString();
    std::ofstream(path) << gpuCatalogJson({mine});

    // The app: account() in-process with the dialog's part.
    const SetupPreset* preset = findSetupPreset("70b-15t-1024-h100");
    QVERIFY(preset);
    AccountingInput input = preset->input;
    input.gpu = mine.id;
    const AccountingResult app = account(input, mine);
    QVERIFY(app.trainingSeconds);

    // The CLI: the same preset and part, read from the file.
    const CliOutcome o = runCli(
        {"account", "--preset", "70b-15t-1024-h100", "--gpu", mine.id, "--gpu-catalog", path, "--json"});
    QVERIFY2(o.status == 0, o.err.c_str());
    const auto doc = nlohmann::json::parse(o.out);
    QCOMPARE(doc["training_seconds"].get<double>(), app.trainingSeconds->value);
    QCOMPARE(doc["memory_bytes"]["total"].get<double>(), app.memory.total.value);
    QCOMPARE(doc["fits"].get<bool>(), app.fits);
    // The same figures as the built-in A100 SXM give the same time: the dialog lost nothing on the way.
    const CliOutcome builtIn =
        runCli({"account", "--preset", "70b-15t-1024-h100", "--gpu", "A100-SXM", "--json"});
    QCOMPARE(nlohmann::json::parse(builtIn.out)["training_seconds"].get<double>(),
             app.trainingSeconds->value);

    // infer reads the file too (it once knew the built-in parts only), and its line names the file.
    const CliOutcome served =
        runCli({"infer", "--preset", "llama3-8b", "--gpu", mine.id, "--gpu-catalog", path, "--json"});
    QVERIFY2(served.status == 0, served.err.c_str());
    const auto servedDoc = nlohmann::json::parse(served.out);
    const std::string command = servedDoc["command"];
    QVERIFY2(command.find(" --gpu Lab-A100 ") != std::string::npos &&
                 command.ends_with(" --gpu-catalog " + path + " --json"),
             command.c_str());
    QCOMPARE(servedDoc["gpu"]["id"].get<std::string>(), mine.id);

    const CliOutcome listed = runCli({"gpus", "--gpu-catalog", path});
    QCOMPARE(listed.status, 0);
    QVERIFY(listed.out.find("Lab-A100: Lab A100 — 80 GB, 2.039 TB/s, bf16 312 TFLOP/s dense") !=
            std::string::npos);
}

void TestCliGpus::badCatalogFileExitsTwo() {
    const CliOutcome o = runCli({"gpus", "--gpu-catalog", "/nonexistent/catalog.json"});
    QCOMPARE(o.status, 2);
    QVERIFY(o.err.find("--gpu-catalog") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestCliGpus)
#include "tst_cli_gpus.moc"

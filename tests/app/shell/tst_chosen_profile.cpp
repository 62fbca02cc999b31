// SPDX-License-Identifier: GPL-3.0-or-later
// The app's hardware profile (app/hardware/chosen_hardware_profile.h) is one answer everywhere: the
// Accounting page's step time, its Copy as command line and its exported JSON, and napkin-cli running that
// line, all predict from the profile where it was measured on the page's GPU, and from the GPU's published
// profile where it was not; a profile of this CPU makes "this-cpu" a GPU the page can choose.
#include "app/accounting/accounting_controls.h"
#include "app/accounting/accounting_page.h"
#include "app/accounting/presets.h"
#include "app/accounting/step_time_answer.h"
#include "app/classroom/tour_answers.h"
#include "app/hardware/chosen_hardware_profile.h"
#include "app/hardware/gpu_chooser_box.h"
#include "app/hardware/hardware_profile_chooser.h"
#include "app/hardware/session_gpu_catalog.h"
#include "app/inference/inference_answers.h"
#include "app/inference/inference_controls.h"
#include "app/inference/inference_page.h"
#include "app/shell/page_command.h"
#include "engine/io/atomic_file.h"
#include "engine/numerics/quantity_format.h"
#include "engine/steptime/published_profiles.h"
#include "engine/steptime/step_time.h"
#include "tests/support/cli_outcome.h"
#include "tests/support/command_words.h"
#include "widgets/text/engine_text.h"

#include <nlohmann/json.hpp>

#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

using namespace napkin;

namespace {

std::vector<std::string> words(const QString& line) {
    return napkin::test::commandWords(line.toStdString());
}

// H100-SXM's published profile with every GEMM at half the rate, measured "on" `device`: a profile whose
// predictions differ from the published one's, as a calibration made elsewhere would.
HardwareProfile halfRateProfile(const std::string& device) {
    HardwareProfile p = *publishedProfile(*GpuCatalog::builtIn().find("H100-SXM")).profile;
    for (GemmRate& g : p.gemms)
        g.flopsPerSecond /= 2;
    p.device = device;
    p.source = "tst_chosen_profile: the published H100 figures, GEMMs at half rate";
    return p;
}

QString stepValue(const AccountingPage& page) {
    const auto* label = page.findChild<QLabel*>(QStringLiteral("value_stepTime"));
    return label ? label->text() : QStringLiteral("(no step time row)");
}

// napkin-cli running the page's Copy as command line, with --json.
nlohmann::json cliDocument(const AccountingPage& page) {
    Scenario s;
    s.accounting = page.scenario();
    std::vector<std::string> args = words(pageCommandLine(s, ScenarioPage::accounting));
    if (std::find(args.begin(), args.end(), "--json") == args.end())
        args.emplace_back("--json");
    const test::CliOutcome o = test::runCli(args);
    if (o.status != 0)
        qFatal("napkin-cli failed: %s", o.err.c_str());
    return nlohmann::json::parse(o.out);
}

} // namespace

class TestChosenProfile : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

    QString written(const QString& name, const HardwareProfile& profile) {
        const QString path = m_dir.filePath(name);
        writeFileAtomically(path.toStdString(), hardwareProfileToJson(profile));
        return path;
    }

private slots:
    void init() { ChosenHardwareProfile::instance().clear(); }

    // A profile of the page's GPU: the page, the exported document and napkin-cli on the copied line give
    // one step time, the profile's, not the published one.
    void profileOfThePagesGpuPredictsItsStep() {
        AccountingPage page;
        page.applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // a transformer: its ops are timed
        QCOMPARE(page.controls()->input().gpu, std::string("H100-SXM"));
        const QString published = stepValue(page);
        const double publishedSeconds = nlohmann::json::parse(
            accountingPageDocument(page.controls()->input()).json.toStdString())["step_time"]["seconds"];

        auto* chooser = page.findChild<HardwareProfileChooser*>();
        QVERIFY(chooser);
        const QString path = written(QStringLiteral("h100-half.json"), halfRateProfile("H100-SXM"));
        QVERIFY(chooser->chooseFile(path).isEmpty());

        const AccountingInput in = page.controls()->input();
        const GpuSpec& gpu = *sessionGpuCatalog().find(in.gpu);
        const StepTime expected =
            stepTimeFromProfile(in, account(in, gpu), gpu, ChosenHardwareProfile::instance().profileFor(gpu));
        QVERIFY(expected.predicted);
        QVERIFY2(expected.basis.find("half rate") != std::string::npos, expected.basis.c_str());
        QCOMPARE(stepValue(page), stepTimeAnswer(expected, in.mfu).value);
        QVERIFY(stepValue(page) != published);

        const nlohmann::json exported = nlohmann::json::parse(accountingPageDocument(in).json.toStdString());
        QCOMPARE(exported["step_time"]["seconds"].get<double>(), expected.seconds);
        QVERIFY(expected.seconds > publishedSeconds); // half the GEMM rate: a longer step
        const std::string command = exported["command"];
        QVERIFY2(command.find("--hardware-profile " + path.toStdString()) != std::string::npos, command.c_str());
        const nlohmann::json cli = cliDocument(page);
        QCOMPARE(cli["step_time"]["seconds"].get<double>(), expected.seconds);
        QCOMPARE(cli["step_time"]["basis"], exported["step_time"]["basis"]);
        // The lecture tour's "What MFU will this setup get?" reveals the page's own figure.
        Scenario shown;
        shown.accounting = page.scenario();
        const TourAnswer tour = tourAnswer("step-time", shown);
        QVERIFY(tour.ok && tour.value);
        QCOMPARE(*tour.value, expected.mfu);

        // None: back to the published profile, and the line names no file.
        chooser->clear();
        QCOMPARE(stepValue(page), published);
        Scenario s;
        s.accounting = page.scenario();
        QVERIFY(!pageCommandLine(s, ScenarioPage::accounting).contains(QStringLiteral("--hardware-profile")));
    }

    // A profile of another device serves that device alone: the page's H100 keeps its published step, and
    // the line names no profile (napkin-cli would refuse it for this GPU).
    void profileOfAnotherDeviceLeavesThePublishedStep() {
        AccountingPage page;
        page.applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // a transformer: its ops are timed
        const QString published = stepValue(page);
        Scenario bench;
        bench.benchmarks.device = "cpu";
        QVERIFY(ChosenHardwareProfile::instance()
                    .choose(written(QStringLiteral("a100.json"), halfRateProfile("A100-SXM")))
                    .isEmpty());
        QCOMPARE(stepValue(page), published);
        Scenario s;
        s.accounting = page.scenario();
        QVERIFY(!pageCommandLine(s, ScenarioPage::accounting).contains(QStringLiteral("--hardware-profile")));
        // Nor does a CPU training run's line (bench train would refuse an A100's profile for this CPU).
        QVERIFY(!pageCommandLine(bench, ScenarioPage::benchmarks).contains(QStringLiteral("--hardware-profile")));
        const nlohmann::json cli = cliDocument(page);
        QVERIFY2(cli["step_time"]["basis"].get<std::string>().find("mamf") != std::string::npos ||
                     cli["step_time"]["basis"].get<std::string>().find("MAMF") != std::string::npos,
                 cli["step_time"]["basis"].dump().c_str());
    }

    // This CPU's profile (what Calibrate this CPU writes) brings the CPU into the GPU box; chosen there, its
    // step is predicted from the profile, and the copied line names both the part's catalog and the file.
    void thisCpusProfileMakesTheCpuChoosable() {
        AccountingPage page;
        page.applyPreset(*findPreset(QStringLiteral("gpt2-small"))); // a transformer: its ops are timed
        HardwareProfile cpu = halfRateProfile("this-cpu");
        cpu.gemms.resize(1);
        QVERIFY(ChosenHardwareProfile::instance().choose(written(QStringLiteral("this-cpu.json"), cpu)).isEmpty());
        QVERIFY(sessionGpuCatalog().find("this-cpu"));
        auto* box = page.findChild<GpuChooserBox*>();
        QVERIFY(box);
        const int at = box->findData(QStringLiteral("this-cpu"));
        QVERIFY(at >= 0);
        box->setCurrentIndex(at);
        QCOMPARE(page.controls()->input().gpu, std::string("this-cpu"));
        QVERIFY2(stepValue(page).contains(QStringLiteral("MFU")), qPrintable(stepValue(page)));
        Scenario s;
        s.accounting = page.scenario();
        const QString line = pageCommandLine(s, ScenarioPage::accounting);
        QVERIFY2(line.contains(QStringLiteral("--gpu-catalog")) && line.contains(QStringLiteral("--hardware-profile")),
                 qPrintable(line));
        // The Benchmarks page's training run on this CPU is predicted from it too: its line names the file.
        Scenario bench;
        bench.benchmarks.device = "cpu";
        QVERIFY2(pageCommandLine(bench, ScenarioPage::benchmarks).contains(QStringLiteral("--hardware-profile")),
                 qPrintable(pageCommandLine(bench, ScenarioPage::benchmarks)));
        const nlohmann::json cli = cliDocument(page);
        const AccountingInput in = page.controls()->input();
        const GpuSpec& gpu = *sessionGpuCatalog().find(in.gpu);
        const StepTime expected =
            stepTimeFromProfile(in, account(in, gpu), gpu, ChosenHardwareProfile::instance().profileFor(gpu));
        QVERIFY(expected.predicted);
        QCOMPARE(cli["step_time"]["seconds"].get<double>(), expected.seconds);
    }

    // The Inference page's predicted prefill and decode are napkin-cli's on the page's copied line and in its
    // exported document: from the app's profile where it was measured on the page's GPU (the line names the
    // file), else from the GPU's published profile (the line names none).
    void inferencePageFigureIsTheClis_data() {
        QTest::addColumn<QString>("profileDevice"); // "": no profile chosen
        QTest::addColumn<double>("batch");
        QTest::newRow("published, B 1") << QString() << 1.0;
        QTest::newRow("the H100's own profile, B 1") << QStringLiteral("H100-SXM") << 1.0;
        QTest::newRow("the H100's own profile, B 32") << QStringLiteral("H100-SXM") << 32.0;
        QTest::newRow("an A100's profile: the published one") << QStringLiteral("A100-SXM") << 8.0;
    }
    void inferencePageFigureIsTheClis() {
        QFETCH(QString, profileDevice);
        QFETCH(double, batch);
        QString path;
        if (!profileDevice.isEmpty()) {
            path = written(profileDevice + QStringLiteral(".json"),
                           halfRateProfile(profileDevice.toStdString()));
            QVERIFY(ChosenHardwareProfile::instance().choose(path).isEmpty());
        }
        InferencePage page;
        InferenceScenario chosen = page.scenario();
        chosen.input.batch = batch;
        page.applyScenario(chosen);
        QCOMPARE(page.controls()->input().gpu, std::string("H100-SXM"));
        const InferenceTimes& t = page.lastTimes();
        QVERIFY2(t.decode.predicted, t.decode.whyNot.c_str());
        const bool own = profileDevice == QStringLiteral("H100-SXM");
        QCOMPARE(t.decode.basis.find("half rate") != std::string::npos, own);
        QVERIFY(page.answers()
                    ->valueText(QStringLiteral("decodePredicted"))
                    .contains(toQString(formatDuration(t.decode.seconds))));
        QVERIFY(page.answers()
                    ->formulaText(QStringLiteral("decodePredicted"))
                    .contains(toQString(t.decode.basis)));

        Scenario s;
        s.inference = page.scenario();
        const QString line = pageCommandLine(s, ScenarioPage::inference);
        QCOMPARE(line.contains(QStringLiteral("--hardware-profile ") + path), own);
        std::vector<std::string> args = words(line);
        if (std::find(args.begin(), args.end(), "--json") == args.end())
            args.emplace_back("--json");
        const test::CliOutcome o = test::runCli(args);
        QCOMPARE(o.status, 0);
        const nlohmann::json cli = nlohmann::json::parse(o.out);
        QCOMPARE(cli["decode_time"]["seconds"].get<double>(), t.decode.seconds);
        QCOMPARE(cli["prefill_time"]["seconds"].get<double>(), t.prefill.seconds);
        QCOMPARE(cli["decode_time"]["basis"].get<std::string>(), t.decode.basis);
        const nlohmann::json exported =
            nlohmann::json::parse(inferencePageDocument(page.controls()->input()).json.toStdString());
        QCOMPARE(exported["decode_time"]["seconds"].get<double>(), t.decode.seconds);
        QCOMPARE(exported["command"].get<std::string>().find("--hardware-profile") != std::string::npos, own);
    }
};

QTEST_MAIN(TestChosenProfile)
#include "tst_chosen_profile.moc"

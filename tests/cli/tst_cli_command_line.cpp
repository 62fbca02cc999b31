// SPDX-License-Identifier: GPL-3.0-or-later
// Every page is a command: the line engine/report/cli_command_line.h writes for an input, run through
// napkin-cli, prints the very document the app writes for that input (command included), for
// thousands of random valid settings and every preset.
#include "engine/accounting/setup_presets.h"
#include "engine/report/accounting_report.h"
#include "engine/report/cli_command_line.h"
#include "engine/report/inference_report.h"
#include "engine/scenario/scenario.h"
#include "tests/support/cli_outcome.h"
#include "tests/support/command_words.h"
#include "tests/support/random_accounting_inputs.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using namespace napkin;

namespace {

using test::commandWords;

nlohmann::json appDocument(const AccountingInput& in) {
    const GpuSpec& gpu = *GpuCatalog::builtIn().find(in.gpu);
    return accountingToJson(in, gpu, account(in, gpu));
}

} // namespace

class TestCliCommandLine : public QObject {
    Q_OBJECT
private slots:
    void numbersReadBackExactly_data();
    void numbersReadBackExactly();
    void quoting();
    void everyPresetIsItsOwnCommand();
    void randomSettingsRoundTrip();
    void inferenceRoundTrip();
    void savedScenarioIsTheSetup();
};

void TestCliCommandLine::numbersReadBackExactly_data() {
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("small whole") << 8.0 << "8";
    QTest::newRow("15T tokens") << 15e12 << "15e12";
    QTest::newRow("300B tokens") << 300e9 << "3e11";
    QTest::newRow("GPT-2's parameters") << 124439808.0 << "124439808";
    QTest::newRow("an MFU") << 0.55 << "0.55";
    QTest::newRow("tiny") << 1.25e-5 << "1.25e-05";
}

void TestCliCommandLine::numbersReadBackExactly() {
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(commandNumber(value)), text);
}

void TestCliCommandLine::quoting() {
    QCOMPARE(QString::fromStdString(shellQuoted("H100-SXM")), QStringLiteral("H100-SXM"));
    QCOMPARE(QString::fromStdString(shellQuoted("x.view(2, 3)")), QStringLiteral("'x.view(2, 3)'"));
    QCOMPARE(QString::fromStdString(shellQuoted("it's")), QStringLiteral("'it'\\''s'"));
    QCOMPARE(QString::fromStdString(shellQuoted("")), QStringLiteral("''"));
}

void TestCliCommandLine::everyPresetIsItsOwnCommand() {
    for (const SetupPreset& p : setupPresets()) {
        const std::string command = accountCommandLine(p.input);
        QCOMPARE(QString::fromStdString(command), QStringLiteral("napkin-cli account --preset %1 --json")
                                                      .arg(QString::fromUtf8(p.id.data(), p.id.size())));
        const test::CliOutcome o = test::runCli(commandWords(command));
        QVERIFY2(o.status == 0, o.err.c_str());
        QVERIFY2(nlohmann::json::parse(o.out) == appDocument(p.input), p.id.data());
    }
}

void TestCliCommandLine::randomSettingsRoundTrip() {
    test::RandomAccountingInputs inputs(28);
    for (int i = 0; i < 1000; ++i) {
        const AccountingInput in = inputs.next();
        const std::string command = accountCommandLine(in);
        const test::CliOutcome o = test::runCli(commandWords(command));
        const QByteArray name = QByteArray::number(i) + ": " + QByteArray::fromStdString(command);
        QVERIFY2(o.status == 0, (name + " → " + QByteArray::fromStdString(o.err)).constData());
        const nlohmann::json cli = nlohmann::json::parse(o.out);
        const nlohmann::json app = appDocument(in);
        if (cli != app) {
            for (auto it = app.begin(); it != app.end(); ++it)
                if (!cli.contains(it.key()) || cli[it.key()] != it.value())
                    qWarning("%s: field %s differs", name.constData(), it.key().c_str());
            QFAIL(name.constData());
        }
    }
}

void TestCliCommandLine::inferenceRoundTrip() {
    for (const char* id : {"llama3-8b", "gpt2-small", "mixtral-8x7b"}) {
        InferenceInput in;
        in.model = findSetupPreset(id)->input.model;
        in.context = 4096;
        in.prompt = 1000;
        in.batch = 3;
        in.weights = WeightFormat::int4;
        in.kvCache = StorageType::fp8;
        const GpuCatalog& catalog = GpuCatalog::builtIn();
        if (!validateInference(in, catalog).ok())
            in.context = in.model.seq;
        QVERIFY(validateInference(in, catalog).ok());
        const GpuSpec& gpu = *catalog.find(in.gpu);
        const std::string command = inferCommandLine(in);
        const test::CliOutcome o = test::runCli(commandWords(command));
        QVERIFY2(o.status == 0, (command + " → " + o.err).c_str());
        nlohmann::json document = nlohmann::json::parse(o.out);
        document.erase("weights_format"); // how the CLI chose its format (napkin-cli infer only, docs/cli.md)
        QVERIFY2(document == inferenceToJson(in, gpu, accountInference(in, gpu)), command.c_str());
    }
}

// `account … --save-scenario FILE` (what scripts/measure-run.py puts in its trace for the app's "Use the
// run's setup") holds the setup the line gave: read back as the app reads it, its input prints the same
// command and the same document, for every preset (named in the preset box) and random settings.
void TestCliCommandLine::savedScenarioIsTheSetup() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::string path = dir.filePath(QStringLiteral("setup.napkin.json")).toStdString();
    std::vector<AccountingInput> inputs;
    for (const SetupPreset& p : setupPresets())
        inputs.push_back(p.input);
    test::RandomAccountingInputs random(56);
    for (int i = 0; i < 300; ++i)
        inputs.push_back(random.next());
    for (const AccountingInput& in : inputs) {
        const std::string command = accountCommandLine(in);
        std::vector<std::string> argv = commandWords(command);
        argv.insert(argv.end(), {"--save-scenario", path});
        const test::CliOutcome o = test::runCli(argv);
        QVERIFY2(o.status == 0, (command + " → " + o.err).c_str());
        const ScenarioParse read = readScenarioFile(path);
        QVERIFY2(read.ok(), (command + " → " + read.error).c_str());
        QVERIFY2(read.warnings.empty(), command.c_str());
        const Scenario& scenario = *read.scenario;
        QCOMPARE(scenario.page, ScenarioPage::accounting);
        QCOMPARE(QString::fromStdString(accountCommandLine(scenario.accounting.input)),
                 QString::fromStdString(command));
        QVERIFY2(appDocument(scenario.accounting.input) == appDocument(in), command.c_str());
        std::string preset; // the setup preset the input is exactly, which the preset box then names
        for (const SetupPreset& p : setupPresets())
            if (p.input == in)
                preset = p.id;
        QCOMPARE(scenario.accounting.preset, preset);
    }
    // A file that cannot be written: one line naming the option, exit 2.
    const test::CliOutcome refused =
        test::runCli({"account", "--preset", "gpt2-small", "--save-scenario", "/nonexistent/dir/s.json"});
    QCOMPARE(refused.status, 2);
    QVERIFY2(refused.err.find("--save-scenario: ") != std::string::npos, refused.err.c_str());
    QVERIFY2(refused.out.empty(), refused.out.c_str());
}

QTEST_APPLESS_MAIN(TestCliCommandLine)
#include "tst_cli_command_line.moc"

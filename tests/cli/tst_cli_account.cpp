// napkin-cli's run() as a function: contract of stdout, stderr and exit status.
#include "cli/cli_app.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using napkin::test::CliOutcome;
using napkin::test::runCli;

class TestCliAccount : public QObject {
    Q_OBJECT
private slots:
    void jsonHasTheContractFields();
    void badArgumentsExitTwo_data();
    void badArgumentsExitTwo();
    void helpExitsZero();
};

void TestCliAccount::jsonHasTheContractFields() {
    const CliOutcome o = runCli({"account", "--model", "cruncher", "--dim", "4", "--layers", "2", "--batch", "2",
                              "--optimizer", "adagrad", "--json"});
    QCOMPARE(o.status, 0);
    QVERIFY(o.err.empty());
    const auto doc = nlohmann::json::parse(o.out);
    for (const char* key : {"parameters", "bytes_per_parameter", "memory_bytes", "flops_per_step",
                            "training_flops", "training_seconds", "training_days", "max_parameters", "fits"})
        QVERIFY2(doc.contains(key), key);
    for (const char* key :
         {"parameters", "gradients", "master_weights", "optimizer_state", "activations", "total"})
        QVERIFY2(doc["memory_bytes"].contains(key), key);
    for (const char* key : {"forward", "backward", "total"})
        QVERIFY2(doc["flops_per_step"].contains(key), key);
    QCOMPARE(doc["memory_bytes"]["total"].get<double>(), 496.0);
    QVERIFY(doc["parameters"].is_number_integer());
}

void TestCliAccount::badArgumentsExitTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    QTest::newRow("mfu > 1") << QStringList{"account", "--model", "dense", "--params",
                                            "1e9",     "--mfu",   "2",     "--json"}
                             << "--mfu";
    QTest::newRow("unknown option") << QStringList{"account",  "--model", "dense",
                                                   "--params", "1",       "--frobnicate"}
                                    << "--frobnicate";
    QTest::newRow("text for a number")
        << QStringList{"account", "--model", "dense", "--params", "lots", "--json"} << "--params";
    QTest::newRow("bad precision") << QStringList{"account", "--model",     "dense", "--params",
                                                  "1",       "--precision", "fp4"}
                                   << "--precision";
    QTest::newRow("zero 7") << QStringList{"account", "--model", "dense", "--params", "1", "--zero", "7"}
                            << "--zero";
    QTest::newRow("sp without tp") << QStringList{"account", "--model-preset", "llama3-8b", "--sp"} << "--sp";
    QTest::newRow("top-k above experts")
        << QStringList{"account", "--model-preset", "mixtral-8x7b", "--top-k", "9"} << "--top-k";
    QTest::newRow("dp not whole") << QStringList{"account", "--model-preset", "llama3-8b", "--tp",
                                                 "8",       "--gpus",         "12"}
                                  << "--gpus";
    QTest::newRow("no subcommand") << QStringList{} << "";
}

void TestCliAccount::badArgumentsExitTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    std::vector<std::string> argv;
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    const CliOutcome o = runCli(argv);
    QCOMPARE(o.status, 2);
    QVERIFY(o.out.empty());
    QCOMPARE(std::count(o.err.begin(), o.err.end(), '\n'), 1L);
    QVERIFY2(QString::fromStdString(o.err).contains(names), o.err.c_str());
}

void TestCliAccount::helpExitsZero() {
    const CliOutcome o = runCli({"account", "--help"});
    QCOMPARE(o.status, 0);
    QVERIFY(QString::fromStdString(o.out).contains("--tokens"));
}

QTEST_APPLESS_MAIN(TestCliAccount)
#include "tst_cli_account.moc"

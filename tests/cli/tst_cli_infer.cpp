// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli infer as a function: every field docs/cli.md promises, the text output, and that the
// model options it shares with `account` are read the same way.
#include "cli/cli_app.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <algorithm>

using napkin::test::CliOutcome;
using napkin::test::runCli;

class TestCliInfer : public QObject {
    Q_OBJECT
private slots:
    void jsonHasTheContractFields();
    void textSaysItIsALowerBound();
    void sharesTheModelOptionsOfAccount();
    void predictedBesideTheRoofline_data();
    void predictedBesideTheRoofline();
    void profileNamedOnTheLine();
};

void TestCliInfer::jsonHasTheContractFields() {
    const CliOutcome o = runCli({"infer", "--preset", "llama3-8b", "--context", "8192", "--json"});
    QCOMPARE(o.status, 0);
    QVERIFY(o.err.empty());
    const auto doc = nlohmann::json::parse(o.out);
    for (const char* key : {"model",
                            "parameters",
                            "quantized_parameters",
                            "other_parameters",
                            "batch",
                            "context",
                            "prompt",
                            "weights",
                            "weights_format",
                            "group_size",
                            "kv_cache",
                            "gpu",
                            "weights_bytes",
                            "kv_cache_bytes_per_token",
                            "kv_cache_bytes",
                            "memory_bytes",
                            "capacity_bytes",
                            "fits",
                            "prefill_flops",
                            "prefill_seconds",
                            "prefill_bytes",
                            "decode_flops_per_token",
                            "decode_step_flops",
                            "experts_read_per_step",
                            "decode_bytes_per_token",
                            "decode_seconds_per_token",
                            "decode_tokens_per_second",
                            "arithmetic_intensity",
                            "ridge_flops_per_byte",
                            "decode_flops_per_second_per_gpu",
                            "prefill_arithmetic_intensity",
                            "prefill_flops_per_second_per_gpu",
                            "bound",
                            "max_batch",
                            "max_context",
                            "formulas"})
        QVERIFY2(doc.contains(key), key);
    for (const char* key : {"weights", "kv_cache", "activations", "total"}) {
        QVERIFY2(doc["memory_bytes"].contains(key), key);
        QVERIFY2(doc["formulas"].contains(std::string("memory_bytes.") + key), key);
    }
    for (const char* key : {"weights_bytes", "kv_cache_bytes", "decode_seconds_per_token", "max_batch"})
        QVERIFY2(doc["formulas"].contains(key), key);
    QCOMPARE(doc["kv_cache_bytes"].get<double>(), 1073741824.0);
    QVERIFY(doc["kv_cache_bytes"].is_number_integer());
    // prefill_bytes is the bytes term of prefill_seconds: the weights read, never more than all of them.
    const double prefillBytes = doc["prefill_bytes"].get<double>();
    QVERIFY(prefillBytes > 0 && prefillBytes <= doc["weights_bytes"].get<double>());
    const double peak = doc["gpu"]["dense_peak_flops_per_second"].get<double>();
    const double bandwidth = doc["gpu"]["memory_bandwidth_bytes_per_second"].get<double>();
    QCOMPARE(doc["prefill_seconds"].get<double>(),
             std::max(doc["prefill_flops"].get<double>() / peak, prefillBytes / bandwidth));
}

void TestCliInfer::textSaysItIsALowerBound() {
    const CliOutcome o = runCli({"infer", "--preset", "llama3-70b", "--weights", "int4", "--gpus", "2"});
    QCOMPARE(o.status, 0);
    const QString text = QString::fromStdString(o.out);
    QVERIFY(text.contains("decode step (roofline lower bound)"));
    QVERIFY(text.contains("fits: yes"));
}

// The same flags give the same model: the parameter count of account and infer agree.
void TestCliInfer::sharesTheModelOptionsOfAccount() {
    const std::vector<std::string> model{"--preset", "llama3-8b", "--kv-heads", "32", "--ffn-dim", "11008"};
    std::vector<std::string> account{"account"}, infer{"infer"};
    for (auto* args : {&account, &infer}) {
        args->insert(args->end(), model.begin(), model.end());
        args->push_back("--json");
    }
    const auto a = nlohmann::json::parse(runCli(account).out);
    const auto i = nlohmann::json::parse(runCli(infer).out);
    QCOMPARE(i["parameters"], a["parameters"]);
    QCOMPARE(i["kv_cache_bytes_per_token"].get<double>(), 2.0 * 32 * 32 * 128 * 2); // MHA: g = a = 32
}

// prefill_time and decode_time (docs/cli.md): the training step's model over the serving ops, never below
// the roofline's lower bound beside them, their ledger adding up to their seconds.
void TestCliInfer::predictedBesideTheRoofline_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("llama3-8b B 1") << QStringList{"--preset", "llama3-8b", "--context", "8192"};
    QTest::newRow("llama3-8b B 32 P 512")
        << QStringList{"--preset", "llama3-8b", "--batch", "32", "--context", "4096", "--prompt", "512"};
    QTest::newRow("llama3-70b int4 on 2 A100s")
        << QStringList{"--preset", "llama3-70b", "--weights", "int4", "--gpus", "2", "--gpu", "A100-SXM"};
    QTest::newRow("gpt2-small B 16") << QStringList{"--preset", "gpt2-small", "--batch", "16"};
}

void TestCliInfer::predictedBesideTheRoofline() {
    QFETCH(QStringList, args);
    std::vector<std::string> words{"infer"};
    for (const QString& a : args)
        words.push_back(a.toStdString());
    words.push_back("--json");
    const CliOutcome o = runCli(words);
    QCOMPARE(o.status, 0);
    const auto doc = nlohmann::json::parse(o.out);
    const std::pair<const char*, const char*> passes[] = {{"prefill_time", "prefill_seconds"},
                                                          {"decode_time", "decode_seconds_per_token"}};
    for (const auto& [key, roofline] : passes) {
        const auto& t = doc[key];
        QVERIFY2(t["predicted"].get<bool>(), t["why_not"].dump().c_str());
        for (const char* field : {"seconds", "tokens_per_second", "tokens_formula", "basis", "not_modelled"})
            QVERIFY2(t.contains(field), field);
        QVERIFY(t["seconds"].get<double>() >= doc[roofline].get<double>());
        double sum = 0;
        for (const auto& row : t["ledger"])
            sum += row["seconds"].get<double>();
        QVERIFY(std::abs(sum / t["seconds"].get<double>() - 1) < 1e-9);
        QVERIFY(t["basis"].get<std::string>().find("mamf-finder") != std::string::npos);
    }
    QCOMPARE(doc["decode_time"]["tokens_per_second"].get<double>(),
             doc["batch"].get<double>() / doc["decode_time"]["seconds"].get<double>());
}

// --hardware-profile: the times from that file, and the line says so, so that it reproduces them.
void TestCliInfer::profileNamedOnTheLine() {
    const std::string profile = NAPKIN_CLI_PROFILES "/h100_two_shapes.json";
    const CliOutcome o = runCli({"infer", "--preset", "llama3-8b", "--hardware-profile", profile, "--json"});
    QCOMPARE(o.status, 0);
    const auto doc = nlohmann::json::parse(o.out);
    QCOMPARE(doc["decode_time"]["basis"].get<std::string>(),
             std::string("tests/cli/profiles/h100_two_shapes.json (test input)"));
    QVERIFY(doc["command"].get<std::string>().ends_with(" --hardware-profile " + profile));
    const CliOutcome text = runCli({"infer", "--preset", "llama3-8b", "--hardware-profile", profile});
    QVERIFY(QString::fromStdString(text.out).contains("decode step (predicted): "));
}

QTEST_APPLESS_MAIN(TestCliInfer)
#include "tst_cli_infer.moc"

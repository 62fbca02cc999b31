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

QTEST_APPLESS_MAIN(TestCliInfer)
#include "tst_cli_infer.moc"

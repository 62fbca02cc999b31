// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli roofline and bench memory as a function: every field docs/cli.md promises, the text output,
// and that a measured CPU roofline's bandwidth is the triad it ran.
#include "cli/cli_app.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

using napkin::test::CliOutcome;
using napkin::test::runCli;

class TestCliRoofline : public QObject {
    Q_OBJECT
private slots:
    void gpuJsonHasTheContractFields();
    void gpuTextShowsTheRidge();
    void cpuRooflineUsesItsTriad();
    void benchMemoryText();
    void matmulJsonHasBytesAndIntensity();
};

void TestCliRoofline::gpuJsonHasTheContractFields() {
    const CliOutcome o = runCli({"roofline", "--gpu", "H100-SXM", "--dtype", "bf16", "--json"});
    QCOMPARE(o.status, 0);
    QVERIFY(o.err.empty());
    const auto doc = nlohmann::json::parse(o.out);
    for (const char* key :
         {"device", "dtype", "peak_flops_per_second", "peak_source", "bandwidth_bytes_per_second",
          "bandwidth_source", "ridge_flops_per_byte", "formula"})
        QVERIFY2(doc.contains(key), key);
    QCOMPARE(doc["ridge_flops_per_byte"].get<double>(), 989.4e12 / 3.35e12);
    QVERIFY(doc["peak_flops_per_second"].is_number_integer());
}

void TestCliRoofline::gpuTextShowsTheRidge() {
    const CliOutcome o = runCli({"roofline", "--gpu", "H100-SXM"}); // bf16 by default
    QCOMPARE(o.status, 0);
    const QString text = QString::fromStdString(o.out);
    QVERIFY2(text.contains("H100-SXM, bf16"), qPrintable(text));
    QVERIFY2(text.contains("ridge = peak / bandwidth"), qPrintable(text));
    QVERIFY2(text.contains("295.3"), qPrintable(text));
}

void TestCliRoofline::cpuRooflineUsesItsTriad() {
    const CliOutcome o = runCli(
        {"roofline", "--device", "cpu", "--threads", "1", "--bytes", "1M", "--dtype", "bf16", "--json"});
    QCOMPARE(o.status, 0);
    const auto doc = nlohmann::json::parse(o.out);
    QCOMPARE(doc["bandwidth_bytes_per_second"].get<double>(),
             doc["bandwidth"]["bytes_per_second"].get<double>());
    QCOMPARE(doc["dtype"].get<std::string>(), std::string("bf16"));
    QVERIFY(doc["peak_source"].get<std::string>().starts_with("measured on this CPU: FMA loop"));
    QVERIFY(doc["bandwidth_source"].get<std::string>().starts_with("measured on this CPU: triad"));
    QCOMPARE(doc["ridge_flops_per_byte"].get<double>(),
             doc["peak_flops_per_second"].get<double>() / doc["bandwidth_bytes_per_second"].get<double>());
}

void TestCliRoofline::benchMemoryText() {
    const CliOutcome o = runCli({"bench", "memory", "--bytes", "1M", "--repeats", "3", "--threads", "1"});
    QCOMPARE(o.status, 0);
    const QString text = QString::fromStdString(o.out);
    QVERIFY2(text.contains("triad a[i] = b[i] + s·c[i], fp64, 1 MiB per array, 1 threads"), qPrintable(text));
    QVERIFY2(text.contains("STREAM"), qPrintable(text));
    QVERIFY2(text.contains("promise: none: no datasheet bandwidth for this CPU"), qPrintable(text));
    QVERIFY2(!text.contains("NOT VERIFIED"), qPrintable(text));
}

// n = 32, bf16: 3·32²·2 = 6144 bytes, 2·32³ / 6144 = 2n / (3·2) = 10.667 FLOP/B.
void TestCliRoofline::matmulJsonHasBytesAndIntensity() {
    const CliOutcome o =
        runCli({"bench", "matmul", "--dtype", "bf16", "--sizes", "32", "--repeats", "1", "--json"});
    QCOMPARE(o.status, 0);
    const auto result = nlohmann::json::parse(o.out)["results"][0];
    QCOMPARE(result["bytes"].get<double>(), 6144.0);
    QCOMPARE(result["arithmetic_intensity"].get<double>(), 65536.0 / 6144.0);
}

QTEST_APPLESS_MAIN(TestCliRoofline)
#include "tst_cli_roofline.moc"

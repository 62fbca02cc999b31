// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli against a hostile user: every input here once got through (crashed, was read as "not
// given", changed silently, or printed null/inf). Each must now be refused with exit 2, nothing on
// stdout and one line on stderr naming the argument; or answered with the value exactly as given.
#include "cli/cli_app.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <algorithm>

using napkin::test::CliOutcome;
using napkin::test::runCli;

namespace {

std::vector<std::string> toArgs(const QStringList& args) {
    std::vector<std::string> argv;
    for (const QString& a : args)
        argv.push_back(a.toStdString());
    return argv;
}

} // namespace

class TestCliBadInput : public QObject {
    Q_OBJECT
private slots:
    void refusedNamingTheArgument_data();
    void refusedNamingTheArgument();
    void seedsKeepTheirValue_data();
    void seedsKeepTheirValue();
};

void TestCliBadInput::refusedNamingTheArgument_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    const QStringList gpt2{"account", "--preset", "gpt2-small"};
    const QStringList train{"bench", "train", "--dim", "4", "--layers", "2", "--batch", "2", "--steps", "1"};
    // An empty value was read as "not given": the preset's value, or the default, silently.
    for (const char* option :
         {"--tokens", "--layers", "--heads", "--d-model", "--vocab", "--seq", "--ffn-mult", "--ffn-dim",
          "--kv-heads", "--experts", "--top-k", "--gpu-catalog"}) {
        QTest::addRow("account %s ''", option) << (gpt2 + QStringList{option, ""}) << option;
        QTest::addRow("account %s blank", option) << (gpt2 + QStringList{option, "  "}) << option;
    }
    // The same for the options of config.json import (issue 26) and fine-tuning, and for those whose
    // values are checked against a list (CLI11's own message once spoke for them: "--mlp:  not in ...").
    for (const char* option :
         {"--config",           "--model-preset", "--head-dim",       "--sliding-window",
          "--global-every",     "--q-lora-rank",  "--kv-lora-rank",   "--qk-nope-head-dim",
          "--qk-rope-head-dim", "--v-head-dim",   "--expert-ffn-dim", "--shared-ffn-dim",
          "--dense-layers",     "--mlp",          "--qkv-bias",       "--norm-placement",
          "--qk-norm",          "--model",        "--precision",      "--zero",
          "--finetune",         "--lora-rank",    "--lora-alpha",     "--lora-targets",
          "--offload"})
        QTest::addRow("account %s ''", option)
            << (gpt2 + QStringList{option, ""}) << QString(option) + ": empty value";
    QTest::newRow("account --preset ''") << QStringList{"account", "--preset", ""} << "--preset: empty value";
    QTest::newRow("infer --model-preset ''")
        << QStringList{"infer", "--model-preset", ""} << "--model-preset: empty value";
    QTest::newRow("infer --config ''") << QStringList{"infer", "--config", ""} << "--config: empty value";
    QTest::newRow("infer --context ''")
        << QStringList{"infer", "--preset", "gpt2-small", "--context", ""} << "--context";
    QTest::newRow("infer --prompt ''")
        << QStringList{"infer", "--preset", "gpt2-small", "--prompt", ""} << "--prompt";
    QTest::newRow("roofline --dtype ''")
        << QStringList{"roofline", "--gpu", "H100-SXM", "--dtype", ""} << "--dtype";
    QTest::newRow("roofline --bytes ''")
        << QStringList{"roofline", "--gpu", "H100-SXM", "--bytes", ""} << "--bytes";
    QTest::newRow("bench memory --bytes ''") << QStringList{"bench", "memory", "--bytes", ""} << "--bytes";
    QTest::newRow("bench matmul --shape ''") << QStringList{"bench", "matmul", "--shape", ""} << "--shape";
    QTest::newRow("bench matmul --backend ''")
        << QStringList{"bench", "matmul", "--backend", ""} << "--backend";
    QTest::newRow("bench matmul --seed ''") << QStringList{"bench", "matmul", "--seed", ""} << "--seed";
    for (const char* option : {"--lr", "--resume", "--save", "--backend", "--seed-init", "--seed-data"})
        QTest::addRow("bench train %s ''", option) << (train + QStringList{option, ""}) << option;
    // Answers that would be infinite are refused with the reason, not printed as null or inf.
    QTest::newRow("mfu 1e-300: the run never ends")
        << (gpt2 + QStringList{"--mfu", "1e-300", "--tokens", "1e18"})
        << "--mfu: at MFU 1.00e-300 the run never ends";
    QTest::newRow("lr 1e30: the loss diverges")
        << QStringList{"bench",   "train", "--dim",   "4",  "--layers", "2",
                       "--batch", "2",     "--steps", "10", "--lr",     "1e30"}
        << "--lr: the loss is";
    // The training-loop lessons too: a diverged loss printed as null.
    QTest::newRow("lesson determinism diverges")
        << QStringList{"lesson", "determinism", "--lr", "999999", "--steps", "20"}
        << "--lr: run a: the loss is";
    QTest::newRow("lesson mixed-precision diverges")
        << QStringList{"lesson", "mixed-precision", "--lr", "999999", "--steps", "20", "--recipes", "fp32"}
        << "--lr: fp32";
    QTest::newRow("lesson --lr out of range")
        << QStringList{"lesson", "determinism", "--lr", "1e30"} << "--lr: must be > 0 and < 1e6";
    // Files: only regular ones, checked before they are read; targets checked before the work.
    QTest::newRow("gpu-catalog /dev/zero") << (gpt2 + QStringList{"--gpu-catalog", "/dev/zero"})
                                           << "--gpu-catalog: /dev/zero is not a regular file";
    QTest::newRow("gpu-catalog a folder")
        << (gpt2 + QStringList{"--gpu-catalog", "/tmp"}) << "--gpu-catalog: /tmp is not a regular file";
    QTest::newRow("resume /dev/zero") << (train + QStringList{"--resume", "/dev/zero"})
                                      << "--resume: cannot read checkpoint: /dev/zero is not a regular file";
    QTest::newRow("save into a missing folder")
        << (train + QStringList{"--save", "/nonexistent-napkin-folder/c.ckpt"}) << "--save: cannot write";
    QTest::newRow("save onto a folder")
        << (train + QStringList{"--save", "/tmp"}) << "--save: /tmp is a folder";
    // Memory predicted by the accounting and refused before allocating, with both figures.
    QTest::newRow("a Cruncher no machine holds")
        << QStringList{"bench", "train", "--dim", "65536", "--layers", "4096", "--batch", "64"}
        << "--device cpu: cannot hold this Cruncher: needs";
    // Integers read as integers: no wrap, no clamp, no rounding.
    const QStringList init{"lesson", "init", "--dim", "4", "--layers", "1", "--batch", "1", "--seed"};
    QTest::newRow("seed -1") << (init + QStringList{"-1"}) << "--seed";
    QTest::newRow("seed -5") << (init + QStringList{"-5"}) << "--seed";
    QTest::newRow("seed 2^64") << (init + QStringList{"18446744073709551616"}) << "--seed";
    QTest::newRow("seed 1e30") << (init + QStringList{"1e30"}) << "--seed";
    QTest::newRow("seed 1.5") << (init + QStringList{"1.5"}) << "--seed";
    QTest::newRow("seed ''") << (init + QStringList{""}) << "--seed";
    QTest::newRow("seed-task -1") << QStringList{"lesson", "determinism", "--seed-task", "-1"}
                                  << "--seed-task";
    QTest::newRow("b-seed-data 2^70")
        << QStringList{"lesson", "determinism", "--b-seed-data", "1180591620717411303424"} << "--b-seed-data";
}

void TestCliBadInput::refusedNamingTheArgument() {
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    const CliOutcome o = runCli(toArgs(args));
    QCOMPARE(o.status, 2);
    QVERIFY2(o.out.empty(), o.out.c_str());
    QCOMPARE(std::count(o.err.begin(), o.err.end(), '\n'), 1L);
    QVERIFY2(QString::fromStdString(o.err).contains(names), o.err.c_str());
}

void TestCliBadInput::seedsKeepTheirValue_data() {
    QTest::addColumn<QString>("seed");
    QTest::newRow("0") << "0";
    QTest::newRow("2^63") << "9223372036854775808";
    QTest::newRow("2^64 - 1") << "18446744073709551615";
}

void TestCliBadInput::seedsKeepTheirValue() {
    QFETCH(QString, seed);
    const CliOutcome o = runCli({"lesson", "init", "--dim", "4", "--layers", "1", "--batch", "1", "--seed",
                                 seed.toStdString(), "--json"});
    QCOMPARE(o.status, 0);
    const auto doc = nlohmann::json::parse(o.out);
    QCOMPARE(QString::number(doc["seed"].get<std::uint64_t>()), seed);
}

QTEST_GUILESS_MAIN(TestCliBadInput)
#include "tst_cli_bad_input.moc"

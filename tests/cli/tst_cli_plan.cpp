// SPDX-License-Identifier: GPL-3.0-or-later
// napkin-cli plan as a function: the JSON contract (docs/cli.md), each layout's `account` line
// reproducing its step, the plan's own line reproducing the plan, an impossible setup answered with exit
// 0, and malformed input refused with exit 2 naming the option.
#include "cli/cli_app.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <sstream>

using napkin::test::CliOutcome;
using napkin::test::runCli;

namespace {

const std::vector<std::string> kGpt2On8 = {"plan",    "--model-preset", "gpt2-small", "--precision",
                                           "mixed-bf16", "--gpus",      "8",          "--batch",
                                           "8"};

std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
    args.insert(args.end(), more);
    return args;
}

// A command line as its words: the lines here hold no quoted word (no path with a space).
std::vector<std::string> words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string w; in >> w;)
        out.push_back(w);
    if (out.size() < 2 || out.front() != "napkin-cli")
        qFatal("not a napkin-cli line: %s", line.c_str());
    out.erase(out.begin());
    return out;
}

nlohmann::json cliJson(const std::vector<std::string>& args) {
    const CliOutcome o = runCli(args);
    if (o.status != 0)
        qFatal("plan exited %d: %s", o.status, o.err.c_str());
    return nlohmann::json::parse(o.out);
}

} // namespace

class TestCliPlan : public QObject {
    Q_OBJECT
private slots:
    void jsonHasTheContractFields();
    void eachLayoutsAccountLineReproducesIt();
    void thePlansOwnLineReproducesThePlan();
    void textNamesTheRankingAndYours();
    void nothingFitsExitsZeroWithWhy();
    void badInputExitsTwo_data();
    void badInputExitsTwo();
    void benchPlanReportsTimingAndCounts();
};

void TestCliPlan::jsonHasTheContractFields() {
    const nlohmann::json doc = cliJson(with(kGpt2On8, {"--top", "3", "--json"}));
    for (const char* key : {"command", "why_none", "setup", "basis", "pruning", "counts", "layouts", "yours",
                            "no_fit", "refusals", "warnings"})
        QVERIFY2(doc.contains(key), key);
    QVERIFY(doc["why_none"].is_null() && doc["no_fit"].is_null());
    for (const char* key : {"gpu", "gpus", "gpus_per_node", "global_batch", "tokens_per_step", "top"})
        QVERIFY2(doc["setup"].contains(key), key);
    QCOMPARE(doc["setup"]["global_batch"].get<double>(), 64.0);
    QCOMPARE(doc["setup"]["tokens_per_step"].get<double>(), 65536.0);
    QCOMPARE(doc["setup"]["gpus_per_node"].get<double>(), 8.0);
    const nlohmann::json& c = doc["counts"];
    QCOMPARE(c["considered"].get<long long>(), c["invalid"].get<long long>() + c["pruned"].get<long long>() +
                                                   c["refused_for_memory"].get<long long>() +
                                                   c["not_timed"].get<long long>() + c["timed"].get<long long>());
    QCOMPARE(c["bound_above_time"].get<long long>(), 0LL);
    QCOMPARE(doc["layouts"].size(), std::size_t{3});
    for (std::size_t i = 0; i < 3; ++i) {
        const nlohmann::json& l = doc["layouts"][i];
        for (const char* key : {"rank", "layout", "summary", "step_seconds", "tokens_per_second", "mfu", "hfu",
                                "peak_memory_bytes", "required_bytes", "usable_bytes", "slower_than_first",
                                "changes_from_first", "loses_by", "stages", "largest_rows", "command"})
            QVERIFY2(l.contains(key), key);
        QCOMPARE(l["rank"].get<std::size_t>(), i + 1);
        for (const char* key : {"tp", "pp", "virtual_stages", "first_stage_layers", "last_stage_layers", "cp", "ep",
                                "dp", "sp", "micro_batch", "microbatches", "recompute", "zero", "shard_group",
                                "attention_impl"})
            QVERIFY2(l["layout"].contains(key), key);
        // GPT-2 small's 12 layers split evenly on every pp the 8 GPUs allow: no uneven stages to explain.
        QVERIFY(l["layout"]["first_stage_layers"].is_null() && l["stages"].is_null());
        QVERIFY(l["required_bytes"].get<double>() <= l["usable_bytes"].get<double>());
        QVERIFY(!l["largest_rows"].empty());
    }
    QVERIFY(doc["layouts"][0]["step_seconds"].get<double>() <= doc["layouts"][2]["step_seconds"].get<double>());
    const nlohmann::json& yours = doc["yours"];
    QCOMPARE(yours["status"].get<std::string>(), std::string("ranked"));
    QVERIFY(yours["in_space"].get<bool>());
    QVERIFY(yours["layout"]["rank"].get<long long>() > 3);
}

void TestCliPlan::eachLayoutsAccountLineReproducesIt() {
    const nlohmann::json doc = cliJson(with(kGpt2On8, {"--json"}));
    for (const nlohmann::json& layout : doc["layouts"]) {
        const nlohmann::json account = cliJson(words(layout["command"].get<std::string>()));
        QCOMPARE(account["step_time"]["seconds"].get<double>(), layout["step_seconds"].get<double>());
        QCOMPARE(account["step_time"]["mfu"].get<double>(), layout["mfu"].get<double>());
        QVERIFY(account["fits"].get<bool>());
    }
}

void TestCliPlan::thePlansOwnLineReproducesThePlan() {
    const nlohmann::json doc = cliJson(with(kGpt2On8, {"--top", "2", "--gpus-per-node", "4", "--json"}));
    const std::string line = doc["command"].get<std::string>();
    QVERIFY(line.starts_with("napkin-cli plan "));
    QVERIFY(line.find("--gpus-per-node 4") != std::string::npos);
    QCOMPARE(cliJson(words(line)), doc);
    for (const nlohmann::json& layout : doc["layouts"])
        QVERIFY(layout["layout"]["tp"].get<double>() <= 4);
}

void TestCliPlan::textNamesTheRankingAndYours() {
    const CliOutcome o = runCli(kGpt2On8);
    QCOMPARE(o.status, 0);
    QVERIFY(o.err.empty());
    for (const char* text : {"searched ", "#1  ", "#5  ", "slower than #1", "napkin-cli account ", "yours: #"})
        QVERIFY2(o.out.find(text) != std::string::npos, text);
}

// Llama 3 70B's model states alone are over a terabyte: two H100s hold no layout. An impossible setup is
// an answer, not an error: exit 0, what rules the candidates out, and the one that came nearest.
void TestCliPlan::nothingFitsExitsZeroWithWhy() {
    const std::vector<std::string> args = {"plan", "--model-preset", "llama3-70b", "--precision", "mixed-bf16",
                                           "--gpus", "2"};
    const nlohmann::json doc = cliJson(with(args, {"--json"}));
    QVERIFY(doc["layouts"].empty());
    QCOMPARE(doc["no_fit"]["most_common"]["reason"].get<std::string>(), std::string("memory"));
    QVERIFY(doc["no_fit"]["nearest"]["over_bytes"].get<double>() > 0);
    QVERIFY(doc["no_fit"]["nearest"]["command"].get<std::string>().starts_with("napkin-cli account "));
    QCOMPARE(doc["yours"]["status"].get<std::string>(), std::string("does_not_fit"));
    const CliOutcome text = runCli(args);
    QCOMPARE(text.status, 0);
    QVERIFY(text.out.find("no layout fits and is timed: memory rules out the most") != std::string::npos);
    QVERIFY(text.out.find("nearest: ") != std::string::npos);
}

void TestCliPlan::badInputExitsTwo_data() {
    QTest::addColumn<QStringList>("more");
    QTest::addColumn<QString>("names");
    QTest::newRow("top 0") << QStringList{"--top", "0"} << "--top";
    QTest::newRow("gpus per node 0") << QStringList{"--gpus-per-node", "0"} << "--gpus-per-node";
    QTest::newRow("gpus per node 2.5") << QStringList{"--gpus-per-node", "2.5"} << "--gpus-per-node";
    QTest::newRow("global batch 1.5") << QStringList{"--global-batch", "1.5"} << "--global-batch";
    QTest::newRow("a layout with no whole global batch") << QStringList{"--tp", "3"} << "--global-batch";
    QTest::newRow("unknown gpu") << QStringList{"--gpu", "Z9000"} << "--gpu";
    QTest::newRow("zero 7") << QStringList{"--zero", "7"} << "--zero";
    QTest::newRow("blank top") << QStringList{"--top", ""} << "--top";
}

void TestCliPlan::badInputExitsTwo() {
    QFETCH(QStringList, more);
    QFETCH(QString, names);
    std::vector<std::string> args = kGpt2On8;
    for (const QString& m : more)
        args.push_back(m.toStdString());
    const CliOutcome o = runCli(args);
    QCOMPARE(o.status, 2);
    QVERIFY(o.out.empty());
    QVERIFY2(o.err.find(names.toStdString()) != std::string::npos, o.err.c_str());
    QCOMPARE(std::count(o.err.begin(), o.err.end(), '\n'), 1);
}

void TestCliPlan::benchPlanReportsTimingAndCounts() {
    const nlohmann::json doc =
        cliJson({"bench", "plan", "--setup", "gpt2-small-8", "--repeats", "1", "--json"});
    QCOMPARE(doc["benchmark"].get<std::string>(), std::string("plan"));
    QCOMPARE(doc["target_seconds"].get<double>(), 0.05);
    QVERIFY(doc["seconds_median"].get<double>() > 0);
    QVERIFY(doc["same_counts_each_time"].get<bool>());
    QVERIFY(doc["counts"]["timed"].get<long long>() > 0);
    const CliOutcome unknown = runCli({"bench", "plan", "--setup", "nope"});
    QCOMPARE(unknown.status, 2);
    QVERIFY(unknown.err.find("--setup") != std::string::npos);
}

QTEST_APPLESS_MAIN(TestCliPlan)
#include "tst_cli_plan.moc"

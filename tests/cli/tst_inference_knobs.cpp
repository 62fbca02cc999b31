// SPDX-License-Identifier: GPL-3.0-or-later
// The serving knobs' table (engine/inference/inference_knobs.h) in every front end, from its one entry:
// napkin-cli infer takes each flag with its help, refuses a value outside the range naming the flag in the
// table's words (exit 2), prints a value it was given in the command line of its JSON, which reads back to
// the same command; a scenario file keeps each knob (null for an unset price), refuses a value out of range
// under "inference.<key>" in the same words, and opens every value the CLI accepts. Before the table the
// scenario file took a context up to 2^20 tokens, a batch up to 65,536 and 1,024 GPUs while napkin-cli took
// 1e8, 1e9 and 100,000: a long-context setup computed on the command line could not be opened in the app.
#include "engine/inference/inference_knobs.h"
#include "engine/scenario/scenario.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <cmath>
#include <map>
#include <set>
#include <sstream>

using namespace napkin;

namespace {

// A value inside each knob's range that Llama-3 8B (32 heads, 8 KV heads, d 4096) serves, not the default.
const std::map<std::string_view, double> kInside{
    {"context", 4096}, {"batch", 16}, {"group_size", 64}, {"gpus", 2}, {"price_per_gpu_hour", 2.5}};

std::vector<std::string> words(const std::string& line) { // the printer's words: no quoting needed here
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    out.erase(out.begin()); // napkin-cli
    return out;
}

std::string numberText(double v) {
    std::ostringstream s;
    s.precision(17);
    s << v;
    return s.str();
}

// napkin-cli infer on Llama-3 8B in int4 (so the group size counts) with `extra`, as JSON.
test::CliOutcome infer(std::vector<std::string> extra) {
    std::vector<std::string> args{"infer", "--model-preset", "llama3-8b", "--weights", "int4"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--json");
    return test::runCli(args);
}

} // namespace

class TestInferenceKnobs : public QObject {
    Q_OBJECT
private slots:
    void tableIsWellFormed() {
        std::set<std::string_view> keys, flags;
        const InferenceInput fresh = freshInferenceInput();
        for (const NumberKnob<InferenceInput>& f : inferenceKnobs()) {
            QVERIFY(keys.insert(f.key).second);
            QVERIFY(flags.insert(f.flag).second);
            QVERIFY(f.flag.starts_with("--"));
            QCOMPARE(int(f.value != nullptr) + int(f.optional != nullptr) + int(f.integer != nullptr), 1);
            QVERIFY(f.range.low < f.range.high);
            QVERIFY(!f.look.label.empty() && !f.look.tip.empty() && !f.help.empty());
            if (const std::optional<double> v = f.get(fresh))
                QVERIFY2(f.range.contains(*v), f.key.data()); // the page's fresh setup is accepted
            QVERIFY2(kInside.contains(f.key), f.key.data());
            QVERIFY(f.range.contains(kInside.at(f.key)));
        }
        QCOMPARE(inferenceKnob("gpus").flag, std::string_view("--gpus"));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, inferenceKnob("no such knob"));
    }

    void cliTakesEachKnob() {
        const test::CliOutcome help = test::runCli({"infer", "--help"});
        QCOMPARE(help.status, 0);
        for (const NumberKnob<InferenceInput>& f : inferenceKnobs()) {
            const std::string flag(f.flag), value = numberText(kInside.at(f.key));
            QVERIFY2(help.out.find(flag) != std::string::npos, flag.c_str());
            QVERIFY2(help.out.find(std::string(f.help)) != std::string::npos, f.help.data());
            // Given: in the printed command, which napkin-cli reads back to the same command.
            const test::CliOutcome o = infer({flag, value});
            QVERIFY2(o.status == 0, (flag + " " + value + " → " + o.err).c_str());
            const std::string line = nlohmann::json::parse(o.out)["command"].get<std::string>();
            QVERIFY2(line.find(flag + " " + value) != std::string::npos, line.c_str());
            const test::CliOutcome again = test::runCli(words(line));
            QVERIFY2(again.status == 0, (line + " → " + again.err).c_str());
            QCOMPARE(nlohmann::json::parse(again.out)["command"].get<std::string>(), line);
            // Out of range: one line naming the flag and the table's requirement, exit 2.
            const std::string outside = numberText(f.range.high * 2 + 1);
            const test::CliOutcome bad = infer({flag, outside});
            QCOMPARE(bad.status, 2);
            QVERIFY2(bad.err.find(flag) != std::string::npos &&
                         bad.err.find(f.range.requirement()) != std::string::npos,
                     bad.err.c_str());
        }
    }

    void scenarioKeepsEachKnob() {
        for (const NumberKnob<InferenceInput>& f : inferenceKnobs()) {
            const std::string key(f.key);
            Scenario s;
            s.inference.input.weights = WeightFormat::int4;
            f.set(s.inference.input, kInside.at(f.key));
            const ScenarioParse back = parseScenario(writeScenario(s));
            QVERIFY2(back.ok(), back.error.c_str());
            QCOMPARE(*f.get(back.scenario->inference.input), kInside.at(f.key));
            nlohmann::json doc = nlohmann::json::parse(writeScenario(s));
            QVERIFY(doc["inference"].contains(key));
            if (f.isOptional()) { // unset: null, and null reads back unset
                Scenario unset;
                f.set(unset.inference.input, std::nullopt);
                const nlohmann::json written = nlohmann::json::parse(writeScenario(unset));
                QVERIFY(written["inference"][key].is_null());
                QVERIFY(!f.get(parseScenario(written.dump()).scenario->inference.input));
            }
            doc["inference"][key] = f.range.high * 2 + 1;
            const ScenarioParse refused = parseScenario(doc.dump());
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error.find("inference." + key) != std::string::npos &&
                         refused.error.find(f.range.requirement()) != std::string::npos,
                     refused.error.c_str());
            if (f.range.whole) { // a fraction of a whole-number knob is refused, never cut
                doc["inference"][key] = kInside.at(f.key) + 0.5;
                QVERIFY(!parseScenario(doc.dump()).ok());
            }
        }
    }

    // What napkin-cli infer accounts, a scenario file holds: the largest value of each range opens (the
    // file took at most 2^20 tokens of context, a batch of 65,536 and 1,024 GPUs before the table).
    void scenarioOpensWhatTheCliAccounts_data() {
        QTest::addColumn<QString>("key");
        QTest::addColumn<double>("value");
        QTest::newRow("context 2e6 (past 2^20)") << "context" << 2e6;
        QTest::newRow("context 1e8") << "context" << 1e8;
        QTest::newRow("batch 1e6 (past 65,536)") << "batch" << 1e6;
        QTest::newRow("gpus 2048 (past 1,024): divides no head count, but in range") << "gpus" << 2048.0;
    }
    void scenarioOpensWhatTheCliAccounts() {
        QFETCH(QString, key);
        QFETCH(double, value);
        const NumberKnob<InferenceInput>& f = inferenceKnob(key.toStdString());
        QVERIFY(f.range.contains(value));
        Scenario s;
        nlohmann::json doc = nlohmann::json::parse(writeScenario(s));
        doc["inference"][key.toStdString()] = value;
        const ScenarioParse back = parseScenario(doc.dump());
        if (key == "gpus") { // in range, so the refusal is validation's rule, not the range's
            QVERIFY(!back.ok());
            QVERIFY2(back.error.find("must divide heads") != std::string::npos, back.error.c_str());
            return;
        }
        QVERIFY2(back.ok(), back.error.c_str());
        QCOMPARE(*f.get(back.scenario->inference.input), value);
    }
};

QTEST_GUILESS_MAIN(TestInferenceKnobs)
#include "tst_inference_knobs.moc"

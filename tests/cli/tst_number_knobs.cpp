// Each knob of a field table (engine/accounting/number_knob.h) in every front end, from its one entry:
// napkin-cli takes its flag with its help, validation refuses a value outside its range naming its field
// with the table's words (the CLI exits 2 with them), the command line Napkin prints names it when it is
// not the default and reads back to the same input, and a scenario file keeps it (null for an unset
// optional knob) and refuses a value out of range. A knob added to a table is checked here with no new line.
#include "engine/accounting/accounting.h"
#include "engine/accounting/run_cost_knobs.h"
#include "engine/report/cli_command_line.h"
#include "engine/scenario/scenario.h"
#include "tests/support/cli_outcome.h"

#include <nlohmann/json.hpp>

#include <QtTest>

#include <set>
#include <sstream>

using namespace napkin;

namespace {

std::vector<std::string> words(std::string line) { // the printer's words: numbers need no quoting
    std::vector<std::string> out;
    std::istringstream in(line);
    for (std::string w; in >> w;)
        out.push_back(w);
    out.erase(out.begin()); // napkin-cli
    return out;
}

// A value inside the range other than the default: the middle, or for an open low bound just above it.
double inside(const NumberRange& r) {
    return r.high > 100 ? 2.5 : (r.low + r.high) / 2;
}

} // namespace

class TestNumberKnobs : public QObject {
    Q_OBJECT
private slots:
    void tableIsWellFormed() {
        std::set<std::string_view> keys, flags;
        const RunCostInput defaults;
        for (const auto& f : runCostKnobs()) {
            QVERIFY(keys.insert(f.key).second);
            QVERIFY(flags.insert(f.flag).second);
            QVERIFY(f.flag.starts_with("--"));
            QVERIFY((f.value == nullptr) != (f.optional == nullptr)); // one member, plain or optional
            QVERIFY(f.range.low < f.range.high);
            if (const auto v = f.get(defaults))
                QVERIFY2(f.range.contains(*v), f.key.data()); // the default is accepted
            QVERIFY(!f.look.label.empty() && !f.look.tip.empty() && !f.help.empty());
        }
    }

    void cliTakesEachFlag() {
        const test::CliOutcome help = test::runCli({"account", "--help"});
        QCOMPARE(help.status, 0);
        for (const auto& f : runCostKnobs()) {
            QVERIFY2(help.out.find(std::string(f.flag)) != std::string::npos, f.flag.data());
            QVERIFY2(help.out.find(std::string(f.help)) != std::string::npos, f.help.data());
            // A value inside: in the document's input as used and in the command it prints.
            AccountingInput in = freshAccountingInput(); // a dense 1e9-parameter model
            in.gpus = 8;
            f.set(in.cost, inside(f.range));
            const std::string line = accountCommandLine(in);
            QVERIFY2(line.find(std::string(f.flag) + " ") != std::string::npos, line.c_str());
            const test::CliOutcome o = test::runCli(words(line));
            QVERIFY2(o.status == 0, (line + " → " + o.err).c_str());
            QCOMPARE(QString::fromStdString(nlohmann::json::parse(o.out)["command"].get<std::string>()),
                     QString::fromStdString(line));
            // Out of range: one line naming the flag and the table's requirement, exit 2.
            const std::string outside = std::to_string(f.range.high * 2 + 1);
            const test::CliOutcome bad =
                test::runCli({"account", "--preset", "gpt2-small", std::string(f.flag), outside});
            QCOMPARE(bad.status, 2);
            QVERIFY2(bad.err.find(std::string(f.flag)) != std::string::npos &&
                         bad.err.find(f.range.requirement()) != std::string::npos,
                     bad.err.c_str());
        }
    }

    void scenarioKeepsEachKnob() {
        for (const auto& f : runCostKnobs()) {
            Scenario s;
            f.set(s.accounting.input.cost, inside(f.range));
            const ScenarioParse back = parseScenario(writeScenario(s));
            QVERIFY2(back.ok(), back.error.c_str());
            QCOMPARE(*f.get(back.scenario->accounting.input.cost), inside(f.range));
            nlohmann::json doc = nlohmann::json::parse(writeScenario(s));
            QVERIFY(doc["accounting"]["cost"].contains(std::string(f.key)));
            if (f.isOptional()) { // unset: null, and null reads back unset
                QVERIFY(doc["accounting"]["cost"][std::string(f.key)] == nlohmann::json(nullptr) ||
                        f.get(s.accounting.input.cost));
                Scenario unset;
                f.set(unset.accounting.input.cost, std::nullopt);
                const nlohmann::json written = nlohmann::json::parse(writeScenario(unset));
                QVERIFY(written["accounting"]["cost"][std::string(f.key)].is_null());
                QVERIFY(!f.get(parseScenario(written.dump()).scenario->accounting.input.cost));
            }
            doc["accounting"]["cost"][std::string(f.key)] = f.range.high * 2 + 1;
            const ScenarioParse refused = parseScenario(doc.dump());
            QVERIFY(!refused.ok());
            QVERIFY2(refused.error.find("accounting.cost." + std::string(f.key)) != std::string::npos &&
                         refused.error.find(f.range.requirement()) != std::string::npos,
                     refused.error.c_str());
        }
    }
};

QTEST_APPLESS_MAIN(TestNumberKnobs)
#include "tst_number_knobs.moc"

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/drill_command.h"

#include "cli/enum_option.h"
#include "cli/number_option.h"
#include "cli/option_policy.h"
#include "engine/drills/drill_answer.h"
#include "engine/drills/drill_json.h"
#include "engine/drills/drill_set.h"
#include "engine/numerics/quantity_format.h"
#include "engine/report/json_values.h"

#include <CLI/CLI.hpp>

#include <chrono>
#include <memory>
#include <ostream>

namespace napkin::cli {
namespace {

struct DrillOptions {
    std::string topic;
    std::uint64_t seed = 0;
    int count = 5;
    bool json = false;
    std::vector<std::string> answers;
};

void printQuestion(std::ostream& out, std::size_t i, const DrillQuestion& q) {
    out << i + 1 << ". [" << drillTopicName(q.topic) << "] " << q.text << '\n';
}

void printAnswer(std::ostream& out, std::size_t i, const DrillQuestion& q) {
    out << i + 1 << ". " << q.answerText;
    if (q.relativeTolerance > 0)
        out << "  (right within " << formatNumber(q.relativeTolerance * 100) << " %)";
    out << "  — page: " << scenarioPageName(q.page) << '\n';
    std::size_t start = 0;
    while (start <= q.formula.size()) {
        const std::size_t end = q.formula.find('\n', start);
        out << "     " << q.formula.substr(start, end == std::string::npos ? std::string::npos : end - start)
            << '\n';
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
}

int execute(const DrillOptions& o, std::ostream& out) {
    std::optional<DrillTopic> topic;
    if (!o.topic.empty())
        topic = drillTopicFromName(o.topic);
    if (o.answers.size() > static_cast<std::size_t>(o.count))
        throw UsageError("--answer: " + std::to_string(o.answers.size()) + " answers for " +
                         std::to_string(o.count) + " questions; give at most one per question, in order");
    const std::vector<DrillQuestion> questions = generateDrills(o.seed, o.count, topic);
    std::vector<DrillVerdict> verdicts;
    for (std::size_t i = 0; i < o.answers.size(); ++i) {
        verdicts.push_back(checkDrillAnswer(questions[i], o.answers[i]));
        if (!verdicts.back().guess.ok())
            throw UsageError("--answer " + std::to_string(i + 1) + ": " + verdicts.back().guess.error);
    }
    if (o.json) {
        nlohmann::json doc = drillDocumentJson(o.seed, topic, questions);
        for (std::size_t i = 0; i < verdicts.size(); ++i)
            doc["questions"][i]["verdict"] = drillVerdictJson(o.answers[i], verdicts[i]);
        out << jsonText(doc);
        return 0;
    }
    out << "napkin-math drill, seed " << o.seed << " (the same questions again: --seed " << o.seed << ")\n\n";
    for (std::size_t i = 0; i < questions.size(); ++i) {
        printQuestion(out, i, questions[i]);
        if (i < verdicts.size())
            out << "   you said " << o.answers[i] << ": " << verdicts[i].summary << '\n';
    }
    out << "\nAnswers\n";
    for (std::size_t i = 0; i < questions.size(); ++i)
        printAnswer(out, i, questions[i]);
    return 0;
}

} // namespace

Command addDrillCommand(CLI::App& parent) {
    auto o = std::make_shared<DrillOptions>();
    CLI::App* cmd = parent.add_subcommand(
        "drill", "Napkin-math questions with fresh numbers; the engine's answers, formulas and pages");
    const std::vector<std::string> topics = enumNames(allDrillTopics(), drillTopicName);
    cmd->add_option("--topic", o->topic,
                    "one topic (default: every topic in turn): " + joinNames(topics, ", "))
        ->check(CLI::IsMember(topics));
    CLI::Option* seed =
        addSeedOption(*cmd, "--seed", o->seed, "seed of the questions (default: from the clock; printed)");
    cmd->add_option("--count", o->count, "questions (default 5)")->check(CLI::Range(1, 1000));
    cmd->add_option(
        "--answer", o->answers,
        "check an answer to the next question, with units (\"2.5 GB\", \"2.33 GiB\", \"40B\", \"144 days\", "
        "\"copy\"); repeat for the questions in order");
    cmd->add_flag("--json", o->json, "print one JSON document");
    return {cmd, [o, seed](std::ostream& out, std::ostream&) {
                if (seed->count() == 0)
                    o->seed = static_cast<std::uint64_t>(
                        std::chrono::system_clock::now().time_since_epoch().count() & 0x7fffffff);
                return execute(*o, out);
            }};
}

} // namespace napkin::cli

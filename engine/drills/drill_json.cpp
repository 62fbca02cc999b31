// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_json.h"

#include <string>

namespace napkin {
namespace {

using nlohmann::json;

// Whole numbers below 2^53 as integers, as every Napkin document writes them (json_values.h).
json number(double value) {
    if (value == static_cast<double>(static_cast<std::int64_t>(value)) && value < 9007199254740992.0 &&
        value > -9007199254740992.0)
        return static_cast<std::int64_t>(value);
    return value;
}

json lines(const std::string& text) {
    json out = json::array();
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = text.find('\n', start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        if (end == std::string::npos)
            break;
        start = end + 1;
    }
    return out;
}

} // namespace

json drillQuestionJson(const DrillQuestion& q) {
    json parameters = json::object();
    for (const DrillParameter& p : q.parameters) {
        if (p.isList) {
            json list = json::array();
            for (double v : p.list)
                list.push_back(number(v));
            parameters[p.name] = list;
        } else if (p.number) {
            parameters[p.name] = number(*p.number);
        } else {
            parameters[p.name] = p.text;
        }
    }
    json doc = {{"topic", std::string(drillTopicName(q.topic))},
                {"kind", q.kind},
                {"text", q.text},
                {"unit", std::string(drillUnitName(q.unit))},
                {"answer", number(q.answer)},
                {"answer_text", q.answerText},
                {"relative_tolerance", number(q.relativeTolerance)},
                {"formula", lines(q.formula)},
                {"page", std::string(scenarioPageName(q.page))},
                {"setup", json::parse(q.setupJson)},
                {"parameters", parameters}};
    if (q.unit == DrillUnit::choice)
        doc["choices"] = q.choices;
    return doc;
}

json drillDocumentJson(std::uint64_t seed, std::optional<DrillTopic> topic,
                       const std::vector<DrillQuestion>& questions) {
    json list = json::array();
    for (const DrillQuestion& q : questions)
        list.push_back(drillQuestionJson(q));
    return {{"format", "napkin-drill"},
            {"version", 1},
            {"seed", seed},
            {"topic", topic ? json(std::string(drillTopicName(*topic))) : json(nullptr)},
            {"count", questions.size()},
            {"questions", list}};
}

json drillVerdictJson(std::string_view given, const DrillVerdict& v) {
    return {{"answer_given", std::string(given)},
            {"read", v.guess.ok()},
            {"error", v.guess.ok() ? json(nullptr) : json(v.guess.error)},
            {"value", v.guess.ok() ? number(v.guess.value) : json(nullptr)},
            {"correct", v.correct},
            {"ratio", v.ratio == 0 ? json(nullptr) : json(v.ratio)},
            {"orders_of_magnitude", v.ratio == 0 ? json(nullptr) : json(v.ordersOfMagnitude)},
            {"summary", v.summary}};
}

} // namespace napkin

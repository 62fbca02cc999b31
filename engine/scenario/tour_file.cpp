// SPDX-License-Identifier: GPL-3.0-or-later
// The tour file format (tour_file.h): read with the scenario loader's rules, each step's edit judged by
// the scenario loader itself.
#include "engine/scenario/tour_file.h"

#include "engine/io/bounded_file_read.h"
#include "engine/text/json_nesting.h"
#include "engine/scenario/scenario_section.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <set>

namespace napkin {
namespace {

using nlohmann::json;

constexpr std::array<std::string_view, 10> kAnswerFields{
    "training-time",   // accounting: 6·N·T ÷ (GPUs × peak × MFU) in days
    "largest-model",   // accounting: capacity × GPUs ÷ bytes per parameter
    "dtype-underflow", // formats: the value stored in fp16 and in bf16
    "storage-offset",  // tensor: where x[1, 2] lies in storage
    "view-error",      // tensor: the step that fails, and why
    "matmul-flops",    // accounting: forward and backward FLOPs of a step
    "flops-per-token", // accounting: 6N per token
    "mfu",             // benchmarks: what MFU means on the GPU
    "memory-total",    // accounting: the bytes of a step, part by part
    "step-time"};      // accounting: the predicted step and its MFU (engine/steptime)

struct Refusal {
    std::string message;
};

std::string stepPath(std::size_t i, std::string_view key) {
    return "steps[" + std::to_string(i) + "]." + std::string(key);
}

const std::string& stringAt(const json& object, std::string_view key, const std::string& path, bool required,
                            const std::string& fallback) {
    const auto it = object.find(key);
    if (it == object.end()) {
        if (required)
            throw Refusal{path + ": missing"};
        return fallback;
    }
    if (!it->is_string())
        throw Refusal{path + ": must be a string"};
    return it->get_ref<const std::string&>();
}

void warnUnknownKeys(const json& object, std::initializer_list<std::string_view> known,
                     const std::string& prefix, std::vector<std::string>& warnings) {
    for (const auto& [key, value] : object.items())
        if (std::find(known.begin(), known.end(), key) == known.end())
            warnings.push_back(prefix + key + ": unknown key, ignored");
}

// A patch of the scenario file ("base", a step's "edit"): an object that leaves the file's format alone.
std::string readPatch(const json& patch, const std::string& path) {
    if (!patch.is_object())
        throw Refusal{path + ": must be an object (a patch of the scenario file)"};
    for (std::string_view fixed : {"format", "version"})
        if (patch.contains(fixed))
            throw Refusal{path + ": cannot change the scenario's \"" + std::string(fixed) + "\""};
    return patch.dump();
}

// `base` as a scenario file with `patch` merged into it, read back by the scenario loader.
std::optional<Scenario> merged(const Scenario& base, const std::string& patchJson,
                               std::optional<ScenarioPage> page, std::string* error) {
    json doc = json::parse(writeScenario(base));
    json patch;
    try {
        patch = json::parse(patchJson);
    } catch (const json::exception&) {
        if (error)
            *error = "not valid JSON";
        return std::nullopt;
    }
    doc.merge_patch(patch);
    if (page)
        doc["page"] = std::string(scenarioPageName(*page));
    doc["format"] = "napkin-scenario";
    doc["version"] = kScenarioFormatVersion;
    ScenarioParse parsed = parseScenario(doc.dump());
    if (!parsed.ok()) {
        if (error)
            *error = parsed.error;
        return std::nullopt;
    }
    return parsed.scenario;
}

TourStep readStep(const json& s, std::size_t i, const Scenario& base, std::set<std::string>& ids,
                  std::vector<std::string>& warnings) {
    if (!s.is_object())
        throw Refusal{"steps[" + std::to_string(i) + "]: must be an object"};
    warnUnknownKeys(s, {"id", "page", "question", "edit", "answer", "notes"},
                    "steps[" + std::to_string(i) + "].", warnings);
    static const std::string empty;
    TourStep step;
    step.id = stringAt(s, "id", stepPath(i, "id"), false, empty);
    if (!step.id.empty() && !ids.insert(step.id).second)
        throw Refusal{stepPath(i, "id") + ": \"" + step.id.substr(0, 40) + "\" is used by an earlier step"};
    const std::string& page = stringAt(s, "page", stepPath(i, "page"), true, empty);
    const auto known = scenarioPageFromName(page);
    if (!known)
        throw Refusal{stepPath(i, "page") + ": unknown page \"" + page.substr(0, 40) + "\""};
    step.page = *known;
    step.question = stringAt(s, "question", stepPath(i, "question"), true, empty);
    if (step.question.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Refusal{stepPath(i, "question") + ": empty; a step asks something"};
    step.answer = stringAt(s, "answer", stepPath(i, "answer"), false, empty);
    if (!step.answer.empty() &&
        std::find(kAnswerFields.begin(), kAnswerFields.end(), step.answer) == kAnswerFields.end())
        throw Refusal{stepPath(i, "answer") + ": unknown answer field \"" + step.answer.substr(0, 40) + "\""};
    step.notes = stringAt(s, "notes", stepPath(i, "notes"), false, empty);
    if (const auto edit = s.find("edit"); edit != s.end())
        step.editJson = readPatch(*edit, stepPath(i, "edit"));
    std::string why;
    if (!applyTourStep(base, step, &why))
        throw Refusal{stepPath(i, "edit") + ": " + why};
    return step;
}

} // namespace

std::span<const std::string_view> tourAnswerFields() {
    return kAnswerFields;
}

TourParse parseTour(std::string_view text) {
    TourParse result;
    if (text.size() > kTourMaxBytes) {
        result.error = "the file is larger than 1 MiB; a tour is a few tens of kilobytes";
        return result;
    }
    if (jsonNestingDepth(text, kTourMaxDepth) > kTourMaxDepth) {
        result.error = "nested deeper than " + std::to_string(kTourMaxDepth) + " levels; a tour nests 7 deep";
        return result;
    }
    std::optional<json> parsed = scenario_detail::parseJsonText(text, result.error);
    if (!parsed)
        return result;
    json& root = *parsed;
    if (!root.is_object() || !root.contains("format") || root["format"] != "napkin-tour") {
        result.error = "not a Napkin tour: \"format\" must be \"napkin-tour\"";
        return result;
    }
    const auto version = root.find("version");
    if (version == root.end() || !version->is_number_integer()) {
        result.error = "\"version\" is missing or not a whole number";
        return result;
    }
    if (version->is_number_unsigned() ? version->get<std::uint64_t>() > kTourFormatVersion
                                      : version->get<long long>() > kTourFormatVersion) {
        result.error = "written by a newer Napkin (tour format version " + version->dump() +
                       "); this one reads version " + std::to_string(kTourFormatVersion);
        return result;
    }
    if (version->get<long long>() < 1) {
        result.error = "\"version\" must be 1 or more, found " + version->dump();
        return result;
    }
    try {
        warnUnknownKeys(root, {"format", "version", "title", "base", "steps"}, "", result.warnings);
        static const std::string empty;
        Tour tour;
        tour.title = stringAt(root, "title", "title", false, empty);
        if (const auto base = root.find("base"); base != root.end())
            tour.baseJson = readPatch(*base, "base");
        std::string why;
        const std::optional<Scenario> base = tourBase(tour, &why);
        if (!base)
            throw Refusal{"base: " + why};
        const auto steps = root.find("steps");
        if (steps == root.end() || !steps->is_array())
            throw Refusal{"steps: missing or not a list"};
        if (steps->empty())
            throw Refusal{"steps: empty; a tour has at least one step"};
        if (steps->size() > kTourMaxSteps)
            throw Refusal{"steps: " + std::to_string(steps->size()) + " steps; at most " +
                          std::to_string(kTourMaxSteps)};
        std::set<std::string> ids;
        for (std::size_t i = 0; i < steps->size(); ++i)
            tour.steps.push_back(readStep((*steps)[i], i, *base, ids, result.warnings));
        result.tour = std::move(tour);
    } catch (const Refusal& refusal) {
        result.error = refusal.message;
        result.warnings.clear();
    }
    return result;
}

TourParse readTourFile(const std::string& path) {
    const BoundedFileRead file = readBoundedFile(path, kTourMaxBytes);
    if (!file.ok()) {
        TourParse refused;
        refused.error = file.error;
        return refused;
    }
    TourParse parsed = parseTour(file.bytes);
    if (!parsed.ok())
        parsed.error = path + ": " + parsed.error;
    return parsed;
}

std::string writeTour(const Tour& tour) {
    // In reading order (format first, each step's question before its edit), unlike json's sorted keys.
    using ordered = nlohmann::ordered_json;
    ordered steps = ordered::array();
    for (const TourStep& s : tour.steps) {
        ordered step = ordered::object();
        if (!s.id.empty())
            step["id"] = s.id;
        step["page"] = std::string(scenarioPageName(s.page));
        step["question"] = s.question;
        if (!s.answer.empty())
            step["answer"] = s.answer;
        if (!s.notes.empty())
            step["notes"] = s.notes;
        step["edit"] = ordered::parse(s.editJson);
        steps.push_back(std::move(step));
    }
    ordered root = ordered::object();
    root["format"] = "napkin-tour";
    root["version"] = kTourFormatVersion;
    root["title"] = tour.title;
    if (tour.baseJson != "{}")
        root["base"] = ordered::parse(tour.baseJson);
    root["steps"] = std::move(steps);
    return root.dump(2) + "\n";
}

std::optional<Scenario> applyTourStep(const Scenario& base, const TourStep& step, std::string* error) {
    return merged(base, step.editJson, step.page, error);
}

std::optional<Scenario> tourBase(const Tour& tour, std::string* error) {
    return merged(Scenario{}, tour.baseJson, std::nullopt, error);
}

std::optional<Scenario> tourStepScenario(const Tour& tour, std::size_t index, std::string* error) {
    if (index >= tour.steps.size()) {
        if (error)
            *error = "no step " + std::to_string(index);
        return std::nullopt;
    }
    const std::optional<Scenario> base = tourBase(tour, error);
    return base ? applyTourStep(*base, tour.steps[index], error) : std::nullopt;
}

TourStep recordTourStep(const Scenario& scenario, std::string question, std::string answer) {
    const json doc = json::parse(writeScenario(scenario));
    const std::string section(scenarioPageName(scenario.page));
    TourStep step;
    step.page = scenario.page;
    step.question = std::move(question);
    step.answer = std::move(answer);
    json edit = json::object();
    if (doc.contains(section))
        edit[section] = doc[section];
    step.editJson = edit.dump();
    return step;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to the scenario loader (scenario*.cpp): one JSON object of the file with typed, range-checked
// getters whose refusals name the field's dotted path. Not part of the engine's interface.
#include "engine/text/printable_text.h"
#include "engine/scenario/control_ranges.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin::scenario_detail {

using json = nlohmann::json;

/// Thrown inside the loader only; parseScenario turns it into ScenarioParse::error.
struct Refusal {
    std::string message;
};

/// `text` parsed as JSON, or nullopt with `error` set to "not valid JSON: …" (nlohmann's message without
/// its "[json.exception.parse_error.101]" tag; out_of_range for a number such as 1e999 included): the
/// words a scenario file and a tour file are refused with.
inline std::optional<json> parseJsonText(std::string_view text, std::string& error) {
    try {
        return json::parse(text);
    } catch (const json::exception& e) {
        const std::string what = e.what();
        const auto tagEnd = what.find("] ");
        error = "not valid JSON: " + (tagEnd == std::string::npos ? what : what.substr(tagEnd + 2));
        return std::nullopt;
    }
}

/// Longest text a scenario field may hold (expressions, shapes, sizes): far above any real one.
inline constexpr std::size_t kMaxText = 4096;

/// One JSON object of the file and its dotted path ("accounting.model"), with typed, range-checked
/// getters that leave the target untouched when the key is absent.
class Section {
public:
    Section(const json& object, std::string path, std::vector<std::string>& warnings)
        : m_object(object)
        , m_path(std::move(path))
        , m_warnings(warnings) {}

    /// Warns about keys that are not in `known` (a newer minor addition, or a typo), and goes on.
    void expectKeys(std::initializer_list<std::string_view> known) const {
        expectKeys(std::span<const std::string_view>(known.begin(), known.size()));
    }

    void expectKeys(std::span<const std::string_view> known) const {
        for (const auto& [key, value] : m_object.items())
            if (std::find(known.begin(), known.end(), key) == known.end())
                m_warnings.push_back(where(key) + ": unknown key, ignored");
    }

    const json* find(const char* key) const {
        const auto it = m_object.find(key);
        return it == m_object.end() ? nullptr : &*it;
    }

    void number(const char* key, double& target, double minimum, double maximum) const {
        const json* v = find(key);
        if (!v)
            return;
        if (!v->is_number())
            refuse(key, "must be a number");
        const double x = v->get<double>();
        if (!std::isfinite(x) || x < minimum || x > maximum)
            refuse(key, "must be from " + formatPlain(minimum) + " to " + formatPlain(maximum));
        target = x;
    }

    void number(const char* key, double& target, ControlRange range) const {
        number(key, target, range.minimum, range.maximum);
    }

    /// A count held in a double (the model's sizes): in range and whole.
    void wholeNumber(const char* key, double& target, ControlRange range) const {
        number(key, target, range);
        if (target != std::floor(target))
            refuse(key, "must be a whole number");
    }

    void whole(const char* key, long& target, ControlRange range) const {
        whole(key, target, static_cast<long>(range.minimum), static_cast<long>(range.maximum));
    }

    void whole(const char* key, long& target, long minimum, long maximum) const {
        double x = static_cast<double>(target);
        number(key, x, static_cast<double>(minimum), static_cast<double>(maximum));
        if (x != std::floor(x))
            refuse(key, "must be a whole number");
        target = static_cast<long>(x);
    }

    void boolean(const char* key, bool& target) const {
        const json* v = find(key);
        if (!v)
            return;
        if (!v->is_boolean())
            refuse(key, "must be true or false");
        target = v->get<bool>();
    }

    void text(const char* key, std::string& target) const {
        const json* v = find(key);
        if (!v)
            return;
        if (!v->is_string())
            refuse(key, "must be a string");
        const auto& s = v->get_ref<const std::string&>();
        if (s.size() > kMaxText)
            refuse(key, "is longer than " + std::to_string(kMaxText) + " characters");
        target = s;
    }

    /// A name that `fromName` knows; the message lists what was found.
    template <typename T, typename FromName> void name(const char* key, T& target, FromName fromName) const {
        std::string s;
        text(key, s);
        if (!find(key))
            return;
        const auto parsed = fromName(s);
        if (!parsed)
            refuse(key, "unknown value '" + printable(s) + "'");
        target = *parsed;
    }

    /// The nested object `key`, or nullopt when absent; refuses a non-object.
    std::optional<Section> child(const char* key) const {
        const json* v = find(key);
        if (!v)
            return std::nullopt;
        if (!v->is_object())
            refuse(key, "must be an object");
        return Section(*v, where(key), m_warnings);
    }

    [[noreturn]] void refuse(const char* key, const std::string& why) const {
        throw Refusal{where(key) + ": " + why};
    }

private:
    std::string where(std::string_view key) const {
        return m_path.empty() ? printable(key) : m_path + "." + printable(key);
    }

    static std::string formatPlain(double x) {
        // Whole bounds as the spin boxes show them ("from 1 to 512", not "1.0 to 512.0").
        if (x == std::floor(x) && std::fabs(x) < 1e9)
            return std::to_string(static_cast<long long>(x));
        json j = x; // shortest round-trip text, "1e+13" style for large values
        return j.dump();
    }

    const json& m_object;
    std::string m_path;
    std::vector<std::string>& m_warnings;
};

} // namespace napkin::scenario_detail

namespace napkin {
struct MemoryOverheadSettings;
struct ModelSpec;
struct InferenceScenario;
struct RooflineScenario;
struct TrainingScenario;
} // namespace napkin

namespace napkin::scenario_detail {

/// The "training" section (scenario_training.cpp).
void readTraining(const Section& s, napkin::TrainingScenario& t);
/// The "roofline" section, read and written (scenario_roofline.cpp).
void readRoofline(const Section& s, napkin::RooflineScenario& r);
json rooflineJson(const napkin::RooflineScenario& r);

/// The model's architecture keys, shared by accounting.model and inference.model (scenario_model.cpp):
/// their names, read (absent keys keep the target's values) and written into `object`.
std::span<const std::string_view> architectureKeys();
void readArchitecture(const Section& m, napkin::ModelSpec& model);
void writeArchitecture(const napkin::ModelSpec& model, json& object);
/// A transformer's sizes (d_model, layers, heads, vocab, seq, ffn_mult) and architecture: inference.model.
void readTransformerModel(const Section& m, napkin::ModelSpec& model);
json transformerModelJson(const napkin::ModelSpec& model);

/// accounting.overheads, the overhead ledger's settings (scenario_overheads.cpp), read and written. A file
/// without it was saved before the ledger existed and meant the datasheet basis.
void readOverheads(const Section& s, napkin::MemoryOverheadSettings& settings);
json overheadsJson(const napkin::MemoryOverheadSettings& settings);

/// The "inference" section (scenario_inference.cpp), read and written.
void readInference(const Section& s, napkin::InferenceScenario& i);
json inferenceJson(const napkin::InferenceScenario& i);

} // namespace napkin::scenario_detail

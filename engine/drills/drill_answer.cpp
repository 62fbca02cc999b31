// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/drills/drill_answer.h"

#include "engine/numerics/number_parse.h"
#include "engine/numerics/quantity_format.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <optional>

namespace napkin {
namespace {

struct UnitWord {
    std::string_view word;
    double scale; ///< the word's value in the unit's base
};

constexpr std::array<UnitWord, 3> kBytes{{{"bytes", 1}, {"byte", 1}, {"B", 1}}};
constexpr std::array<UnitWord, 5> kFlops{
    {{"FLOPs", 1}, {"FLOPS", 1}, {"flops", 1}, {"FLOP", 1}, {"flop", 1}}};
constexpr std::array<UnitWord, 20> kDays{{{"seconds", 1 / 86400.0},
                                          {"second", 1 / 86400.0},
                                          {"sec", 1 / 86400.0},
                                          {"s", 1 / 86400.0},
                                          {"minutes", 1 / 1440.0},
                                          {"minute", 1 / 1440.0},
                                          {"min", 1 / 1440.0},
                                          {"hours", 1 / 24.0},
                                          {"hour", 1 / 24.0},
                                          {"h", 1 / 24.0},
                                          {"days", 1},
                                          {"day", 1},
                                          {"d", 1},
                                          {"weeks", 7},
                                          {"week", 7},
                                          {"months", 365.25 / 12},
                                          {"month", 365.25 / 12},
                                          {"years", 365.25},
                                          {"year", 365.25},
                                          {"y", 365.25}}};
constexpr std::array<UnitWord, 4> kParameters{
    {{"parameters", 1}, {"parameter", 1}, {"params", 1}, {"param", 1}}};
constexpr std::array<UnitWord, 2> kElements{{{"elements", 1}, {"element", 1}}};
// Spelled-out multipliers, read as napkin's suffixes.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kScaleWords{
    {{"thousand", "k"}, {"million", "M"}, {"billion", "B"}, {"trillion", "T"}}};

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '~'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '.'))
        s.remove_suffix(1);
    return s;
}

bool isLetter(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// The unit word `text` ends in, if any: the longest match, which must not be the tail of a longer word
// ("days" is not "s"). Returns its scale and strips it.
template <std::size_t N>
std::optional<double> stripUnit(std::string_view& text, const std::array<UnitWord, N>& words) {
    const UnitWord* best = nullptr;
    for (const UnitWord& w : words) {
        if (text.size() < w.word.size() || text.substr(text.size() - w.word.size()) != w.word)
            continue;
        if (!best || w.word.size() > best->word.size())
            best = &w;
    }
    if (!best)
        return std::nullopt;
    text.remove_suffix(best->word.size());
    return best->scale;
}

// "2.5 G" → "2.5G": a scale letter may stand apart from its number, as in "2.5 GB" once B is gone.
std::string joinScale(std::string_view text) {
    std::string s(trim(text));
    std::size_t letters = s.size();
    while (letters > 0 && isLetter(s[letters - 1]))
        --letters;
    if (letters == s.size() || letters == 0)
        return s;
    std::size_t number = letters;
    while (number > 0 && s[number - 1] == ' ')
        --number;
    return s.substr(0, number) + s.substr(letters);
}

std::optional<double> readNumber(std::string_view text, std::string& why) {
    std::string s = joinScale(text);
    for (const auto& [word, suffix] : kScaleWords)
        if (s.size() > word.size() && s.substr(s.size() - word.size()) == word)
            s = joinScale(s.substr(0, s.size() - word.size()).append(suffix));
    // A power: 2^-10, 2**-10.
    std::size_t caret = s.find('^'), width = 1;
    if (caret == std::string::npos) {
        caret = s.find("**");
        width = 2;
    }
    if (caret != std::string::npos) {
        const ParsedNumber base = parseNumber(s.substr(0, caret)),
                           exponent = parseNumber(s.substr(caret + width));
        if (!base.ok() || !exponent.ok()) {
            why = "a power reads as 2^-10";
            return std::nullopt;
        }
        const double value = std::pow(base.value, exponent.value);
        if (!std::isfinite(value)) {
            why = "that power is not a finite number";
            return std::nullopt;
        }
        return value;
    }
    const ParsedNumber parsed = parseNumber(s);
    if (!parsed.ok()) {
        // The parser's own examples ("70e9, 15T or 1.5B") are a parameter count's; the refusal gives the
        // question's unit's instead (examples()), so only a specific reason ("unexpected 'x'") is kept.
        const bool generic = parsed.error.find("expected") != std::string::npos;
        why = generic ? std::string() : parsed.error;
        return std::nullopt;
    }
    return parsed.value;
}

std::string_view examples(DrillUnit unit) {
    switch (unit) {
    case DrillUnit::bytes:
        return "2.5 GB, 2.5e9, 2.33 GiB";
    case DrillUnit::flops:
        return "6.3e24, 2 TFLOPs";
    case DrillUnit::days:
        return "144 days, 3 weeks, 1.2e7 s";
    case DrillUnit::parameters:
        return "40B, 40e9, 40 billion";
    case DrillUnit::elements: // a storage offset or a tensor's count ("17" alone read as the answer's hint)
        return "6 elements, 1024, 4K";
    case DrillUnit::number:
        return "65504, 3.39e38, 2^-10";
    case DrillUnit::choice:
        return "view or copy";
    }
    return "";
}

DrillGuess refuse(std::string_view text, DrillUnit unit, const std::string& why) {
    DrillGuess g;
    const std::string_view unitName = unit == DrillUnit::flops ? "FLOPs" : drillUnitName(unit);
    g.error = "cannot read '" + std::string(text.substr(0, 40)) + "' as " +
              (unit == DrillUnit::number ? std::string("a number") : "a number of " + std::string(unitName)) +
              (why.empty() ? "" : " (" + why + ")") + "; try " + std::string(examples(unit));
    return g;
}

} // namespace

DrillGuess parseDrillGuess(std::string_view text, DrillUnit unit, const std::vector<std::string>& choices) {
    std::string_view s = trim(text);
    if (unit == DrillUnit::choice) {
        std::string lower(s);
        for (char& c : lower)
            if (c >= 'A' && c <= 'Z')
                c = static_cast<char>(c - 'A' + 'a');
        for (std::size_t i = 0; i < choices.size(); ++i)
            if (lower == choices[i] || (lower.size() == 1 && lower[0] == choices[i][0]) ||
                (lower == "free" && choices[i] == "view"))
                return {static_cast<double>(i), {}};
        std::string names;
        for (const std::string& c : choices)
            names += (names.empty() ? "" : " or ") + c;
        DrillGuess g;
        g.error = "answer " + names + ", not '" + std::string(s.substr(0, 40)) + "'";
        return g;
    }
    std::optional<double> scale;
    switch (unit) {
    case DrillUnit::bytes:
        scale = stripUnit(s, kBytes);
        break;
    case DrillUnit::flops:
        scale = stripUnit(s, kFlops);
        break;
    case DrillUnit::days:
        scale = stripUnit(s, kDays); // "1.2Ms" leaves "1.2M", a scaled number; "5 fortnights" fails below
        break;
    case DrillUnit::parameters:
        scale = stripUnit(s, kParameters);
        break;
    case DrillUnit::elements:
        scale = stripUnit(s, kElements);
        break;
    case DrillUnit::number:
    case DrillUnit::choice:
        break;
    }
    std::string why;
    const std::optional<double> number = readNumber(s, why);
    if (!number)
        return refuse(text, unit, why);
    const double value = *number * scale.value_or(1.0);
    if (!std::isfinite(value))
        return refuse(text, unit, "not a finite number");
    return {value, {}};
}

DrillVerdict checkDrillAnswer(const DrillQuestion& q, std::string_view text) {
    DrillVerdict v;
    v.guess = parseDrillGuess(text, q.unit, q.choices);
    if (!v.guess.ok()) {
        v.summary = v.guess.error;
        return v;
    }
    const double g = v.guess.value, a = q.answer;
    v.correct = q.relativeTolerance == 0 ? g == a : std::abs(g - a) <= q.relativeTolerance * std::abs(a);
    if (q.unit != DrillUnit::choice && g != 0 && a != 0 && (g > 0) == (a > 0)) {
        v.ratio = g / a;
        v.ordersOfMagnitude = std::log10(v.ratio);
    }
    if (v.correct) {
        v.summary = "right";
    } else if (q.unit == DrillUnit::choice) {
        v.summary = "not quite: it is a " + q.answerText;
    } else if (v.ratio == 0) {
        v.summary = "not quite: the answer is " + q.answerText;
    } else {
        const double factor = v.ratio >= 1 ? v.ratio : 1 / v.ratio;
        // Two significant digits are what a room can say: "3.6× too low", "12× too high", "1.5e+03×".
        char factorText[32];
        std::snprintf(factorText, sizeof factorText,
                      factor < 10    ? "%.1f"
                      : factor < 100 ? "%.0f"
                                     : "%.2g",
                      factor);
        char text[96];
        std::snprintf(text, sizeof text, "%s× too %s (%.2g orders of magnitude)", factorText,
                      v.ratio >= 1 ? "high" : "low", std::abs(v.ordersOfMagnitude));
        v.summary = text;
    }
    return v;
}

} // namespace napkin

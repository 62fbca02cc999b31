// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One numeric knob of an input struct, declared once (issue 54): its scenario key, its napkin-cli flag and
// help, the range it accepts with the words a refusal uses, and how the app shows it. The readers of the
// table are generic: validation here, the scenario file (engine/scenario/number_knobs_json.h), the
// command line Napkin prints (engine/report/cli_command_line.cpp), napkin-cli's options
// (cli/number_knob_options.h) and the app's rows (app/model/number_knob_rows.h). Adding a knob to a
// table is one entry; each front end follows. A knob is a plain value, or optional (unset: a default the
// logic names, or no answer), shown in the app as a checkbox beside its box.
#include "engine/numerics/quantity_format.h"

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

namespace napkin {

/// The values a knob accepts: [low, high], (low, high] where `lowOpen`, [low, high) where `highOpen`,
/// whole numbers only where `whole`. A refusal says `phrase` where given ("must be a CUDA major version
/// from 1 to 99"), else "must be in (0, 1e6] dollars" from the interval and `unit`.
struct NumberRange {
    double low = 0, high = 0;
    bool lowOpen = false;
    std::string_view unit; ///< after the interval in a refusal: " dollars", " of the TDP", ""
    bool highOpen = false;
    bool whole = false;
    std::string_view phrase;

    bool contains(double v) const {
        return std::isfinite(v) && (lowOpen ? v > low : v >= low) && (highOpen ? v < high : v <= high) &&
               (!whole || v == std::floor(v));
    }
    std::string requirement() const {
        if (!phrase.empty())
            return std::string(phrase);
        return std::string("must be in ") + (lowOpen ? "(" : "[") + formatNumber(low) + ", " +
               formatNumber(high) + (highOpen ? ")" : "]") + std::string(unit);
    }
};

/// How the app shows a knob: the form's label (with its mnemonic), the box's step and decimals, the
/// tooltip (the flag is appended), and for an optional knob the checkbox's text and the value shown while
/// it is unset.
struct NumberKnobLook {
    std::string_view label;
    double step = 1;
    int decimals = 2;
    std::string tip;
    std::string_view checkText;
    double shownWhenUnset = 0;
};

template <class Input> struct NumberKnob {
    std::string_view key;  ///< scenario key: "power_fraction"
    std::string_view flag; ///< napkin-cli: "--power-fraction"; validation names the field by it, less "--"
    std::string_view help; ///< napkin-cli's help line, as --help and the manual page print it
    NumberRange range;
    double Input::*value = nullptr;                   ///< the member, for a plain knob
    std::optional<double> Input::*optional = nullptr; ///< or the member of an optional one
    NumberKnobLook look;
    int Input::*integer = nullptr; ///< or the member of a whole-number knob held in an int (range `whole`)

    bool isOptional() const { return optional != nullptr; }
    /// The value, or nullopt for an unset optional knob.
    std::optional<double> get(const Input& in) const {
        if (integer)
            return static_cast<double>(in.*integer);
        return optional ? in.*optional : std::optional(in.*value);
    }
    /// Sets the value; nullopt unsets an optional knob (a plain one keeps its value). An int member takes a
    /// whole number: its readers check the range first, so that a fraction is refused, never cut.
    void set(Input& in, std::optional<double> v) const {
        if (optional)
            in.*optional = v;
        else if (v && integer)
            in.*integer = static_cast<int>(*v);
        else if (v && value)
            in.*value = *v;
    }
    /// "power-fraction": the name validation errors give the field, which the front ends map to a control.
    std::string_view field() const { return flag.substr(2); }
};

/// The entry of `fields` whose scenario key is `key`, or nullptr.
template <class Input>
const NumberKnob<Input>* findNumberKnob(std::span<const NumberKnob<Input>> fields, std::string_view key) {
    for (const NumberKnob<Input>& f : fields)
        if (f.key == key)
            return &f;
    return nullptr;
}

/// The first field of `fields` whose value is out of its range, with "must be in (0, 1] of the TDP, got 2",
/// or an empty pair: what validate() reports for these knobs.
template <class Input>
std::pair<std::string, std::string> checkNumberKnobs(std::span<const NumberKnob<Input>> fields,
                                                     const Input& in) {
    for (const NumberKnob<Input>& f : fields)
        if (const std::optional<double> v = f.get(in); v && !f.range.contains(*v))
            return {std::string(f.field()), f.range.requirement() + ", got " + formatNumber(*v)};
    return {};
}

} // namespace napkin

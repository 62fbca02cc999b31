// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A table of knobs (engine/accounting/number_knob.h) as napkin-cli options: each registered under its
// flag with its help (so --help and the manual page read the table), its text parsed as every number
// option is (15e12, 1.5B; "--flag: …" on a bad one) into the input. An option not given leaves the input's
// value (a preset's, or the default).
#include "cli/number_option.h"
#include "engine/accounting/number_knob.h"

#include <CLI/CLI.hpp>

#include <span>
#include <string>
#include <vector>

namespace napkin::cli {

/// The given text of each knob, by its place in the table; empty: not given.
struct NumberKnobTexts {
    std::vector<std::string> texts;
};

template <class Input>
void addNumberKnobOptions(CLI::App& sub, std::span<const NumberKnob<Input>> fields, NumberKnobTexts& raw) {
    raw.texts.assign(fields.size(), std::string()); // sized once: CLI11 keeps a reference to each
    for (std::size_t i = 0; i < fields.size(); ++i)
        sub.add_option(std::string(fields[i].flag), raw.texts[i], std::string(fields[i].help));
}

/// One knob of a table registered where its command lists it (its place in --help), into `text`.
template <class Input>
CLI::Option* addNumberKnobOption(CLI::App& sub, const NumberKnob<Input>& knob, std::string& text) {
    return sub.add_option(std::string(knob.flag), text, std::string(knob.help));
}

/// `text` (empty: not given) parsed into the knob's member, as applyNumberKnobOptions does for a table.
template <class Input>
void applyNumberKnobOption(const NumberKnob<Input>& knob, const std::string& text, Input& in) {
    if (text.empty())
        return;
    const std::string flag(knob.flag);
    const double v = parseNumberOption(flag, text);
    if (knob.integer && !knob.range.contains(v))
        throw UsageError(flag + ": " + knob.range.requirement() + ", got '" + text + "'");
    knob.set(in, v);
}

template <class Input>
void applyNumberKnobOptions(std::span<const NumberKnob<Input>> fields, const NumberKnobTexts& raw,
                            Input& in) {
    // An int member would cut a fraction: refused in the table's words (validate() says the rest, for
    // every knob).
    for (std::size_t i = 0; i < fields.size() && i < raw.texts.size(); ++i)
        applyNumberKnobOption(fields[i], raw.texts[i], in);
}

} // namespace napkin::cli

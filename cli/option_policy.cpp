// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/option_policy.h"

#include "cli/number_option.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>

namespace napkin::cli {

namespace {

bool isBlank(const std::string& text) {
    return std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c) != 0; });
}

// What to do instead, where "leave the option out" is not the whole answer (command, option, advice).
struct BlankAdvice {
    std::string_view command, option, advice;
};
constexpr BlankAdvice kBlankAdvice[] = {
    {"tensor", "--shape", "write () for a 0-d tensor"},
};

std::string adviceFor(const std::string& command, const std::string& option) {
    for (const BlankAdvice& a : kBlankAdvice)
        if (a.command == command && a.option == option)
            return std::string(a.advice);
    return "give a value or leave the option out";
}

} // namespace

void refuseBlankValue(const std::string& option, const std::string& text) {
    if (isBlank(text))
        throw UsageError(option + ": empty value; " + adviceFor("", option));
}

void refuseBlankValues(const CLI::App& app) {
    for (const CLI::Option* option : app.get_options()) {
        // A flag's results are "true"/"false" or its own value; only options that take text are checked.
        if (option->count() == 0 || option->get_type_size_max() == 0)
            continue;
        for (const std::string& value : option->results())
            if (isBlank(value))
                throw UsageError(option->get_name() + ": empty value; " +
                                 adviceFor(app.get_name(), option->get_name()));
    }
    for (const CLI::App* sub : app.get_subcommands({}))
        if (sub->parsed())
            refuseBlankValues(*sub);
}

std::uint64_t parseUnsignedOption(const std::string& option, const std::string& text, std::uint64_t max) {
    refuseBlankValue(option, text);
    if (text.front() == '-')
        throw UsageError(option + ": '" + text + "' is negative; give a whole number from 0 to " +
                         std::to_string(max));
    // from_chars takes digits only: no sign, no white space, no exponent, so nothing is rounded.
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error == std::errc::result_out_of_range || (error == std::errc{} && stop == end && value > max))
        throw UsageError(option + ": '" + text + "' is above the largest allowed, " + std::to_string(max));
    if (error != std::errc{} || stop != end)
        throw UsageError(option + ": cannot read '" + text + "' as a whole number from 0 to " +
                         std::to_string(max));
    return value;
}

CLI::Option* addSeedOption(CLI::App& app, const std::string& name, std::uint64_t& target,
                           const std::string& help) {
    return app
        .add_option_function<std::string>(
            name, [&target, name](const std::string& text) { target = parseUnsignedOption(name, text); },
            help)
        ->type_name("UINT");
}

} // namespace napkin::cli

#include "cli/number_option.h"

#include "engine/numerics/number_parse.h"

namespace napkin::cli {

double parseNumberOption(const std::string& option, const std::string& text) {
    const ParsedNumber parsed = parseNumber(text);
    if (!parsed.ok())
        throw UsageError(option + ": cannot read '" + text + "' as a number: " + parsed.error +
                         " (at character " + std::to_string(parsed.errorAt + 1) + ")");
    return parsed.value;
}

std::optional<double> parseOptionalNumberOption(const std::string& option, const std::string& text) {
    if (text.empty())
        return std::nullopt;
    return parseNumberOption(option, text);
}

} // namespace napkin::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli/number_option.h"

#include "engine/compute/memory_bandwidth.h"
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

std::uint64_t parseBytesPerArrayOption(const std::string& option, const std::string& text) {
    if (text.empty())
        return 0;
    try {
        return parseBytesPerArray(text);
    } catch (const std::invalid_argument& e) {
        throw UsageError(option + ": " + e.what());
    }
}

} // namespace napkin::cli

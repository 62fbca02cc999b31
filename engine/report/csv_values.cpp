// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/report/csv_values.h"

#include "engine/numerics/quantity_format.h"

namespace napkin {

std::string csvNumber(double value) {
    return formatShortest(value);
}

std::string csvOptional(const std::optional<double>& value) {
    return value ? csvNumber(*value) : std::string();
}

std::string csvField(std::string_view text) {
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    return quoted + '"';
}

std::string csvRow(const std::vector<std::string>& fields) {
    std::string row;
    for (std::size_t i = 0; i < fields.size(); ++i)
        row += (i ? "," : "") + fields[i];
    return row + '\n';
}

} // namespace napkin

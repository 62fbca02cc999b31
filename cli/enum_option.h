// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The names an enum option accepts, taken from the engine's one name table per enum (never typed out
// again here), for CLI11's IsMember check and for help texts.
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace napkin::cli {

/// Every value's name, in the table's order.
template <typename Enum>
std::vector<std::string> enumNames(std::span<const Enum> values, std::string_view (*name)(Enum)) {
    std::vector<std::string> names;
    for (Enum value : values)
        names.emplace_back(name(value));
    return names;
}

/// "a|b|c".
inline std::string joinNames(const std::vector<std::string>& names, std::string_view separator = "|") {
    std::string text;
    for (const std::string& n : names)
        text += (text.empty() ? "" : std::string(separator)) + n;
    return text;
}

} // namespace napkin::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One table of names per enum: value → name, name → value and the list of every value all read the
// same table, so the spelling on the command line, in JSON and in scenario files cannot drift apart.
//
//   constexpr NameTable<Optimizer, 2> kNames{{{Optimizer::sgd, "sgd"}, {Optimizer::adam, "adam"}}};
//   nameIn(kNames, Optimizer::adam) == "adam";  valueIn(kNames, "sgd") == Optimizer::sgd
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace napkin {

template <typename Enum, std::size_t N> using NameTable = std::array<std::pair<Enum, std::string_view>, N>;

/// The name of `value`; empty for a value the table lacks (which a complete table never does).
template <typename Enum, std::size_t N>
constexpr std::string_view nameIn(const NameTable<Enum, N>& table, Enum value) {
    for (const auto& [v, name] : table)
        if (v == value)
            return name;
    return {};
}

/// The value called `name` (exact, case-sensitive), or nullopt.
template <typename Enum, std::size_t N>
constexpr std::optional<Enum> valueIn(const NameTable<Enum, N>& table, std::string_view name) {
    for (const auto& [value, n] : table)
        if (n == name)
            return value;
    return std::nullopt;
}

/// Every value, in the table's order.
template <typename Enum, std::size_t N>
constexpr std::array<Enum, N> valuesIn(const NameTable<Enum, N>& table) {
    std::array<Enum, N> values{};
    for (std::size_t i = 0; i < N; ++i)
        values[i] = table[i].first;
    return values;
}

/// "a, b, c": the names for help texts and error messages.
template <typename Enum, std::size_t N> std::string namesIn(const NameTable<Enum, N>& table) {
    std::string list;
    for (const auto& [value, name] : table) {
        if (!list.empty())
            list += ", ";
        list += name;
    }
    return list;
}

} // namespace napkin

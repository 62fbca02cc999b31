// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/size_list.h"

#include "engine/numerics/number_parse.h"
#include "engine/numerics/quantity_format.h"

#include <cctype>
#include <cmath>
#include <optional>
#include <utility>

namespace napkin {
namespace {

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    return text;
}

// Where the next separator starts, and how long it is; npos when there is none.
std::pair<std::size_t, std::size_t> nextSeparator(std::string_view text, std::size_t from,
                                                  const std::vector<std::string_view>& separators) {
    std::pair<std::size_t, std::size_t> best{std::string_view::npos, 0};
    for (std::string_view separator : separators)
        if (const std::size_t at = text.find(separator, from); at < best.first)
            best = {at, separator.size()};
    return best;
}

std::string quoted(std::string_view item) {
    return "'" + std::string(item) + "'";
}

// "65536", "1.00e15": a limit as a message states it.
std::string limitText(double value) {
    return value < 1e6 ? formatExact(value) : formatNumber(value);
}

// Binary bytes: digits, then B, K/KiB, M/MiB or G/GiB in any case.
double bytesOf(std::string_view item, const SizeListRules& rules, std::string& error) {
    std::size_t digits = 0;
    while (digits < item.size() && std::isdigit(static_cast<unsigned char>(item[digits])))
        ++digits;
    if (digits == 0) {
        error =
            quoted(item) + " is not a size (a whole number of bytes, optionally with K, M or G: 4K, 1M, 1G)";
        return 0;
    }
    std::string suffix(item.substr(digits));
    for (char& c : suffix)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    double unit = 0;
    if (suffix.empty() || suffix == "B")
        unit = 1;
    else if (suffix == "K" || suffix == "KIB")
        unit = 1024.0;
    else if (suffix == "M" || suffix == "MIB")
        unit = 1024.0 * 1024.0;
    else if (suffix == "G" || suffix == "GIB")
        unit = 1024.0 * 1024.0 * 1024.0;
    const std::string limit = formatBytes(rules.maximum, ByteUnits::binary);
    if (digits > 15) { // beyond any limit whatever the suffix, and beyond a double's whole numbers
        error = quoted(item) + " is above the " + limit + " limit";
        return 0;
    }
    if (unit == 0) {
        error = quoted(item) + " has an unknown unit (use K, M or G, binary: 1K = 1024 bytes)";
        return 0;
    }
    const double bytes = std::stod(std::string(item.substr(0, digits))) * unit;
    if (bytes == 0 && rules.minimum > 0)
        error = quoted(item) + " is zero bytes";
    else if (bytes < rules.minimum)
        error = quoted(item) + " is below the " + formatBytes(rules.minimum, ByteUnits::binary) + " minimum";
    else if (bytes > rules.maximum)
        error = quoted(item) + " is above the " + limit + " limit";
    return bytes;
}

// A count in napkin's number syntax, whole and in range.
double countOf(std::string_view item, const SizeListRules& rules, std::string& error) {
    const ParsedNumber parsed = parseNumber(item);
    if (!parsed.ok()) {
        error = "cannot read " + quoted(item) + " as a number: " + parsed.error + " (at character " +
                std::to_string(parsed.errorAt + 1) + ")";
        return 0;
    }
    if (!(parsed.value >= rules.minimum && parsed.value <= rules.maximum) ||
        parsed.value != std::floor(parsed.value))
        error = quoted(item) + " is not a whole number between " + limitText(rules.minimum) + " and " +
                limitText(rules.maximum);
    return parsed.value;
}

std::optional<double> itemValue(std::string_view item, const SizeListRules& rules, std::string& error) {
    if (!rules.products || item.find('*') == std::string_view::npos) {
        const double v =
            rules.unit == SizeUnit::bytes ? bytesOf(item, rules, error) : countOf(item, rules, error);
        return error.empty() ? std::optional<double>(v) : std::nullopt;
    }
    double product = 1;
    std::size_t start = 0;
    while (true) { // "12288*4": each factor a size of its own, the product checked again
        const std::size_t star = item.find('*', start);
        const std::string_view factor =
            trimmed(item.substr(start, star == std::string_view::npos ? star : star - start));
        SizeListRules factorRules = rules;
        factorRules.products = false;
        const std::optional<double> v = itemValue(factor, factorRules, error);
        if (!v)
            return std::nullopt;
        product *= *v;
        if (star == std::string_view::npos)
            break;
        start = star + 1;
    }
    if (product > rules.maximum) {
        error = quoted(item) + " is above the " + limitText(rules.maximum) + " limit";
        return std::nullopt;
    }
    return product;
}

} // namespace

SizeList parseSizeList(std::string_view text, const SizeListRules& rules) {
    SizeList list;
    std::size_t start = 0;
    while (true) {
        const auto [end, separatorLength] = nextSeparator(text, start, rules.separators);
        const std::string_view item =
            trimmed(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (!(item.empty() && rules.skipEmpty)) {
            const std::optional<double> v = itemValue(item, rules, list.error);
            if (!v) {
                list.sizes.clear();
                return list;
            }
            list.sizes.push_back(*v);
        }
        if (end == std::string_view::npos)
            break;
        start = end + separatorLength;
    }
    return list;
}

} // namespace napkin

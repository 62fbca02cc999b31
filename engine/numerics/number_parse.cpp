// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/number_parse.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace napkin {
namespace {

struct Suffix {
    std::string_view text;
    double scale;
};

// Longest first, so "Ki" wins over "K".
constexpr std::array<Suffix, 11> kSuffixes{{{"Ki", 1024.0},
                                            {"Mi", 1024.0 * 1024.0},
                                            {"Gi", 1024.0 * 1024.0 * 1024.0},
                                            {"Ti", 1024.0 * 1024.0 * 1024.0 * 1024.0},
                                            {"k", 1e3},
                                            {"K", 1e3},
                                            {"M", 1e6},
                                            {"B", 1e9},
                                            {"G", 1e9},
                                            {"T", 1e12},
                                            {"P", 1e15}}};

ParsedNumber failure(std::string reason, std::size_t at) {
    ParsedNumber result;
    result.error = std::move(reason);
    result.errorAt = at;
    return result;
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

} // namespace

ParsedNumber parseNumber(std::string_view text) {
    std::size_t begin = 0;
    std::size_t end = text.size();
    while (begin < end && isSpace(text[begin]))
        ++begin;
    while (end > begin && isSpace(text[end - 1]))
        --end;
    if (begin == end)
        return failure("empty; expected a number such as 70e9, 15T or 1.5B", 0);

    // Drop digit separators, remembering where each kept character came from for error positions.
    std::string cleaned;
    std::basic_string<std::size_t> origin;
    for (std::size_t i = begin; i < end; ++i) {
        if (text[i] == '_')
            continue;
        cleaned.push_back(text[i]);
        origin.push_back(i);
    }
    if (cleaned.empty())
        return failure("expected a number such as 70e9, 15T or 1.5B", begin);

    double scale = 1.0;
    for (const Suffix& suffix : kSuffixes) {
        if (cleaned.size() > suffix.text.size() && cleaned.ends_with(suffix.text)) {
            scale = suffix.scale;
            cleaned.resize(cleaned.size() - suffix.text.size());
            break;
        }
    }

    const char* first = cleaned.data();
    const char* last = cleaned.data() + cleaned.size();
    if (*first == '+')
        ++first; // from_chars does not accept a leading '+'
    double value = 0.0;
    const auto [ptr, ec] = std::from_chars(first, last, value, std::chars_format::general);
    const std::size_t consumed = static_cast<std::size_t>(ptr - cleaned.data());
    if (ec == std::errc::invalid_argument || ptr == first)
        return failure("not a number; expected something like 70e9, 15T or 1.5B", origin[0]);
    if (ec == std::errc::result_out_of_range)
        return failure("out of range", origin[0]);
    if (ptr != last)
        return failure("unexpected '" + std::string(1, cleaned[consumed]) + "'", origin[consumed]);
    if (!std::isfinite(value))
        return failure("must be finite", origin[0]);

    value *= scale;
    if (!std::isfinite(value))
        return failure("out of range", origin[0]);
    ParsedNumber result;
    result.value = value;
    return result;
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/quantity_format.h"

#include "engine/text/formula_text.h"
#include "engine/numerics/work_counts.h"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace napkin {
namespace {

// std::to_chars: locale-independent and several times faster than snprintf, which matters because the
// GUI rebuilds every formula string on each slider tick.
std::string toChars(double value, std::chars_format format, int precision) {
    std::array<char, 64> buffer{};
    const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value, format, precision);
    return std::string(buffer.data(), result.ptr);
}

// Like "%.4g": up to `digits` significant digits, no trailing zeros.
std::string significant(double value, int digits) {
    return toChars(value, std::chars_format::general, digits);
}

// A whole number from 1e6 up to 2^63 in three significant digits, "4.98e8": the digits of an integer are
// exact, so rounding them half to even where the dropped digits are exactly half gives the text
// to_chars(scientific, 2) would, at a fraction of its cost (most of a formula's numbers are byte counts).
std::string wholeScientific(double value) {
    auto whole = static_cast<std::uint64_t>(std::fabs(value));
    int exponent = 0;
    std::uint64_t scale = 1; // 10^(digits − 3)
    for (std::uint64_t rest = whole; rest >= 1000; rest /= 10) {
        scale *= 10;
        ++exponent;
    }
    std::uint64_t kept = whole / scale;
    const std::uint64_t dropped = whole % scale;
    if (dropped * 2 > scale || (dropped * 2 == scale && kept % 2 == 1))
        ++kept;
    if (kept == 1000) {
        kept = 100;
        ++exponent;
    }
    exponent += 2; // kept holds three digits: d.dd
    std::array<char, 32> buffer{};
    char* out = buffer.data();
    if (value < 0)
        *out++ = '-';
    *out++ = static_cast<char>('0' + kept / 100);
    *out++ = '.';
    *out++ = static_cast<char>('0' + kept / 10 % 10);
    *out++ = static_cast<char>('0' + kept % 10);
    *out++ = 'e';
    out = std::to_chars(out, buffer.data() + buffer.size(), exponent).ptr;
    return {buffer.data(), out};
}

std::string spellNumber(double value);

// The last numbers spelled on this thread, by bit pattern: a recompute spells the same few (the GPUs, the
// tokens, the peak) in many formulas, and a copy of a short string is several times cheaper than
// spelling it again. The text is spellNumber's, whatever the hit.
class SpelledNumbers {
public:
    const std::string& spelled(double value) {
        const auto bits = std::bit_cast<std::uint64_t>(value);
        Entry& entry = entries_[(bits * 0x9E3779B97F4A7C15ULL) >> (64 - kIndexBits)];
        if (!entry.used || entry.bits != bits) {
            entry.text = spellNumber(value);
            entry.bits = bits;
            entry.used = true;
        }
        return entry.text;
    }

private:
    static constexpr int kIndexBits = 6;
    struct Entry {
        std::uint64_t bits = 0;
        bool used = false;
        std::string text;
    };
    std::array<Entry, std::size_t{1} << kIndexBits> entries_;
};

} // namespace

std::string formatNumber(double value) {
    if (!formulasWanted()) // a search's probe: its texts are never read
        return {};
    ++workCounts().formattedNumbers;
    thread_local SpelledNumbers recent;
    return recent.spelled(value);
}

namespace {

std::string spellNumber(double value) {
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    // Written into one stack buffer and copied once: a recompute spells a few hundred numbers.
    std::array<char, 64> buffer{};
    char* const first = buffer.data();
    char* const last = first + buffer.size();
    const double magnitude = std::fabs(value);
    if (magnitude < 1e6 && value == std::floor(value)) {
        // A whole number below a million is exact as an integer, whose conversion is several times
        // cheaper than the double's fixed-precision one; the text is the same ("-0" stays "-0").
        if (value == 0 && std::signbit(value))
            return "-0";
        return {first, std::to_chars(first, last, static_cast<long>(value)).ptr};
    }
    if (magnitude >= 1e-3 && magnitude < 1e6) {
        // Four significant digits, unless that needs an exponent (fractions from 1e4 up).
        char* const end = std::to_chars(first, last, value, std::chars_format::general, 4).ptr;
        if (std::find(first, end, 'e') == end)
            return {first, end};
    }
    if (magnitude >= 1e6 && magnitude < 9.2e18 && value == std::floor(value))
        return wholeScientific(value);
    // Scientific with two decimals prints "6.30e+24"; formulas read better as "6.30e24".
    char* const end = std::to_chars(first, last, value, std::chars_format::scientific, 2).ptr;
    char* const e = std::find(first, end, 'e');
    std::string text(first, e + 1);
    const char* exponent = e + 1;
    if (*exponent == '-')
        text += '-';
    ++exponent; // the sign
    while (end - exponent > 1 && *exponent == '0')
        ++exponent;
    text.append(exponent, static_cast<std::size_t>(end - exponent));
    return text;
}

} // namespace

std::string formatExact(double value) {
    if (!formulasWanted())
        return {};
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9007199254740992.0)
        return toChars(value, std::chars_format::fixed, 0);
    return formatNumber(value);
}

std::string formatShortest(double value) {
    if (!formulasWanted())
        return {};
    std::array<char, 32> buffer{};
    const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    return ec == std::errc() ? std::string(buffer.data(), end) : std::string();
}

std::string formatBytes(double bytes, ByteUnits units) {
    static constexpr std::array<std::string_view, 7> decimalNames{"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    static constexpr std::array<std::string_view, 7> binaryNames{"B",   "KiB", "MiB", "GiB",
                                                                 "TiB", "PiB", "EiB"};
    const double step = units == ByteUnits::decimal ? 1000.0 : 1024.0;
    const auto& names = units == ByteUnits::decimal ? decimalNames : binaryNames;
    std::size_t unit = 0;
    double scaled = bytes;
    while (std::fabs(scaled) >= step && unit + 1 < names.size()) {
        scaled /= step;
        ++unit;
    }
    return significant(scaled, 4) + " " + std::string(names[unit]);
}

std::string formatFlops(double flops, bool perSecond) {
    static constexpr std::array<std::string_view, 7> prefixes{"", "k", "M", "G", "T", "P", "E"};
    std::size_t unit = 0;
    double scaled = flops;
    while (std::fabs(scaled) >= 1000.0 && unit + 1 < prefixes.size()) {
        scaled /= 1000.0;
        ++unit;
    }
    if (std::fabs(scaled) >= 1000.0) // beyond exa: plain e-notation
        return formatNumber(flops) + (perSecond ? " FLOP/s" : " FLOPs");
    return significant(scaled, 4) + " " + std::string(prefixes[unit]) + (perSecond ? "FLOP/s" : "FLOPs");
}

std::string formatDuration(double seconds) {
    if (seconds < 1e-3)
        return significant(seconds * 1e6, 4) + " µs";
    if (seconds < 1.0)
        return significant(seconds * 1e3, 4) + " ms";
    if (seconds < 3600.0)
        return significant(seconds, 4) + " s";
    if (seconds < 86400.0)
        return significant(seconds / 3600.0, 4) + " h";
    return formatNumber(seconds / 86400.0) + " days";
}

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/numerics/float_rounding.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace napkin {
namespace {

FloatRounding describe(FloatFormat format, double input, std::uint32_t bits) {
    FloatRounding r;
    r.format = format;
    r.input = input;
    r.bits = maskFloatBits(format, bits);
    r.value = decodeFloat(format, r.bits);
    r.cls = classifyFloat(format, r.bits);
    r.fields = floatFields(format, r.bits);
    if (std::isfinite(input)) {
        // An overflow to inf or NaN loses the number entirely: call the error infinite, not NaN.
        r.absError =
            std::isfinite(r.value) ? std::fabs(r.value - input) : std::numeric_limits<double>::infinity();
        r.relError = input == 0.0 ? 0.0 : *r.absError / std::fabs(input);
    }
    r.previous = nextBelow(format, r.bits);
    r.next = nextAbove(format, r.bits);
    r.ulp = unitInLastPlace(format, r.value);
    return r;
}

} // namespace

FloatRounding roundToFormat(FloatFormat format, double input, OverflowMode overflow) {
    return describe(format, input, encodeFloat(format, input, overflow));
}

FloatRounding describePattern(FloatFormat format, std::uint32_t bits) {
    return describe(format, decodeFloat(format, maskFloatBits(format, bits)), bits);
}

ParsedNumber parseFloatValue(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    const auto last = text.find_last_not_of(" \t");
    std::string word(first == std::string_view::npos ? std::string_view{}
                                                     : text.substr(first, last - first + 1));
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    ParsedNumber special;
    if (word == "inf" || word == "+inf" || word == "infinity" || word == "+infinity")
        special.value = std::numeric_limits<double>::infinity();
    else if (word == "-inf" || word == "-infinity")
        special.value = -std::numeric_limits<double>::infinity();
    else if (word == "nan" || word == "+nan")
        special.value = std::numeric_limits<double>::quiet_NaN();
    else if (word == "-nan")
        special.value = -std::numeric_limits<double>::quiet_NaN();
    else
        return parseNumber(text);
    return special;
}

std::string floatBitsHex(FloatFormat format, std::uint32_t bits) {
    static constexpr char digits[] = "0123456789abcdef";
    const int count = floatLayout(format).totalBits() / 4;
    std::string text = "0x";
    for (int i = count - 1; i >= 0; --i)
        text += digits[(bits >> (4 * i)) & 0xfu];
    return text;
}

std::string floatBitsBinary(FloatFormat format, std::uint32_t bits) {
    const FloatLayout& f = floatLayout(format);
    std::string text;
    for (int i = f.totalBits() - 1; i >= 0; --i) {
        text += ((bits >> i) & 1u) ? '1' : '0';
        if (i == f.totalBits() - 1 || (i == f.mantissaBits && f.mantissaBits > 0))
            text += ' ';
    }
    return text;
}

double tensorBytes(const std::vector<double>& shape, FloatFormat format) {
    double elements = 1;
    for (double size : shape)
        elements *= size;
    return elements * floatLayout(format).totalBits() / 8.0;
}

} // namespace napkin

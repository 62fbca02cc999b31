// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the float codecs for any double and any bit pattern: decode(encode(v)) is the nearest
// representable value (never further than the neighbours), encode(decode(bits)) == bits for non-NaN
// patterns, and the class agrees with the decoded value.
#include "engine/numerics/float_format.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

using namespace napkin;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 9)
        return 0;
    const FloatFormat format = kFloatFormats[data[0] % kFloatFormats.size()];
    double value = 0;
    std::memcpy(&value, data + 1, sizeof value);

    const std::uint32_t bits = encodeFloat(format, value);
    const double decoded = decodeFloat(format, bits);
    if (std::isnan(value) != std::isnan(decoded) && !(format == FloatFormat::fp8_e4m3 && std::isnan(decoded)))
        std::abort(); // only E4M3's overflow may turn a number into NaN
    if (std::isfinite(value) && std::isfinite(decoded)) {
        // Round to nearest: no representable neighbour of the result is closer to the input.
        const double error = std::fabs(decoded - value);
        const auto above = nextAbove(format, bits);
        const auto below = nextBelow(format, bits);
        if (above && std::isfinite(*above) && std::fabs(*above - value) < error)
            std::abort();
        if (below && std::isfinite(*below) && std::fabs(*below - value) < error)
            std::abort();
    }

    // Any bit pattern: decoding and re-encoding gives it back, NaNs aside.
    std::uint32_t pattern = 0;
    std::memcpy(&pattern, data + 1, sizeof pattern);
    pattern = maskFloatBits(format, pattern);
    const double patternValue = decodeFloat(format, pattern);
    const FloatClass cls = classifyFloat(format, pattern);
    if ((cls == FloatClass::nan) != std::isnan(patternValue) ||
        (cls == FloatClass::infinity) != std::isinf(patternValue))
        std::abort();
    if (cls != FloatClass::nan && encodeFloat(format, patternValue) != pattern)
        std::abort();
    return 0;
}

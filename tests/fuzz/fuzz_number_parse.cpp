// SPDX-License-Identifier: GPL-3.0-or-later
// Property: parseNumber never crashes, and an accepted value is finite with no error position.
#include "engine/numerics/number_parse.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const napkin::ParsedNumber parsed = napkin::parseNumber(text);
    if (parsed.ok() && !std::isfinite(parsed.value))
        std::abort();
    if (!parsed.ok() && parsed.errorAt > size)
        std::abort();
    return 0;
}

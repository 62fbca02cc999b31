// SPDX-License-Identifier: GPL-3.0-or-later
// Properties of the tour loader: never crashes or throws; a refusal always says why, in one line; an
// accepted tour writes back to text that loads to the same tour, with no warning.
#include "engine/scenario/tour_file.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const napkin::TourParse parsed = napkin::parseTour(text);
    if (!parsed.ok()) {
        if (parsed.error.empty() || parsed.error.find('\n') != std::string::npos)
            std::abort();
        return 0;
    }
    const napkin::TourParse again = napkin::parseTour(napkin::writeTour(*parsed.tour));
    if (!again.ok() || !again.warnings.empty() || !(*again.tour == *parsed.tour))
        std::abort();
    return 0;
}

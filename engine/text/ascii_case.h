// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Identifiers (preset ids, GPU ids) compare without regard to ASCII case: "H100-sxm" finds "H100-SXM".
#include <algorithm>
#include <cctype>
#include <string_view>

namespace napkin {

/// True when `a` and `b` differ at most in the case of ASCII letters.
inline bool equalsIgnoringCase(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace napkin

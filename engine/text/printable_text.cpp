// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/printable_text.h"

namespace napkin {

std::string printable(std::string_view text) {
    constexpr std::size_t kMaxShown = 64;
    std::string out;
    for (const char c : text.substr(0, kMaxShown))
        out.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? '?' : c);
    if (text.size() > kMaxShown)
        out += "…";
    return out;
}

} // namespace napkin

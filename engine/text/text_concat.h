// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A formula's pieces joined into one string sized once. Written as "a = " + n(x) + " × " + n(y) + ..., a
// formula grows its string as it goes: a number's short buffer, then twice that, and again, each step a
// new allocation and a copy (in one account() more than half of all allocations were such regrowths).
// concat({"a = ", n(x), " × ", n(y)}) counts the pieces first and allocates once. The pieces are views:
// temporaries (a number just spelled) live until the end of the full expression, as with +.
#include <initializer_list>
#include <string>
#include <string_view>

namespace napkin {

/// The pieces one after another, in one allocation at most.
inline std::string concat(std::initializer_list<std::string_view> pieces) {
    std::size_t size = 0;
    for (const std::string_view piece : pieces)
        size += piece.size();
    std::string text;
    text.reserve(size);
    for (const std::string_view piece : pieces)
        text.append(piece);
    return text;
}

/// `text` with the pieces appended, growing it once.
inline void concatTo(std::string& text, std::initializer_list<std::string_view> pieces) {
    std::size_t size = text.size();
    for (const std::string_view piece : pieces)
        size += piece.size();
    text.reserve(size);
    for (const std::string_view piece : pieces)
        text.append(piece);
}

} // namespace napkin

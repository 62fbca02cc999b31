// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/text/json_nesting.h"

namespace napkin {

int jsonNestingDepth(std::string_view text, int stopAbove) {
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > deepest)
                deepest = depth;
            if (deepest > stopAbove)
                return deepest;
        } else if ((c == ']' || c == '}') && depth > 0) { // a stray closer cannot hide later openers
            --depth;
        }
    }
    return deepest;
}

} // namespace napkin

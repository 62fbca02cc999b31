// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// How deeply a JSON text nests its arrays and objects, counted on the text itself: one pass, no
// recursion, nothing built. Every reader of a user's JSON file (scenario, model config.json) refuses a
// deep file with it before parsing, so no code downstream (a parser, a destructor, a message that
// prints an item) ever recurses over a document nested 60,000 deep.
#include <string_view>

namespace napkin {

/// The deepest nesting of `[` and `{` in `text`, brackets inside strings aside. Counting stops as soon
/// as it passes `stopAbove`, so a huge deep text costs no more than its first stopAbove + 1 levels.
int jsonNestingDepth(std::string_view text, int stopAbove);

} // namespace napkin

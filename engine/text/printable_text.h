// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A user's text quoted in a one-line message: a name read from a file may hold a newline or be a megabyte
// long, and a refusal must still be one short line (the CLI's and the app's contract).
#include <string>
#include <string_view>

namespace napkin {

/// `text` fit for a one-line message: control characters (a newline in a name) shown as '?', and anything
/// past 64 bytes cut to "…", so a refusal never spans lines or repeats a whole field.
std::string printable(std::string_view text);

} // namespace napkin

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// napkin-cli's manual page (roff, man(7)), written from the same CLI11 option registration that parses the
// command line, so every command, option, type, default and help text in `man napkin-cli` is the one the
// program accepts. `napkin-cli --man-page` prints it; the build writes napkin-cli.1 from it and installs it.
#include <string>

namespace CLI {
class App;
}

namespace napkin::cli {

/// The whole manual page for `app` and its subcommands (nested ones too, e.g. `bench matmul`).
std::string manPage(const CLI::App& app, const std::string& version);

/// `text` made safe for roff: backslashes as \e, hyphens as \-, and a line that would start with a
/// control character ('.' or '\'') guarded with \&.
std::string roffEscape(const std::string& text);

} // namespace napkin::cli

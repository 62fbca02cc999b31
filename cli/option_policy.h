// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The rules every napkin-cli option follows, in one place: a value given must say something (an empty
// or blank value is refused, never read as "not given" or as 0), and integers are read as integers
// with their range (never wrapped or clamped by the conversion).
#include <cstdint>
#include <limits>
#include <string>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace napkin::cli {

/// Throws UsageError naming `option` when `text` is empty or only white space.
void refuseBlankValue(const std::string& option, const std::string& text);

/// Throws UsageError for the first option of `app` or of its chosen subcommands (depth first) that was
/// given an empty or blank value. run() calls it after parsing, so no command needs to.
void refuseBlankValues(const CLI::App& app);

/// Reads `text` given to `option` as a whole number in [0, max]: decimal digits only, so "-1" is refused
/// rather than wrapped to 2^64 − 1 and 2^64 is refused rather than clamped. Throws UsageError naming it.
std::uint64_t parseUnsignedOption(const std::string& option, const std::string& text,
                                  std::uint64_t max = std::numeric_limits<std::uint64_t>::max());

/// Registers `name` as a seed in [0, 2^64 − 1] read by parseUnsignedOption into `target` (whose value
/// is the default). A bad value throws UsageError out of CLI::App::parse.
CLI::Option* addSeedOption(CLI::App& app, const std::string& name, std::uint64_t& target,
                           const std::string& help);

} // namespace napkin::cli

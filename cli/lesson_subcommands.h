// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The subcommands under `napkin-cli lesson`, one file each, and the option helper they share.
#include "cli/command.h"

#include <cstdint>
#include <string>

namespace napkin::cli {

Command addLessonInitCommand(CLI::App& lesson);
Command addLessonDataCommand(CLI::App& lesson);
/// `determinism` and `mixed-precision`: both train the lesson Cruncher.
Command addLessonDeterminismCommand(CLI::App& lesson);
Command addLessonMixedPrecisionCommand(CLI::App& lesson);

/// A whole number in [lo, hi] given to `option` ("70e9" style accepted); throws UsageError naming it.
long wholeNumberOption(const std::string& option, const std::string& text, double lo, double hi);

} // namespace napkin::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli drill`: napkin-math questions with fresh numbers, the engine's answers, and a checker for
// answers typed with units.
#include "cli/command.h"

namespace napkin::cli {

Command addDrillCommand(CLI::App& parent);

} // namespace napkin::cli

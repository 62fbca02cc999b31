// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench plan`: how long the layout search takes (engine/planning/plan_benchmark.h).
#include "cli/command.h"

namespace napkin::cli {

/// Adds `plan` under `bench`; the returned Command runs it when it was chosen.
Command addBenchPlanCommand(CLI::App& bench);

} // namespace napkin::cli

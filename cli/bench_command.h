// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench ...`: benchmarks. `bench account` times one full recompute of the accounting.
#include "cli/command.h"

namespace napkin::cli {

Command addBenchCommand(CLI::App& parent);

} // namespace napkin::cli

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli calibrate`: this machine's hardware profile from Napkin's own benchmarks, for the step time.
#include "cli/command.h"

namespace napkin::cli {

Command addCalibrateCommand(CLI::App& parent);

} // namespace napkin::cli

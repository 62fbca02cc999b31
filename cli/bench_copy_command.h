// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// `napkin-cli bench copy` (host<->device bandwidth) and `bench alloc` (the lecture's allocation check).
#include "cli/command.h"

namespace napkin::cli {

/// Adds `copy` under `bench`; the returned Command runs it when it was chosen.
Command addBenchCopyCommand(CLI::App& bench);
/// Adds `alloc` under `bench`.
Command addBenchAllocCommand(CLI::App& bench);

} // namespace napkin::cli
